#!/usr/bin/env python3
"""action_script.py SOURCE: the steps of scripts/action.sh (the shell of action.yml) with
stand-ins for the commands they run, exact outputs: how `args` and `paths` are split into
words (as a shell splits them, nothing expanded or globbed), a line break in `sarif-file`
refused before any output is written, apt-get through sudo only when not root (and a clear
error without either), the cache key (stable, and changed by a changed source), and a build
restored from the cache left as it is."""
import os
import shutil
import subprocess
import sys
import tempfile

SOURCE = os.path.abspath(sys.argv[1])
SCRIPT = os.path.join(SOURCE, "scripts", "action.sh")
failures = []


def check(what, expected, actual):
    if expected != actual:
        failures.append("%s\n--- expected\n%r\n--- actual\n%r" % (what, expected, actual))


WORK = tempfile.mkdtemp(prefix="action_script.")
STUBS = os.path.join(WORK, "stubs")
LOG = os.path.join(WORK, "calls.log")
os.makedirs(STUBS)


def stub(name, body):
    path = os.path.join(STUBS, name)
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + body)
    os.chmod(path, 0o755)


# Each stand-in appends its name and arguments, one per line in <>, to calls.log.
RECORD = 'printf "%s" "$(basename "$0")" >>"$CALLS"; for a in "$@"; do printf " <%s>" "$a" >>"$CALLS"; done; echo >>"$CALLS"\n'
stub("apt-get", RECORD)
stub("id", 'echo "$FAKE_UID"\n')
stub("sudo", RECORD + 'exec "$@"\n')
stub("syncscope", RECORD + 'if [ "$1" = --version ]; then echo "syncscope 9.9"; echo "libclang 16"; fi\n'
     'if [ "$2" != --version ]; then for a; do case $a in *.sarif) : >"$a";; esac; done; fi\n'
     'case " $* " in *" --fail-on none "*) exit 0;; esac\n'
     'exit "${FAKE_STATUS:-0}"\n')
stub("cmake", RECORD + 'if [ "$1" = --install ]; then mkdir -p "$4/bin" && : >"$4/bin/syncscope" && '
     'chmod +x "$4/bin/syncscope"; fi\n')
os.symlink(shutil.which("env"), os.path.join(STUBS, "env"))


def step(name, env, path=None):
    """Runs one step in a fresh folder; returns (status, stdout, stderr, outputs, calls)."""
    cwd = tempfile.mkdtemp(dir=WORK)
    output = os.path.join(cwd, "github_output")
    open(output, "w").close()
    open(LOG, "w").close()
    full = {"PATH": path or (STUBS + os.pathsep + os.environ["PATH"]), "CALLS": LOG,
            "GITHUB_OUTPUT": output, "GITHUB_PATH": os.path.join(cwd, "github_path"),
            "RUNNER_TEMP": os.path.join(cwd, "temp"), "GITHUB_ACTION_PATH": SOURCE,
            "HOME": cwd}
    full.update(env)
    # Files a glob would match, to see that nothing is globbed.
    for f in ("a.cu", "b.cu"):
        open(os.path.join(cwd, f), "w").close()
    done = subprocess.run(["/bin/bash", SCRIPT, name], cwd=cwd, env=full, capture_output=True,
                          text=True)
    with open(output) as f:
        outputs = f.read()
    with open(LOG) as f:
        calls = f.read()
    return done.returncode, done.stdout, done.stderr, outputs, calls


LINT = {"SS_FAIL_ON": "warning", "SS_SARIF": "syncscope.sarif", "SS_ANNOTATE": "true"}


def lint(**inputs):
    env = dict(LINT)
    env.update(inputs)
    return step("lint", env)


# ---- lint: words ----
rc, out, err, outputs, calls = lint(SS_ARGS='--exclude "third_party/**" --disable SYNC103',
                                    SS_PATHS="*.cu")
