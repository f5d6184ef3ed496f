#!/usr/bin/env python3
"""docs_check.py SOURCE: every YAML example of docs/ci.md loads; the inputs it gives the
action exist in action.yml; the hooks it names exist in .pre-commit-hooks.yaml, and its local
hook is the same hook; a hook gives no args and its entry ends with "--"; the GitLab job
publishes the file its lint writes."""
import os
import re
import sys

try:
    import yaml
except ImportError:
    print("skipped: PyYAML is missing (Debian package python3-yaml)")
    sys.exit(77)

SOURCE = sys.argv[1]
failures = []
with open(os.path.join(SOURCE, "docs", "ci.md")) as f:
    blocks = re.findall(r"```yaml\n(.*?)```", f.read(), re.S)
with open(os.path.join(SOURCE, "action.yml")) as f:
    inputs = set(yaml.safe_load(f)["inputs"])
with open(os.path.join(SOURCE, ".pre-commit-hooks.yaml")) as f:
    hooks = {h["id"]: h for h in yaml.safe_load(f)}


def steps_of(node):
    """Every mapping with 'uses' or 'run' in a loaded example (workflows or bare steps)."""
    if isinstance(node, dict):
        if "uses" in node or "run" in node:
            yield node
        for value in node.values():
            yield from steps_of(value)
    elif isinstance(node, list):
        for value in node:
            yield from steps_of(value)


counts = {"action": 0, "hook": 0, "gitlab": 0}
for number, text in enumerate(blocks, 1):
    try:
        doc = yaml.safe_load(text)
    except yaml.YAMLError as e:
        failures.append("example %d does not load: %s" % (number, e))
        continue
    for step in steps_of(doc):
        if str(step.get("uses", "")).startswith("your-org/syncscope@"):
            counts["action"] += 1
            unknown = set(step.get("with", {})) - inputs
            if unknown:
                failures.append("example %d gives the action unknown inputs %s" % (number, unknown))
    if isinstance(doc, dict) and "repos" in doc:
        for repo in doc["repos"]:
            for hook in repo["hooks"]:
                counts["hook"] += 1
                if "args" in hook:
                    failures.append("example %d gives the hook args: they come after the "
                                    "entry's '--' and are read as files" % number)
                if not str(hook.get("entry", "--")).endswith("--"):
                    failures.append("example %d: the entry does not end the options with '--'"
                                    % number)
                if hook["id"] not in hooks:
                    failures.append("example %d names the unknown hook %s" % (number, hook["id"]))
                elif repo["repo"] == "local":
                    defined = hooks[hook["id"]]
                    for key in ("name", "entry", "language", "files", "require_serial"):
                        if hook.get(key) != defined.get(key):
                            failures.append("example %d: the local hook's %s is %r, not %r"
                                            % (number, key, hook.get(key), defined.get(key)))
    if isinstance(doc, dict) and "syncscope-lint" in doc and "script" in doc["syncscope-lint"]:
        counts["gitlab"] += 1
        job = doc["syncscope-lint"]
        report = job["artifacts"]["reports"]["codequality"]
        if not any("--format gitlab -o %s" % report in line for line in job["script"]):
            failures.append("example %d: no lint writes %s" % (number, report))
if counts != {"action": 2, "hook": 2, "gitlab": 1}:
    failures.append("examples found: %s" % counts)
for failure in failures:
    print("FAIL: " + failure)
sys.exit(1 if failures else 0)
