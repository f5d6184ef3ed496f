#!/usr/bin/env python3
"""run_signal.py: how an observed program ends by SIGINT/SIGTERM, without a GPU.

  run_signal.py APP LIBSYNCSCOPE FAKE_CUPTI WORKDIR [CASE...]

Runs APP (tests/signal/app.c) under LD_PRELOAD=LIBSYNCSCOPE with SYNCSCOPE_CUPTI_PATH=FAKE_CUPTI
(tests/signal/fake_cupti.c, a stand-in for libcupti), SYNCSCOPE_OUTPUT=WORKDIR/<case>/out-%p.json
and SYNCSCOPE_TRACE=WORKDIR/<case>/out-%p.sstrace, once per case (all cases when none is
named), and checks for each: the exit status or the signal the program died of, its exact
stdout, the files written (exactly one result and one trace per process that wrote, or none;
never a temporary file), the trace's `signal` and `forked` metadata, the result's `run.pid`,
and syncscope's lines on stderr. A run that outlives TIMEOUT_S is killed and fails. The cases
that signal the program while it writes its outputs preload SS_TEST_AT_FSYNC_LIB (at_fsync.c)
before libsyncscope.so.
Exit status: 0 pass, 1 fail, 2 usage error.
"""
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys

TIMEOUT_S = 30
RESULTS = re.compile(r"^syncscope: results: (.*)$", re.M)


def lines(*text):
    return "".join(t + "\n" for t in text)


CALLED = ("before: flusher threads: 0", "after: flusher threads: 1")
GIVEN_UP = ("syncscope: warning: the outputs were not written within 300 ms of SIGTERM "
            "(SYNCSCOPE_SIGNAL_FLUSH_MS); the program ends now, outputs not written by then "
            "are missing")
SECOND = ("syncscope: warning: SIGINT while the outputs were being written; the program ends "
          "now, outputs not written by then are missing")

# mode: the app's argument; status: exit status, or minus the signal it died of; writes: the
# processes that write a result and a trace ('main', 'child'), each with the trace's 'signal'
# metadata expected ('' when absent); warning: the one "syncscope: warning:" line expected.
CASES = {
    "exit": {"mode": "exit", "status": 0, "stdout": lines("app: exit", *CALLED, "app: end"),
             "writes": {"main": ""}},
    "sigterm": {"mode": "term", "status": -signal.SIGTERM,
                "stdout": lines("app: term", *CALLED, "app: raising SIGTERM"),
                "writes": {"main": "15"}},
    "sigint": {"mode": "int", "status": -signal.SIGINT,
               "stdout": lines("app: int", *CALLED, "app: raising SIGINT"),
               "writes": {"main": "2"}},
    # A signal before the first CUDA call: nothing recorded, no flusher, nothing written.
    "early": {"mode": "early", "status": -signal.SIGTERM, "stdout": lines("app: early"),
              "writes": {}},
    # The program's own handler replaces syncscope's; its exit(5) writes the outputs at exit.
    "handler": {"mode": "handler", "status": 5,
                "stdout": lines("app: handler", *CALLED, "app: raising SIGTERM",
                                "handler: SIGTERM, exit(5)"),
                "writes": {"main": ""}},
    # SIGTERM lands on the main thread while it allocates and frees in a loop (the allocator's
    # lock is often held): the flusher, a thread of its own, still writes everything.
    "malloc": {"mode": "malloc", "status": -signal.SIGTERM,
               "stdout": lines("app: malloc", *CALLED, "app: malloc loop"),
               "writes": {"main": "15"}},
    # A forked child starts a flusher of its own at its first call and writes its own outputs.
    "fork": {"mode": "fork", "status": 0,
             "stdout": lines("app: fork", *CALLED, "child before: flusher threads: 0",
                             "child after: flusher threads: 1", "app: child died of signal 15"),
             "writes": {"main": "", "child": "15"}},
    # SIGTERM arrives while the outputs of a normal exit are being written: it waits for them
    # (they are written once, complete), then the program dies of it.
    "exit_then_signal": {"mode": "exit", "env": {"FAKE_CUPTI_FLUSH": "signal"},
                         "status": -signal.SIGTERM,
                         "stdout": lines("app: exit", *CALLED, "app: end"),
                         "writes": {"main": ""}},
    # The finisher never completes: the program still dies of SIGTERM after the bound.
    "stuck": {"mode": "term", "env": {"FAKE_CUPTI_FLUSH": "hang",
                                      "SYNCSCOPE_SIGNAL_FLUSH_MS": "300"},
              "status": -signal.SIGTERM,
              "stdout": lines("app: term", *CALLED, "app: raising SIGTERM"), "writes": {},
              "warning": GIVEN_UP},
    # A second signal while the first waits ends the program at once (the bound is 60 s).
    "second": {"mode": "term", "env": {"FAKE_CUPTI_FLUSH": "second",
                                       "SYNCSCOPE_SIGNAL_FLUSH_MS": "60000"},
               "status": -signal.SIGINT,
               "stdout": lines("app: term", *CALLED, "app: raising SIGTERM"), "writes": {},
               "warning": SECOND},
    # A second signal (SIGINT) while the outputs of the first are being written, the file
    # being synced: the program ends at once and no file is left, partial or hidden.
    "second_while_writing": {"mode": "term", "at_fsync": "INT",
                             "env": {"SYNCSCOPE_SIGNAL_FLUSH_MS": "60000",
                                     "SYNCSCOPE_SYMBOL_CACHE": "0"},
                             "status": -signal.SIGINT,
                             "stdout": lines("app: term", *CALLED, "app: raising SIGTERM"),
                             "writes": {}, "warning": SECOND},
    # SIGKILL while an output is being written: nothing is left behind either.
    "kill_while_writing": {"mode": "term", "at_fsync": "KILL", "status": -signal.SIGKILL,
                           "env": {"SYNCSCOPE_SYMBOL_CACHE": "0"},
                           "stdout": lines("app: term", *CALLED, "app: raising SIGTERM"),
                           "writes": {}},
    # What killed writers of this host left is removed at the next write into the folder: a
    # temporary file of a process that is gone; one of a live process, of another host (a
    # shared folder) and a hidden file of another kind stay.
    "stale_swept": {"mode": "exit", "status": 0,
                    "stdout": lines("app: exit", *CALLED, "app: end"), "writes": {"main": ""},
                    "stale": {".out-1.json.syncscope-{dead}-{host}.Ab3dE9": False,
                              ".out-1.sstrace.syncscope-{dead}-{host}.xY7zQ2": False,
                              ".out-1.json.syncscope-{live}-{host}.Ab3dE9": True,
                              ".out-1.json.syncscope-{dead}-other-{host}.Ab3dE9": True,
                              ".out-1.json.Ab3dE9": True}},
    # SYNCSCOPE_SIGNAL_FLUSH_MS=0: no handler and no flusher; the signal writes nothing.
    "off": {"mode": "term", "env": {"SYNCSCOPE_SIGNAL_FLUSH_MS": "0"},
            "status": -signal.SIGTERM,
            "stdout": lines("app: term", "before: flusher threads: 0",
                            "after: flusher threads: 0", "app: raising SIGTERM"),
            "writes": {}},
}