check("quotes kept the pattern whole, nothing globbed: status", (0, "", ""), (rc, out, err))
check("quotes kept the pattern whole, nothing globbed: calls",
      "syncscope <lint> <--exclude> <third_party/**> <--disable> <SYNC103> <--format> <sarif> "
      "<-o> <syncscope.sarif> <--fail-on> <none> <--> <*.cu>\n"
      "syncscope <lint> <--exclude> <third_party/**> <--disable> <SYNC103> <--format> <github> "
      "<--fail-on> <warning> <--> <*.cu>\n", calls)
check("outputs", "sarif-file=syncscope.sarif\nexit-code=0\n", outputs)

rc, out, err, outputs, calls = lint(
    SS_ARGS="--exclude 'a b/*'\n--exclude=\"x\\\"y\" \\$HOME $HOME `id` $(id) a\\ b '' \"\"\n\t--disable\tSYNC101",
    SS_PATHS="'dir with blank'\nsrc\\\n/x.cu", SS_COMPDB="build dir", SS_ANNOTATE="false",
    SS_FAIL_ON="error")
check("quotes, backslashes, blanks and no expansion",
      "syncscope <lint> <-p> <build dir> <--exclude> <a b/*> <--exclude=x\"y> <$HOME> <$HOME> "
      "<`id`> <$(id)> <a b> <> <> <--disable> <SYNC101> <--format> <text> <--fail-on> <error> "
      "<--> <dir with blank> <src/x.cu>",
      calls.splitlines()[1])

rc, out, err, outputs, calls = lint(SS_ARGS='--exclude "src/**')
check("an unclosed quote", (2, '::error title=syncscope::args: a quote is not closed: '
                            '--exclude "src/**\n', "", ""), (rc, out, outputs, calls))
rc, out, err, outputs, calls = lint(SS_PATHS="src 'x")
check("an unclosed quote in paths", (2, "::error title=syncscope::paths: a quote is not closed: "
                                     "src 'x\n", ""), (rc, out, calls))

# ---- lint: sarif-file, the status, the version ----
rc, out, err, outputs, calls = lint(SS_SARIF="a.sarif\nexit-code=0")
check("a line break in sarif-file", (2, "::error title=syncscope::sarif-file must be one line "
                                     "(it has a line break)\n", "", ""), (rc, out, outputs, calls))
rc, out, err, outputs, calls = lint(SS_SARIF="a.sarif\r")
check("a carriage return in sarif-file", (2, ""), (rc, outputs))
rc, out, err, outputs, calls = lint(SS_SARIF="out/x/lint.sarif", FAKE_STATUS="1")
check("findings: exit-code 1, the step passes", (0, "sarif-file=out/x/lint.sarif\nexit-code=1\n"),
      (rc, outputs))
rc, out, err, outputs, calls = lint(FAKE_STATUS="2")
check("a tool error fails the step", 2, rc)
rc, out, err, outputs, calls = lint(SS_VERSION="9.9")
check("version: the first line of --version", (0, "syncscope <--version>"),
      (rc, calls.splitlines()[0]))
rc, out, err, outputs, calls = lint(SS_VERSION="1.0")
check("version refused", (2, "::error title=syncscope::wanted syncscope 1.0, found syncscope 9.9\n"),
      (rc, out))

# ---- install: sudo only when not root ----
PACKAGES = ("<build-essential> <cmake> <ninja-build> <pkg-config> <libclang-16-dev> <clang-16> "
            "<libcjson-dev> <libyaml-dev> <libdw-dev>")
rc, out, err, outputs, calls = step("install", {"FAKE_UID": "0"})
check("install as root: no sudo", (0, "apt-get <-o> <DPkg::Lock::Timeout=600> <update> <-qq>\n"
                                   "apt-get <-o> <DPkg::Lock::Timeout=600> <install> <-y> <-qq> "
                                   "<--no-install-recommends> " + PACKAGES + "\n"), (rc, calls))
