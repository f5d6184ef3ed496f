#!/usr/bin/env python3
"""run_lifecycle.py: the interposer's promises about how an observed program ends.

  run_lifecycle.py check ROOT
      Every /* syncscope: RULE */ marker of tests/gpu/lifecycle/<program>.cu has exactly one
      line in <program>.expect or <program>.<role>.expect, and every such line points at a
      marker (the format of tests/gpu/gpu_expect.py).
  run_lifecycle.py run CASE --root ROOT --syncscope SYNCSCOPE --preload LIBSYNCSCOPE
                   --probe GPU_PROBE --program PROGRAM --workdir DIR [--floor LIB]
                   [--mode light] [--assume-gpu]
      Runs PROGRAM bare, under `syncscope run -o DIR/out-%p.json --trace DIR/out-%p.sstrace`
      and under LD_PRELOAD=LIBSYNCSCOPE (SYNCSCOPE_OUTPUT/SYNCSCOPE_TRACE set the same way),
      requires the same stdout (and the one the case expects) and the same exit status or
      signal, and checks what syncscope wrote: exactly one JSON result and one trace per
      observed process (no temporary file left), for that process's pid, with the findings of
      the case's expectation file, and a trace that `syncscope analyze` turns into the same
      findings. Cases: sigterm, sigint, malloc, handler, thread_exit, fork, threads,
      subscriber (CASES below). --mode light runs them in the light mode (`--mode light`,
      SYNCSCOPE_MODE=light): the light rules of the same expectation files, a trace with
      "mode" light and no launch or GPU record, and a forked child that reports its readback
      (<program>.<role>.light.expect where the light mode sees more). --assume-gpu skips the
      GPU check (dry runs with stand-in programs).
Exit status: 0 pass, 1 fail, 2 usage error, 77 skipped (no GPU visible, or for subscriber
no CUPTI floor library built).
"""
import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import gpu_expect  # noqa: E402  (tests/gpu/gpu_expect.py: expectation format, JSON fields)

LIFECYCLE_DIR = "tests/gpu/lifecycle"
TIMEOUT_S = 120
STEP_ASIDE = ("syncscope: another CUPTI client is already subscribed; "
              "the program runs unobserved")
FLOOR_VERBOSE = "SYNCSCOPE_BENCH_FLOOR_VERBOSE"
FLOOR_LINE = re.compile(r"^cupti_floor: ([0-9]+) records in ([0-9]+) buffers$")
CHILD_PID = re.compile(r"^fork: child pid ([0-9]+)$", re.M)

# What each case runs and must see. 'status' is the exit status, or minus the signal that
# ended the program (a shell shows 128 + signal: 143 for SIGTERM, 130 for SIGINT). 'expect'
# names the expectation file of the process the runner starts; 'child_expect' that of a
# forked child.
CASES = {
    "sigterm": {
        "program": "lifecycle_signal", "args": ["term"], "status": -signal.SIGTERM,
        "stdout": "readback 1\nraising SIGTERM\n", "expect": "lifecycle_signal.expect",
    },
    "sigint": {
        "program": "lifecycle_signal", "args": ["int"], "status": -signal.SIGINT,
        "stdout": "readback 1\nraising SIGINT\n", "expect": "lifecycle_signal.expect",
    },
    "malloc": {
        "program": "lifecycle_signal", "args": ["malloc"], "status": -signal.SIGTERM,
        "stdout": "readback 1\nraising SIGTERM in a malloc loop\n",
        "expect": "lifecycle_signal.expect",
    },
    "handler": {
        "program": "lifecycle_signal", "args": ["handler"], "status": 5,
        "stdout": "readback 1\nraising SIGTERM\nhandler: SIGTERM, exit(5)\n",
        "expect": "lifecycle_signal.expect",
    },
    "thread_exit": {
        "program": "lifecycle_thread_exit", "args": [], "status": 3,
        "stdout": "readback 1\nworker calls exit(3)\n", "expect": "lifecycle_thread_exit.expect",
    },
    "fork": {
        "program": "lifecycle_fork", "args": [], "status": 0,
        "stdout": "child readback 1\nresult 2\nchild exited 0\nparent readback 2\nresult 4\n",
        "expect": "lifecycle_fork.expect", "child_expect": "lifecycle_fork.child.expect",
        # The light mode needs no GPU record: the child's readback is seen.
        "child_expect_light": "lifecycle_fork.child.light.expect",
    },
    "threads": {
        "program": "lifecycle_threads", "args": [], "status": 0,
        "stdout": "result 32560\n", "expect": "lifecycle_threads.expect",
    },
    "subscriber": {
        "program": "lifecycle_signal", "args": ["exit"], "status": 0,
        "stdout": "readback 1\nresult 2\n", "expect": None,
    },
}