def status_words(status):
    if status is None:
        return "no status (hung, killed after the timeout)"
    if status < 0:
        return f"died of {signal.Signals(-status).name}"
    return f"exit status {status}"


def default_signals():
    """In the started program: SIGINT and SIGTERM at their default action and unblocked."""
    for signo in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signo, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})


def read_meta(path):
    meta = {}
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            fields = line.rstrip("\n").split(" ")
            if fields[0] == "meta" and len(fields) == 3:
                meta[fields[1]] = fields[2]
    return meta


def start_case(name, opts, failures, drop=()):
    """A case's start: its work folder (emptied), its check(ok, what), which appends
    "NAME: what" to failures when ok is false, and the environment without syncscope's and the
    fake CUPTI's variables, LD_PRELOAD and the names in 'drop'. Shared with tests/nvtx."""
    def check(ok, what):
        if not ok:
            failures.append(f"{name}: {what}")
        return ok

    workdir = os.path.join(opts["workdir"], name)
    shutil.rmtree(workdir, ignore_errors=True)
    os.makedirs(workdir)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("SYNCSCOPE_", "FAKE_CUPTI_")) and k != "LD_PRELOAD"
           and k not in drop}
    return workdir, check, env


def dead_pid():
    """The pid of a process that has ended (and been waited for)."""
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def plant_stale(workdir, stale):
    """Creates the files of a case's 'stale' names; returns those that must stay."""
    words = {"dead": dead_pid(), "live": os.getpid(), "host": socket.gethostname()}
    kept = []
    for pattern, stays in stale.items():
        name = pattern.format(**words)
        with open(os.path.join(workdir, name), "w", encoding="utf-8") as handle:
            handle.write("partial")
        if stays:
            kept.append(name)
    return kept