rc, out, err, outputs, calls = step("install", {"FAKE_UID": "1001"})
check("install as a user: sudo",
      (0, "sudo <apt-get> <-o> <DPkg::Lock::Timeout=600> <update> <-qq>\n"
          "apt-get <-o> <DPkg::Lock::Timeout=600> <update> <-qq>\n"
          "sudo <env> <DEBIAN_FRONTEND=noninteractive> <apt-get> <-o> <DPkg::Lock::Timeout=600> "
          "<install> <-y> <-qq> <--no-install-recommends> " + PACKAGES + "\n"
          "apt-get <-o> <DPkg::Lock::Timeout=600> <install> <-y> <-qq> <--no-install-recommends> "
          + PACKAGES + "\n"), (rc, calls))
nosudo = os.path.join(WORK, "nosudo")
os.makedirs(nosudo)
for name in ("id", "apt-get", "env"):
    os.symlink(os.path.join(STUBS, name), os.path.join(nosudo, name))
rc, out, err, outputs, calls = step("install", {"FAKE_UID": "1001"}, path=nosudo)
check("install as a user without sudo",
      (2, "::error title=syncscope::installing the build dependencies needs root or sudo: run the "
          "job as root, install sudo first, or set install-dependencies to 'false'\n", ""),
      (rc, out, calls))

# ---- key and build ----
rc, out, err, outputs, calls = step("key", {})
lines = outputs.splitlines()
check("key: two outputs", (0, 2), (rc, len(lines)))
key = lines[0]
check("key: named after the system", True, key.startswith("key=syncscope-") and len(key) > 40)
rc, out, err, outputs2, calls = step("key", {})
check("key: stable", key, outputs2.splitlines()[0])
copy = os.path.join(WORK, "copy")
shutil.copytree(SOURCE, copy, ignore=shutil.ignore_patterns("build", ".git", "tests"))
rc, out, err, outputs3, calls = step("key", {"GITHUB_ACTION_PATH": copy})
check("key: the same sources elsewhere", key, outputs3.splitlines()[0])
with open(os.path.join(copy, "cli", "main.c"), "a") as f:
    f.write("\n")
rc, out, err, outputs4, calls = step("key", {"GITHUB_ACTION_PATH": copy})
check("key: a changed source changes it", True, outputs4.splitlines()[0] != key)

rc, out, err, outputs, calls = step("build", {"SS_CACHE_HIT": ""})
check("build: cmake configure, build, install", (0, 3, "cmake <-S> <%s>" % SOURCE),
      (rc, len(calls.splitlines()), calls.splitlines()[0][:len("cmake <-S> <%s>" % SOURCE)]))
temp_prefix = outputs.strip().split("=", 1)[1]
check("build: the output", True, temp_prefix.endswith("/temp/syncscope/bin/syncscope"))
cached = tempfile.mkdtemp(dir=WORK)
os.makedirs(os.path.join(cached, "syncscope", "bin"))
tool = os.path.join(cached, "syncscope", "bin", "syncscope")
open(tool, "w").close()
os.chmod(tool, 0o755)
rc, out, err, outputs, calls = step("build", {"SS_CACHE_HIT": "true", "RUNNER_TEMP": cached})
check("build: restored from the cache", (0, "syncscope: restored from the cache (%s/syncscope), "
                                         "not built\n" % cached, "",
                                         "syncscope=%s\n" % tool), (rc, out, calls, outputs))

# ---- gate ----
rc, out, err, outputs, calls = step("gate", {"SS_STATUS": "1", "SS_FAIL_ON": "note"})
check("gate fails", (1, "syncscope: findings at or above 'note' (exit status 1)\n"), (rc, out))
rc, out, err, outputs, calls = step("gate", {"SS_STATUS": "0", "SS_FAIL_ON": "note"})
check("gate passes", (0, ""), (rc, out))

shutil.rmtree(WORK, ignore_errors=True)
for failure in failures:
    print("FAIL: " + failure)
sys.exit(1 if failures else 0)