class Failures:
    """Collects failed checks; each is printed at once as FAIL: <what>."""

    def __init__(self):
        self.count = 0

    def check(self, ok, what):
        if not ok:
            self.count += 1
            print(f"FAIL: {what}")
        return ok


def status_words(status):
    if status is None:
        return "no status (hung, killed after the timeout)"
    if status < 0:
        name = signal.Signals(-status).name
        return f"died of {name} (shell status {128 - status})"
    return f"exit status {status}"


def default_signals():
    """In the started program: SIGINT and SIGTERM at their default action and unblocked,
    whatever the runner inherited (a background job starts with SIGINT ignored)."""
    for signo in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signo, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})


def clean_env(extra=None):
    """The environment without anything that would observe the program, plus 'extra'."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("SYNCSCOPE_") and k not in ("LD_PRELOAD", "CUDA_INJECTION64_PATH")}
    env.update(extra or {})
    return env


def execute(cmd, cwd, env):
    """Runs 'cmd' in its own session; returns (pid, status, stdout, stderr). A run that
    outlives TIMEOUT_S is killed with its whole process group and has status None."""
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True, preexec_fn=default_signals)
    try:
        out, err = proc.communicate(timeout=TIMEOUT_S)
        status = proc.returncode
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        status = None
    return (proc.pid, status, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"))


def read_trace(path):
    """The parts of an .sstrace the checks need: meta values, API names, GPU record counts."""
    strings, meta, apis, gpu = {0: ""}, {}, [], {"kernel": 0, "memcpy": 0, "memset": 0}

    def unescape(text):
        if text == "-":
            return ""
        return re.sub(r"%([0-9A-F]{2})", lambda m: chr(int(m.group(1), 16)), text)

    with open(path, encoding="utf-8") as handle:
        for line in handle:
            fields = line.rstrip("\n").split(" ")
            if fields[0] == "meta" and len(fields) == 3:
                meta[unescape(fields[1])] = unescape(fields[2])
            elif fields[0] == "str" and len(fields) == 3:
                strings[int(fields[1])] = unescape(fields[2])
            elif fields[0] == "api" and len(fields) >= 17:
                apis.append(strings.get(int(fields[5]), "?"))
            elif fields[0] in gpu:
                gpu[fields[0]] += 1
    return meta, apis, gpu


def rows_text(rows):
    return "; ".join(f"{r} {f}:{l} x{c}" for r, f, l, c in rows) or "none"


def check_process(fail, opts, label, workdir, pid, expect_path, forked, stderr):
    """The outputs of one observed process 'pid' in 'workdir'."""
    json_path = os.path.join(workdir, f"out-{pid}.json")
    trace_path = os.path.join(workdir, f"out-{pid}.sstrace")
    if not fail.check(os.path.isfile(json_path), f"{label}: no result {json_path}"):
        return
    expected = gpu_expect.read_expect(expect_path)
    if opts.mode == "light":
        light = gpu_expect.light_rules(opts.syncscope)
        expected = [row for row in expected if row[0] in light]
    try:
        with open(json_path, encoding="utf-8") as handle:
            document = json.load(handle)
        observed = gpu_expect.findings_of(opts.root, json_path)
    except (OSError, ValueError) as err:
        fail.check(False, f"{label}: {json_path} is not a JSON result: {err}")
        return
    run = document.get("run") or {}
    fail.check(run.get("pid") == pid, f"{label}: {json_path} names pid {run.get('pid')}")
    fail.check(observed == expected,
               f"{label}: findings of pid {pid}: {rows_text(observed)}; expected "
               f"{rows_text(expected)} ({os.path.relpath(expect_path, opts.root)})")
    fail.check(f"syncscope: results: {json_path}" in stderr.splitlines(),
               f"{label}: no 'syncscope: results: {json_path}' line on stderr")
    if not fail.check(os.path.isfile(trace_path), f"{label}: no trace {trace_path}"):
        return
    meta, apis, gpu = read_trace(trace_path)
    fail.check(meta.get("pid") == str(pid), f"{label}: trace names pid {meta.get('pid')}")
    if opts.mode == "light":
        fail.check(meta.get("mode") == "light", f"{label}: trace meta 'mode' is "
                   f"{meta.get('mode')!r}, expected 'light'")
        fail.check(sum(gpu.values()) == 0 and not any(a.startswith(("cudaLaunch", "cuLaunch"))
                                                      for a in apis),
                   f"{label}: the light mode's trace holds GPU records {gpu} or launches")
    fail.check((meta.get("forked") == "1") == forked,
               f"{label}: trace meta 'forked' is {meta.get('forked')!r} in the "
               f"{'child' if forked else 'process started'}")
    if forked and opts.mode != "light":
        # Documented (docs/run.md, Limits): a forked child records its API calls, no activity.
        fail.check(any(a.startswith("cudaMemcpy") for a in apis)
                   and any(a.startswith("cudaLaunchKernel") for a in apis),
                   f"{label}: the child's trace lacks its cudaMemcpy/cudaLaunchKernel calls")
        fail.check(sum(gpu.values()) == 0,
                   f"{label}: the child's trace holds GPU records {gpu}; docs/run.md says a "
                   f"forked child records none (update the docs and the child expectation)")
    replay = os.path.join(workdir, f"replay-{pid}.json")
    _, status, _, err = execute([opts.syncscope, "analyze", "--format", "json", "--fail-on",
                                 "none", "-o", replay, trace_path], workdir, clean_env())
    if fail.check(status == 0, f"{label}: syncscope analyze {trace_path}: "
                  f"{status_words(status)}: {err.strip()}"):
        replayed = gpu_expect.findings_of(opts.root, replay)
        fail.check(replayed == observed, f"{label}: the trace replays to {rows_text(replayed)}, "
                   f"the run reported {rows_text(observed)}")
        os.remove(replay)


def observed_run(fail, opts, case, bare, mode):
    """One run under syncscope ('run' or 'preload') with its checks."""
    workdir = os.path.join(opts.workdir, mode)
    os.makedirs(workdir)
    json_pattern = os.path.join(workdir, "out-%p.json")
    trace_pattern = os.path.join(workdir, "out-%p.sstrace")
    program = [opts.program] + case["args"]
    light = ["--mode", "light"] if opts.mode == "light" else []
    if mode == "run":
        cmd = [opts.syncscope, "run", "-o", json_pattern, "--trace", trace_pattern] + light \
            + ["--"] + program
        env = clean_env()
    else:
        cmd = program
        env = clean_env({"LD_PRELOAD": opts.preload, "SYNCSCOPE_OUTPUT": json_pattern,
                         "SYNCSCOPE_TRACE": trace_pattern})
        if light:
            env["SYNCSCOPE_MODE"] = "light"
    pid, status, out, err = execute(cmd, workdir, env)
    label = "syncscope run" if mode == "run" else "LD_PRELOAD"
    fail.check(status == bare[1], f"{label}: {status_words(status)}, bare: "
               f"{status_words(bare[1])}\n{err}")
    fail.check(out == bare[2], f"{label}: stdout differs from the bare run:\n{out}")
    fail.check(not re.search(r"^syncscope: (error|warning): ", err, re.M),
               f"{label}: syncscope reported a problem:\n{err}")
    pids = [(pid, case["expect"], False)]
    if "child_expect" in case:
        children = [int(p) for p in CHILD_PID.findall(err)]
        if fail.check(len(children) == 1 and children[0] != pid,
                      f"{label}: expected one 'fork: child pid N' line on stderr, got {children}"):
            child = case["child_expect"]
            if opts.mode == "light":
                child = case.get("child_expect_light", child)
            pids.append((children[0], child, True))
    wanted = sorted(f"out-{p}.{ext}" for p, _, _ in pids for ext in ("json", "sstrace"))
    present = sorted(os.listdir(workdir))
    fail.check(present == wanted, f"{label}: {workdir} holds {present}, expected {wanted} "
               f"(one result and one trace per process, no temporary file)")
    for p, expect, forked in pids:
        check_process(fail, opts, f"{label} pid {p}{' (child)' if forked else ''}", workdir, p,
                      os.path.join(opts.root, LIFECYCLE_DIR, expect), forked, err)


def subscriber_run(fail, opts, case, bare, mode):
    """Another CUPTI client is subscribed first: syncscope must say so once and step aside.
    The floor must come after libsyncscope in LD_PRELOAD: the loader runs the constructors of
    unrelated preloaded libraries last-listed first, so the floor subscribes first; `syncscope
    run` puts its library in front of an LD_PRELOAD already set, which gives the same order."""
    workdir = os.path.join(opts.workdir, mode)
    os.makedirs(workdir)
    json_pattern = os.path.join(workdir, "out-%p.json")
    trace_pattern = os.path.join(workdir, "out-%p.sstrace")
    program = [opts.program] + case["args"]
    verbose = {FLOOR_VERBOSE: "1"}
    if mode == "floor":
        cmd, env = program, clean_env(dict(verbose, LD_PRELOAD=opts.floor))
        label = "LD_PRELOAD=floor"
    elif mode == "run":
        cmd = [opts.syncscope, "run", "-o", json_pattern, "--trace", trace_pattern] \
            + (["--mode", "light"] if opts.mode == "light" else []) + ["--"] + program
        env = clean_env(dict(verbose, LD_PRELOAD=opts.floor))
        label = "LD_PRELOAD=floor syncscope run"
    else:
        cmd = program
        env = clean_env(dict(verbose, LD_PRELOAD=f"{opts.preload} {opts.floor}",
                             SYNCSCOPE_OUTPUT=json_pattern, SYNCSCOPE_TRACE=trace_pattern))
        if opts.mode == "light":
            env["SYNCSCOPE_MODE"] = "light"
        label = "LD_PRELOAD='libsyncscope floor'"
    _, status, out, err = execute(cmd, workdir, env)
    fail.check(status == bare[1], f"{label}: {status_words(status)}, bare: "
               f"{status_words(bare[1])}\n{err}")
    fail.check(out == bare[2], f"{label}: stdout differs from the bare run:\n{out}")
    lines = err.splitlines()
    floor = [FLOOR_LINE.match(line) for line in lines]
    floor = [m for m in floor if m]
    fail.check(len(floor) == 1 and int(floor[0].group(1)) > 0,
               f"{label}: the CUPTI floor did not report records at exit (was it the subscriber? "
               f"its lines: {[line for line in lines if line.startswith('cupti_floor:')]})")
    ours = [line for line in lines if line.startswith("syncscope:")]
    wanted = [] if mode == "floor" else [STEP_ASIDE]
    fail.check(ours == wanted, f"{label}: syncscope's stderr lines {ours}, expected {wanted}")
    fail.check(os.listdir(workdir) == [], f"{label}: syncscope wrote {os.listdir(workdir)}")


def gpu_visible(probe):
    """(True, '') when a GPU is visible as run_gpu_test.sh sees it, else (False, why)."""
    if shutil.which("nvidia-smi") is None:
        return False, "nvidia-smi not found"
    listed = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, check=False)
    if listed.returncode != 0 or not listed.stdout.strip():
        return False, "nvidia-smi lists no GPU"
    counted = subprocess.run([probe], capture_output=True, text=True, check=False)
    if counted.returncode != 0 or counted.stdout.strip() in ("", "0"):
        return False, "the CUDA runtime sees no device"
    return True, ""


def run_case(opts):
    case = CASES[opts.case]
    if not opts.assume_gpu:
        visible, why = gpu_visible(opts.probe)
        if not visible:
            print(f"skipped: {why}")
            return 77
    if opts.case == "subscriber" and (not opts.floor or not os.path.isfile(opts.floor)):
        print("skipped: the CUPTI floor library (bench/overhead, target bench_cupti_floor) is "
              "not built here; it needs the toolkit's libcupti at build time")
        return 77
    shutil.rmtree(opts.workdir, ignore_errors=True)
    os.makedirs(opts.workdir)
    bare_dir = os.path.join(opts.workdir, "bare")
    os.makedirs(bare_dir)
    fail = Failures()
    bare = execute([opts.program] + case["args"], bare_dir, clean_env())
    fail.check(bare[1] == case["status"], f"bare: {status_words(bare[1])}, expected "
               f"{status_words(case['status'])}\n{bare[3]}")
    fail.check(bare[2] == case["stdout"],
               f"bare: stdout {bare[2]!r}, expected {case['stdout']!r}\n{bare[3]}")
    fail.check(os.listdir(bare_dir) == [], f"bare: files written {os.listdir(bare_dir)}")
    if opts.case == "subscriber":
        for mode in ("floor", "run", "preload"):
            subscriber_run(fail, opts, case, bare, mode)
    else:
        for mode in ("run", "preload"):
            observed_run(fail, opts, case, bare, mode)
    if fail.count == 0:
        print(f"ok: {opts.case}: {status_words(bare[1])}; stdout {bare[2]!r}")
        return 0
    return 1


def check(root):
    """The markers of the lifecycle programs against their expectation files."""
    folder = os.path.join(root, LIFECYCLE_DIR)
    errors = []
    programs = sorted(f[:-3] for f in os.listdir(folder) if f.endswith(".cu"))
    for program in programs:
        source = f"{LIFECYCLE_DIR}/{program}.cu"
        expects = sorted(f for f in os.listdir(folder)
                         if f == f"{program}.expect" or (f.startswith(f"{program}.")
                                                         and f.endswith(".expect")))
        if f"{program}.expect" not in expects:
            errors.append(f"{source}: no {program}.expect")
        with open(os.path.join(root, source), encoding="utf-8") as handle:
            lines = handle.read().split("\n")
        markers = {(rule, n) for n, text in enumerate(lines, 1)
                   for rule in gpu_expect.MARKER.findall(text)}
        seen = []
        for name in expects:
            try:
                rows = gpu_expect.read_expect(os.path.join(folder, name))
            except ValueError as err:
                errors.append(str(err))
                continue
            for rule, file, line, _count in rows:
                if file != source:
                    errors.append(f"{name}: {rule} names {file}, not {source}")
                elif (rule, line) not in markers:
                    errors.append(f"{name}: {rule} at {file}:{line}, which has no marker "
                                  f"/* syncscope: {rule} */")
                seen.append((rule, line))
        for rule, line in sorted(set(seen)):
            if seen.count((rule, line)) > 1:
                errors.append(f"{source}:{line}: {rule} listed more than once")
        for rule, line in sorted(markers - set(seen)):
            errors.append(f"{source}:{line}: marker {rule} has no expectation line")
    for name in sorted(set(c["expect"] for c in CASES.values() if c["expect"])
                       | set(c[k] for c in CASES.values()
                             for k in ("child_expect", "child_expect_light") if k in c)):
        if not os.path.isfile(os.path.join(folder, name)):
            errors.append(f"run_lifecycle.py names {name}, which does not exist")
    for message in errors:
        print(f"run_lifecycle: {message}", file=sys.stderr)
    if not errors:
        print(f"run_lifecycle: {len(programs)} programs, expectation files consistent")
    return 1 if errors else 0


def main(argv):
    if len(argv) == 3 and argv[1] == "check":
        return check(argv[2])
    parser = argparse.ArgumentParser(prog="run_lifecycle.py run")
    parser.add_argument("case", choices=sorted(CASES))
    for name in ("root", "syncscope", "preload", "probe", "program", "workdir"):
        parser.add_argument(f"--{name}", required=True)
    parser.add_argument("--floor", default="")
    parser.add_argument("--mode", choices=("full", "light"), default="full")
    parser.add_argument("--assume-gpu", action="store_true")
    if len(argv) < 2 or argv[1] != "run":
        print(__doc__, file=sys.stderr)
        return 2
    try:
        opts = parser.parse_args(argv[2:])
    except SystemExit:
        return 2
    opts.workdir = os.path.abspath(opts.workdir)
    opts.root = os.path.abspath(opts.root)
    return run_case(opts)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