def run_case(name, case, opts, failures):
    workdir, check, env = start_case(name, opts, failures)
    preload = opts["preload"]
    if "at_fsync" in case:
        shim = os.environ.get("SS_TEST_AT_FSYNC_LIB", "")
        if not check(os.path.isfile(shim), "SS_TEST_AT_FSYNC_LIB names no library"):
            return None
        preload = shim + ":" + preload
        env["SS_TEST_SIGNAL_AT_FSYNC"] = case["at_fsync"]
    kept = plant_stale(workdir, case.get("stale", {}))
    env.update({"LD_PRELOAD": preload, "SYNCSCOPE_CUPTI_PATH": opts["fake"],
                "SYNCSCOPE_OUTPUT": os.path.join(workdir, "out-%p.json"),
                "SYNCSCOPE_TRACE": os.path.join(workdir, "out-%p.sstrace")})
    env.update(case.get("env", {}))
    proc = subprocess.Popen([opts["app"], case["mode"]], cwd=workdir, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True, preexec_fn=default_signals)
    try:
        out, err = proc.communicate(timeout=TIMEOUT_S)
        status = proc.returncode
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        status = None
    out, err = out.decode("utf-8", "replace"), err.decode("utf-8", "replace")
    check(status == case["status"], f"{status_words(status)}, expected "
          f"{status_words(case['status'])}\n{err}")
    check(out == case["stdout"], f"stdout {out!r}, expected {case['stdout']!r}")
    warnings = [line for line in err.splitlines()
                if re.match(r"^syncscope: (error|warning): ", line)]
    wanted = [case["warning"]] if "warning" in case else []
    check(warnings == wanted, f"syncscope's warnings {warnings}, expected {wanted}")

    pids = {"main": proc.pid}
    if "child" in case["writes"]:
        traces = [f for f in os.listdir(workdir) if f.endswith(".sstrace")]
        children = [int(f[4:-8]) for f in traces if f != f"out-{proc.pid}.sstrace"]
        if check(len(children) == 1, f"expected one child trace, have {traces}"):
            pids["child"] = children[0]
    wanted_files = sorted([f"out-{pids[p]}.{ext}" for p in case["writes"] if p in pids
                           for ext in ("json", "sstrace")] + kept)
    present = sorted(os.listdir(workdir))
    check(present == wanted_files, f"{workdir} holds {present}, expected {wanted_files}")
    results = RESULTS.findall(err)
    check(sorted(results) == sorted(os.path.join(workdir, f"out-{pids[p]}.json")
                                    for p in case["writes"] if p in pids),
          f"'syncscope: results:' lines {results}")
    for who, signo in case["writes"].items():
        if who not in pids:
            continue
        pid = pids[who]
        trace = os.path.join(workdir, f"out-{pid}.sstrace")
        result = os.path.join(workdir, f"out-{pid}.json")
        if not os.path.isfile(trace) or not os.path.isfile(result):
            continue
        meta = read_meta(trace)
        check(meta.get("pid") == str(pid), f"{who}: the trace names pid {meta.get('pid')}")
        check(meta.get("signal", "") == signo,
              f"{who}: trace meta signal {meta.get('signal')!r}, expected {signo or None!r}")
        check((meta.get("forked") == "1") == (who == "child"),
              f"{who}: trace meta forked {meta.get('forked')!r}")
        try:
            with open(result, encoding="utf-8") as handle:
                document = json.load(handle)
            check((document.get("run") or {}).get("pid") == pid,
                  f"{who}: {result} names pid {(document.get('run') or {}).get('pid')}")
        except ValueError as error:
            check(False, f"{who}: {result} is not JSON: {error}")
    return status


def run_all(program, names, run_one):
    """Runs run_one(name, failures) for each case (it appends "NAME: what" to failures and
    returns what to say of a passed case, or None), prints "ok:" or "FAIL:" lines and the
    count; returns the exit status (0 all passed, 1 not). Shared with tests/nvtx."""
    failures = []
    for name in names:
        before = len(failures)
        said = run_one(name, failures)
        for failure in failures[before:]:
            print(f"FAIL: {failure}")
        if len(failures) == before:
            print(f"ok: {name}" + (f": {said}" if said else ""))
    print(f"{program}: {len(names) - len({f.split(':')[0] for f in failures})} of "
          f"{len(names)} cases passed")
    return 1 if failures else 0


def main(argv):
    if len(argv) < 5:
        print(__doc__, file=sys.stderr)
        return 2
    opts = dict(zip(("app", "preload", "fake", "workdir"), (os.path.abspath(a)
                                                            for a in argv[1:5])))
    names = argv[5:] or list(CASES)
    unknown = [n for n in names if n not in CASES]
    if unknown:
        print(f"run_signal: unknown case {unknown[0]}; cases: {', '.join(CASES)}",
              file=sys.stderr)
        return 2
    return run_all("run_signal", names, lambda name, failures: status_words(
        run_case(name, CASES[name], opts, failures)))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
