#!/usr/bin/env python3
"""dry_run.py: run_lifecycle.py against stand-ins, on any machine.

  dry_run.py SYNCSCOPE ROOT WORKDIR

Every case must pass with stand-ins that keep the promises (fake_app.py: a fake program per
lifecycle program, a fake `syncscope run`, the real `syncscope analyze`), in the full and in the
light mode (--mode light: a light trace, the light rules), and fail (exit 1, with a FAIL line)
for each injected deviation; without a GPU and without --assume-gpu the
runner must skip (77), and the subscriber case must skip without a floor library.
Exit status: 0 when the runner behaved so, 1 otherwise.
"""
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
RUNNER = os.path.join(HERE, "run_lifecycle.py")
PROGRAMS = {"sigterm": "lifecycle_signal", "sigint": "lifecycle_signal",
            "malloc": "lifecycle_signal", "handler": "lifecycle_signal", "subscriber": "lifecycle_signal",
            "thread_exit": "lifecycle_thread_exit", "fork": "lifecycle_fork",
            "threads": "lifecycle_threads"}
# (case, fault, what the runner must say): each must make the runner fail with that FAIL line.
FAULTS = [
    # observed, the program exits 0 instead of dying of SIGTERM
    ("sigterm", "status", "exit status 0, bare: died of SIGTERM (shell status 143)"),
    ("sigterm", "pid", "trace names pid"),                       # the trace names another pid
    ("sigint", "line", "lifecycle_signal.cu:95 x1; expected"),   # the finding one line off
    ("malloc", "status", "exit status 0, bare: died of SIGTERM"),  # exits 0 instead
    ("sigint", "stdout", "stdout differs from the bare run"),    # an extra line when observed
    ("handler", "tempfile", "no temporary file"),                # a temporary file left behind
    ("handler", "bare_stdout", "bare: stdout 'readback 7"),      # the program itself is wrong
    ("thread_exit", "notrace", "no trace"),                      # no trace written
    ("thread_exit", "replay", "the trace replays to"),           # trace and result disagree
    ("threads", "count", "lifecycle_threads.cu:33 x33"),         # 33 occurrences, not 32
    ("fork", "child_finding", "(child): findings of pid"),       # the child reports a finding
    ("fork", "child_gpu", "the child's trace holds GPU records"),
    ("fork", "nooutput", "(child): no result"),                  # nothing written
    ("subscriber", "order", "the CUPTI floor did not report records"),  # floor not first
    ("subscriber", "twice", "syncscope's stderr lines"),         # two "syncscope:" lines
    ("subscriber", "writes", "syncscope wrote"),                 # steps aside, still writes
]
# The same in the light mode (--mode light): each must fail with that FAIL line.
LIGHT_FAULTS = [
    ("sigterm", "light_meta", "trace meta 'mode' is None, expected 'light'"),  # not marked
    ("thread_exit", "light_gpu", "the light mode's trace holds GPU records"),  # records kept
    ("threads", "count", "lifecycle_threads.cu:33 x33"),         # 33 occurrences, not 32
    ("fork", "nooutput", "(child): no result"),                  # the child writes nothing
]


def loaded_library(name):
    """The path of a shared library this interpreter has loaded (stands for a preload)."""
    with open("/proc/self/maps", encoding="utf-8") as maps:
        for line in maps:
            path = line.split()[-1]
            if os.path.basename(path).startswith(name) and os.path.isfile(path):
                return path
    raise SystemExit(f"dry_run: no {name} loaded; cannot choose a stand-in library")


def main(argv):
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    syncscope, root, workdir = (os.path.abspath(a) for a in argv[1:])
    shutil.rmtree(workdir, ignore_errors=True)
    bin_dir = os.path.join(workdir, "bin")
    os.makedirs(bin_dir)
    env = {"FAKE_ROOT": root, "FAKE_LIB": loaded_library("libc.so"),
           "FAKE_FLOOR": loaded_library("libm.so"), "REAL_SYNCSCOPE": syncscope}
    exports = "".join(f"{k}='{v}'; export {k}\n" for k, v in env.items())

    def wrapper(name, args):
        path = os.path.join(bin_dir, name)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(f"#!/bin/sh\n{exports}exec '{sys.executable}' '{HERE}/fake_app.py' "
                         f"{args} \"$@\"\n")
        os.chmod(path, 0o755)
        return path

    fake_syncscope = wrapper("syncscope", "syncscope")
    programs = {p: wrapper(p, f"program {p}") for p in set(PROGRAMS.values())}
    failures = 0

    def runner(case, fault="", gpu=True, floor=True, tag="ok", light=False):
        cmd = [sys.executable, RUNNER, "run", case] + (["--mode", "light"] if light else []) + [
               "--root", root, "--syncscope",
               fake_syncscope, "--preload", env["FAKE_LIB"], "--probe", "/bin/false",
               "--program", programs[PROGRAMS[case]],
               "--workdir", os.path.join(workdir, f"{case}_{tag}{'_light' if light else ''}"),
               "--floor=" + (env["FAKE_FLOOR"] if floor else "")]
        if gpu:
            cmd.append("--assume-gpu")
        run_env = dict(os.environ, FAKE_FAULT=fault)
        done = subprocess.run(cmd, env=run_env, capture_output=True, text=True, timeout=240,
                              check=False)
        return done.returncode, done.stdout + done.stderr

    def expect(what, want, got, output, fail_line=None):
        nonlocal failures
        ok = got == want and (fail_line is None or any(
            line.startswith("FAIL: ") and fail_line in line for line in output.splitlines()))
        said = f", said '{fail_line}'" if ok and fail_line else ""
        print(f"{'ok' if ok else 'WRONG'}: {what}: runner exit {got} (want {want}){said}")
        if not ok:
            print("  " + "\n  ".join(output.strip().splitlines()[:6]))
        if not ok:
            failures += 1

    for case in sorted(PROGRAMS):
        status, output = runner(case)
        expect(f"{case}, promises kept", 0, status, output)
    for case, fault, fail_line in FAULTS:
        status, output = runner(case, fault, tag=fault)
        expect(f"{case}, fault '{fault}'", 1, status, output, fail_line)
    for case in sorted(PROGRAMS):
        status, output = runner(case, light=True)
        expect(f"{case} --mode light, promises kept", 0, status, output)
    for case, fault, fail_line in LIGHT_FAULTS:
        status, output = runner(case, fault, tag=fault, light=True)
        expect(f"{case} --mode light, fault '{fault}'", 1, status, output, fail_line)
    if shutil.which("nvidia-smi") is None:
        status, output = runner("sigterm", gpu=False, tag="nogpu")
        expect("sigterm without a GPU", 77, status, output)
    status, output = runner("subscriber", floor=False, tag="nofloor")
    expect("subscriber without a floor library", 77, status, output)
    print(f"dry_run: {'all as expected' if failures == 0 else f'{failures} wrong'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
