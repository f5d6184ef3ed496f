#!/usr/bin/env python3
"""test_action.py SOURCE STAGE FIXTURE: the composite action (action.yml at SOURCE) run step
by step by run_action.py against a copy of the fixture repository, with the staged syncscope
on PATH: which steps run, what the lint step prints and outputs, the SARIF log it writes
(findings exactly, no helpUri unless a rules URL is given), the category and file handed to
upload-sarif, and the exit status that the last step gates on. With
SYNCSCOPE_TEST_ACTION_BUILD=1 the build step runs too (a full build: minutes)."""
import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile

try:
    import yaml  # noqa: F401  (run_action needs it)
except ImportError:
    print("skipped: PyYAML is missing (Debian package python3-yaml)")
    sys.exit(77)

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_action import run_action  # noqa: E402

SOURCE, STAGE, FIXTURE = (os.path.abspath(a) for a in sys.argv[1:4])
failures = []


def check(what, expected, actual):
    if expected != actual:
        failures.append("%s\n--- expected\n%r\n--- actual\n%r" % (what, expected, actual))


def workspace():
    """A fresh copy of the fixture repository, with a compile_commands.json in build/."""
    root = tempfile.mkdtemp(prefix="ci_action.")
    atexit.register(shutil.rmtree, root, True)
    repo = os.path.join(root, "repo")
    shutil.copytree(FIXTURE, repo)
    os.makedirs(os.path.join(repo, "build"))
    with open(os.path.join(repo, "build", "compile_commands.json"), "w") as f:
        json.dump([{"directory": repo, "file": "src/pipeline.cu",
                    "command": "nvcc -std=c++17 -Iinclude -c src/pipeline.cu -o build/pipeline.o"}],
                  f)
    subprocess.run(["git", "init", "-q", repo], check=True)
    return repo


def steps_summary(report):
    return [(s["name"], s["conclusion"]) for s in report["steps"]]


def step(report, name):
    return next(s for s in report["steps"] if s["name"] == name)


def sarif_findings(path):
    with open(path) as f:
        log = json.load(f)
    run = log["runs"][0]
    findings = []
    for r in run["results"]:
        loc = r["locations"][0]["physicalLocation"]
        findings.append((r["ruleId"], r["level"], loc["artifactLocation"]["uri"],
                         loc["artifactLocation"]["uriBaseId"], loc["region"]["startLine"],
                         loc["region"]["startColumn"]))
    help_uris = [rule.get("helpUri") for rule in run["tool"]["driver"]["rules"]]
    return log, run, findings, help_uris


EXPECTED_FINDINGS = [
    ("SYNC201", "warning", "src/pipeline.cu", "%SRCROOT%", 13, 5),
    ("SYNC101", "warning", "src/pipeline.cu", "%SRCROOT%", 14, 5),
]
# Linted as the whole database (one unit), no unit calls step() and no header declares it: its
# stream parameter is given nothing (docs/lint.md, "A parameter that no call gives anything"),
# so the legacy-stream launch is a note there; where the paths are named it stays a warning.
WHOLE_DATABASE_FINDINGS = [
    EXPECTED_FINDINGS[0],
    ("SYNC101", "note", "src/pipeline.cu", "%SRCROOT%", 14, 5),
]
EXPECTED_ANNOTATIONS = [
    "::warning file=src/pipeline.cu,line=13,col=5,title=SYNC201 pageable-async-copy",
    "::notice file=src/pipeline.cu,line=14,col=5,title=SYNC101 default-stream-launch",
]


def annotations(stdout):
    """The workflow commands of a step's output, up to their message."""
    return [line.split("::", 2)[0] + "::" + line.split("::", 2)[1]
            for line in stdout.splitlines() if line.startswith("::")]


env_path = os.environ["PATH"]
os.environ["PATH"] = os.path.join(STAGE, "bin") + os.pathsep + env_path
os.environ.pop("SYNCSCOPE_RULES_URL", None)

# 1. The usual pull request run: compile_commands.json, annotations, SARIF upload, and a
# failing gate because of the two warnings.
repo = workspace()
report = run_action(SOURCE, repo, {"build-from-source": "false", "compile-commands-dir": "build",
                                   "sarif-category": "syncscope-lint/cuda"})
check("1: steps", [("Install the build dependencies", "skipped"), ("Cache key", "skipped"),
                   ("Cache the build", "skipped"), ("Build syncscope", "skipped"),
                   ("Lint", "success"), ("Upload SARIF", "not run"),
                   ("Fail on findings", "failure")], steps_summary(report))
