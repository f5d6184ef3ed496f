#!/usr/bin/env python3
"""run_action.py: runs the steps of a composite GitHub Action (action.yml) the way the
runner does, for tests: `if:` conditions, `${{ }}` expressions in `env:` and `with:`,
`shell: bash` steps with GITHUB_OUTPUT and GITHUB_PATH, and RUNNER_TEMP a temporary folder
removed at the end. A `uses:` step is not run: its evaluated `with:` is recorded. Prints a
JSON report of every step on stdout.

usage: run_action.py ACTION_DIR WORKSPACE [INPUT=VALUE ...]
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

TOKEN = re.compile(
    r"\s*(?:(?P<str>'(?:[^']|'')*')|(?P<op>==|!=|&&|\|\||!|\(|\))|"
    r"(?P<name>[A-Za-z_][A-Za-z0-9_.-]*(?:\(\))?))")


class Context:
    """The values that expressions read: inputs, steps, github, runner, and the status."""

    def __init__(self, inputs, github, runner):
        self.inputs = inputs
        self.steps = {}
        self.github = github
        self.runner = runner
        self.failed = False

    def lookup(self, name):
        parts = name.split(".")
        if parts[0] == "inputs" and len(parts) == 2:
            return self.inputs.get(parts[1], "")
        if parts[0] == "steps" and len(parts) == 4 and parts[2] == "outputs":
            return self.steps.get(parts[1], {}).get(parts[3], "")
        if parts[0] in ("github", "runner") and len(parts) == 2:
            return getattr(self, parts[0]).get(parts[1], "")
        if name in ("true", "false"):
            return name == "true"
        raise ValueError("unsupported expression name: " + name)


def evaluate(text, ctx):
    """Evaluates a GitHub expression of the subset action.yml uses: literals, context
    names, ==, !=, !, &&, ||, parentheses, always(), success(), failure()."""
    tokens, pos = [], 0
    while pos < len(text.rstrip()):
        m = TOKEN.match(text, pos)
        if not m:
            raise ValueError("cannot parse expression: " + text)
        tokens.append(m)
        pos = m.end()
    index = 0

    def peek():
        return tokens[index] if index < len(tokens) else None

    def take():
        nonlocal index
        index += 1
        return tokens[index - 1]

    def primary():
        t = take()
        if t.group("str") is not None:
            return t.group("str")[1:-1].replace("''", "'")
        if t.group("op") == "(":
            value = disjunction()
            take()
            return value
        if t.group("op") == "!":
            return not truthy(primary())
        name = t.group("name")
        if name == "always()":
            return True
        if name == "success()":
            return not ctx.failed
        if name == "failure()":
            return ctx.failed
        return ctx.lookup(name)

    def comparison():
        left = primary()
        while peek() is not None and peek().group("op") in ("==", "!="):
            op = take().group("op")
            right = primary()
            equal = str(left).lower() == str(right).lower()
            left = equal if op == "==" else not equal
        return left

    def conjunction():
        left = comparison()
        while peek() is not None and peek().group("op") == "&&":
            take()
            right = comparison()
            left = right if truthy(left) else left
        return left

    def disjunction():
        left = conjunction()
        while peek() is not None and peek().group("op") == "||":
            take()
            right = conjunction()
            left = left if truthy(left) else right
        return left

    value = disjunction()
    if index != len(tokens):
        raise ValueError("trailing tokens in expression: " + text)
    return value


def truthy(value):
    return value not in ("", False, None, 0)


def interpolate(text, ctx):
    """Replaces every ${{ expression }} in 'text' by its value."""
    def value(m):
        v = evaluate(m.group(1), ctx)
        if v is True or v is False:
            return "true" if v else "false"
        return str(v)
    return re.sub(r"\$\{\{(.*?)\}\}", value, str(text))


def condition(step, ctx):
    """A step's `if:`: success() is implied unless the condition names a status function."""
    expr = step.get("if")
    if expr is None:
        return not ctx.failed
    expr = str(expr).strip()
    if expr.startswith("${{") and expr.endswith("}}"):
        expr = expr[3:-2]
    if not re.search(r"\b(always|success|failure|cancelled)\(\)", expr):
        expr = "success() && (" + expr + ")"
    return truthy(evaluate(expr, ctx))