lint = step(report, "Lint")
check("1: annotations", EXPECTED_ANNOTATIONS, annotations(lint["stdout"]))
check("1: lint stderr", "", lint["stderr"])
upload = step(report, "Upload SARIF")
check("1: upload action", "github/codeql-action/upload-sarif@v3", upload["uses"])
check("1: upload inputs", {"sarif_file": "syncscope.sarif", "category": "syncscope-lint/cuda"},
      upload["with"])
log, run, findings, help_uris = sarif_findings(os.path.join(repo, "syncscope.sarif"))
check("1: SARIF version", "2.1.0", log["version"])
check("1: SARIF findings", WHOLE_DATABASE_FINDINGS, findings)
check("1: SARIF %SRCROOT%", "file://" + repo + "/", run["originalUriBaseIds"]["%SRCROOT%"]["uri"])
check("1: no automationDetails (the upload's category applies)", None,
      run.get("automationDetails"))
check("1: no helpUri without a rules URL", [None] * len(help_uris), help_uris)
gate = step(report, "Fail on findings")
check("1: gate", (1, "syncscope: findings at or above 'warning' (exit status 1)\n"),
      (gate["rc"], gate["stdout"]))
check("1: outputs", {"sarif-file": "syncscope.sarif", "exit-code": "1"}, report["outputs"])
check("1: lint cache under the compile database's folder", True,
      os.path.isdir(os.path.join(repo, "build", ".syncscope-cache")))

# 2. Named paths without a compile database, fail-on error, no annotations, the version
# checked, a rules URL for the help links (the option's, over the variable's).
repo = workspace()
os.environ["SYNCSCOPE_RULES_URL"] = "https://docs.example.org/syncscope/rules"
report = run_action(SOURCE, repo, {"build-from-source": "false",
                                   "paths": "src/pipeline.cu\ninclude/ring.h",
                                   "fail-on": "error", "annotate": "false",
                                   "version": os.environ.get("SS_TEST_VERSION", "0.1.0"),
                                   "args": "--rules-url https://git.example.com/t/syncscope/-/raw/v1/docs/rules/",
                                   "sarif-file": "out/lint.sarif", "upload-sarif": "false"})
check("2: steps", [("Install the build dependencies", "skipped"), ("Cache key", "skipped"),
                   ("Cache the build", "skipped"), ("Build syncscope", "skipped"), ("Lint", "success"),
                             ("Upload SARIF", "skipped"), ("Fail on findings", "success")],
      steps_summary(report))
lint = step(report, "Lint")
check("2: text output", ["src/pipeline.cu:13:5: warning:", "src/pipeline.cu:14:5: warning:",
                         "2 warnings generated."],
      [" ".join(line.split(" ")[:2]) if line.startswith("src/") else line
       for line in lint["stdout"].splitlines()
       if line.startswith("src/") and ": warning:" in line or line.endswith("generated.")])
check("2: outputs", {"sarif-file": "out/lint.sarif", "exit-code": "0"}, report["outputs"])
_, _, findings, help_uris = sarif_findings(os.path.join(repo, "out", "lint.sarif"))
check("2: SARIF findings", EXPECTED_FINDINGS, findings)
check("2: helpUri under the rules URL of the option",
      "https://git.example.com/t/syncscope/-/raw/v1/docs/rules/SYNC101.md", help_uris[0])
repo = workspace()
report = run_action(SOURCE, repo, {"build-from-source": "false", "fail-on": "none",
                                   "paths": "src/pipeline.cu", "upload-sarif": "false"})
_, _, _, help_uris = sarif_findings(os.path.join(repo, "syncscope.sarif"))
check("2: helpUri under SYNCSCOPE_RULES_URL",
      ["https://docs.example.org/syncscope/rules/%s.md" % rule for rule in
       ("SYNC101", "SYNC102", "SYNC103")], help_uris[:3])
report = run_action(SOURCE, repo, {"build-from-source": "false", "args": "--rules-url docs/rules"})
del os.environ["SYNCSCOPE_RULES_URL"]
lint = step(report, "Lint")
check("2: a relative --rules-url", (2, "syncscope: error: --rules-url 'docs/rules': expected an "
                                    "absolute URL such as https://example.org/syncscope/docs/rules\n"),
      (lint["rc"], lint["stderr"]))