def read_outputs(path):
    """name=value lines and name<<DELIMITER blocks of a GITHUB_OUTPUT file."""
    outputs = {}
    with open(path) as f:
        lines = f.read().splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delimiter = line.split("<<", 1)
            value = []
            i += 1
            while lines[i] != delimiter:
                value.append(lines[i])
                i += 1
            outputs[name] = "\n".join(value)
        elif "=" in line:
            name, value = line.split("=", 1)
            outputs[name] = value
        i += 1
    return outputs


def run_action(action_dir, workspace, inputs):
    with open(os.path.join(action_dir, "action.yml")) as f:
        action = yaml.safe_load(f)
    values = {name: str(spec.get("default", "")) for name, spec in action["inputs"].items()}
    for name in inputs:
        if name not in values:
            raise ValueError("the action has no input '%s'" % name)
    values.update(inputs)
    temp = tempfile.mkdtemp(prefix="run_action.")
    ctx = Context(values, {"action_path": action_dir, "workspace": workspace},
                  {"temp": temp})
    path_file = os.path.join(temp, "github_path")
    open(path_file, "w").close()
    report = []
    for number, step in enumerate(action["runs"]["steps"]):
        entry = {"name": step.get("name"), "id": step.get("id")}
        report.append(entry)
        if not condition(step, ctx):
            entry["conclusion"] = "skipped"
            continue
        if "uses" in step:
            entry["conclusion"] = "not run"
            entry["uses"] = step["uses"]
            entry["with"] = {k: interpolate(v, ctx) for k, v in step.get("with", {}).items()}
            continue
        if step.get("shell") != "bash":
            raise ValueError("step %r: only shell: bash is supported" % step.get("name"))
        if "${{" in step["run"]:
            raise ValueError("step %r interpolates an expression into its script" % step.get("name"))
        output_file = os.path.join(temp, "output.%d" % number)
        open(output_file, "w").close()
        env = dict(os.environ)
        with open(path_file) as f:
            added = [line for line in f.read().splitlines() if line]
        env["PATH"] = os.pathsep.join(list(reversed(added)) + [env.get("PATH", "")])
        env.update({"GITHUB_ACTION_PATH": action_dir, "GITHUB_WORKSPACE": workspace,
                    "GITHUB_OUTPUT": output_file, "GITHUB_PATH": path_file,
                    "RUNNER_TEMP": temp, "GITHUB_ACTIONS": "true", "CI": "true"})
        env.update({k: interpolate(v, ctx) for k, v in step.get("env", {}).items()})
        script = os.path.join(temp, "step.%d.sh" % number)
        with open(script, "w") as f:
            f.write(step["run"])
        done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", script],
                              cwd=workspace, env=env, capture_output=True, text=True)
        entry.update({"rc": done.returncode, "stdout": done.stdout, "stderr": done.stderr})
        entry["conclusion"] = "success" if done.returncode == 0 else "failure"
        if done.returncode != 0:
            ctx.failed = True
        if step.get("id"):
            ctx.steps[step["id"]] = read_outputs(output_file)
    outputs = {name: interpolate(spec.get("value", ""), ctx)
               for name, spec in action.get("outputs", {}).items()}
    shutil.rmtree(temp, ignore_errors=True)
    return {"steps": report, "outputs": outputs, "failed": ctx.failed}


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    inputs = dict(arg.split("=", 1) for arg in argv[3:])
    json.dump(run_action(os.path.abspath(argv[1]), os.path.abspath(argv[2]), inputs),
              sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