# 3. A version that is not the one installed: the lint step fails and says so.
repo = workspace()
report = run_action(SOURCE, repo, {"build-from-source": "false", "version": "99.0"})
lint = step(report, "Lint")
check("3: wrong version", (2, "::error title=syncscope::wanted syncscope 99.0, found syncscope %s\n"
                           % os.environ.get("SS_TEST_VERSION", "0.1.0")),
      (lint["rc"], lint["stdout"]))
check("3: steps", [("Install the build dependencies", "skipped"), ("Cache key", "skipped"),
                   ("Cache the build", "skipped"), ("Build syncscope", "skipped"),
                   ("Lint", "failure"), ("Upload SARIF", "skipped"),
                   ("Fail on findings", "skipped")], steps_summary(report))

# 4. No syncscope on PATH and no build: a clear error.
os.environ["PATH"] = env_path
tool_dirs = [d for d in env_path.split(os.pathsep) if os.path.exists(os.path.join(d, "syncscope"))]
if not tool_dirs:
    repo = workspace()
    report = run_action(SOURCE, repo, {"build-from-source": "false"})
    lint = step(report, "Lint")
    check("4: no syncscope", (2, "::error title=syncscope::syncscope is not on PATH: set "
                              "build-from-source to 'true' or install it first\n"),
          (lint["rc"], lint["stdout"]))

# 5. Optionally, the build from source (the apt step needs sudo: skipped by its input).
if os.environ.get("SYNCSCOPE_TEST_ACTION_BUILD") == "1":
    repo = workspace()
    report = run_action(SOURCE, repo, {"install-dependencies": "false",
                                       "compile-commands-dir": "build", "fail-on": "none"})
    check("5: steps", [("Install the build dependencies", "skipped"), ("Cache key", "success"),
                       ("Cache the build", "not run"), ("Build syncscope", "success"),
                       ("Lint", "success"),
                       ("Upload SARIF", "not run"), ("Fail on findings", "success")],
          steps_summary(report))
    build = step(report, "Build syncscope")
    if build["conclusion"] == "success":
        _, _, findings, _ = sarif_findings(os.path.join(repo, "syncscope.sarif"))
        check("5: SARIF findings of the built syncscope", WHOLE_DATABASE_FINDINGS,
              findings)
    else:
        print((build.get("stdout") or "")[-3000:] + (build.get("stderr") or "")[-3000:])

# 6. args and paths are split as a shell splits them, without expansion: the documented
# --exclude "src/**" excludes src/ (its quotes are not part of the pattern), a quoted path
# with a blank is one path, and $HOME is not expanded.
os.environ["PATH"] = os.path.join(STAGE, "bin") + os.pathsep + env_path
repo = workspace()
os.makedirs(os.path.join(repo, "third party"))
shutil.copy(os.path.join(repo, "src", "pipeline.cu"), os.path.join(repo, "third party", "copy.cu"))
report = run_action(SOURCE, repo, {"build-from-source": "false", "upload-sarif": "false",
                                   "args": '--exclude "src/**"\n--disable \'SYNC103\'',
                                   "paths": "'third party' src"})
lint = step(report, "Lint")
check("6: lint status", (0, ""), (lint["rc"], lint["stderr"]))
_, _, findings, _ = sarif_findings(os.path.join(repo, "syncscope.sarif"))
check("6: only the quoted path's findings, src/ excluded",
      [(rule, level, "third%20party/copy.cu", base, line, col)
       for rule, level, _, base, line, col in EXPECTED_FINDINGS], findings)
report = run_action(SOURCE, repo, {"build-from-source": "false", "upload-sarif": "false",
                                   "args": '--exclude "src/**'})
lint = step(report, "Lint")
check("6: an unclosed quote", (2, '::error title=syncscope::args: a quote is not closed: '
                               '--exclude "src/**\n'), (lint["rc"], lint["stdout"]))

# 7. A line break in sarif-file is refused: it cannot add step outputs of its own.
repo = workspace()
report = run_action(SOURCE, repo, {"build-from-source": "false", "upload-sarif": "false",
                                   "sarif-file": "a.sarif\nexit-code=0"})
lint = step(report, "Lint")
check("7: sarif-file with a line break", (2, "::error title=syncscope::sarif-file must be one "
                                          "line (it has a line break)\n"),
      (lint["rc"], lint["stdout"]))
check("7: no output", {"sarif-file": "", "exit-code": ""}, report["outputs"])
check("7: the gate is not reached", "skipped", step(report, "Fail on findings")["conclusion"])

for failure in failures:
    print("FAIL: " + failure)
sys.exit(1 if failures else 0)
