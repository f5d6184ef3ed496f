#!/usr/bin/env python3
"""run_pointers.py: the device pointers each call was handed (SS_EV_ARGS, `args` records of
the trace), captured by libsyncscope.so without a GPU.

  run_pointers.py APP LIBSYNCSCOPE FAKE_CUPTI WORKDIR

Runs APP (tests/pointers/pointers_app.c) under the interposer with the fake CUPTI of
tests/signal and checks the trace's `args` records exactly: the call each names (by
correlation, with the call's enter time), kind, completeness and pointers, in order; and that
SYNCSCOPE_POINTERS=0 (--no-pointers) records none.
Exit status: 0 pass, 1 fail, 2 usage error.
"""
import os
import subprocess
import sys
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "signal"))
from run_signal import start_case  # noqa: E402  (shared with the signal test)

TIMEOUT_S = 30
BASE1, BASE2 = 0x7F0000000000, 0x7F0000100000
LAUNCH, COPY, ALLOC, FREE, EVENT = 1, 2, 3, 4, 5
EVENT_HANDLE = 0xE1
HOST = "host"  # stands for the host buffer's address, which the app prints

# (API of the call, kind, complete, pointers), in the order of the calls.
EXPECTED = [
    ("cudaMalloc", ALLOC, 1, [BASE1]),
    ("cudaMalloc", ALLOC, 1, [BASE2]),
    # The runtime launch, named by its driver launch: a pointer into the first allocation, the
    # pointer inside a struct; the int, the struct's other words and 0x1234 are not kept.
    ("cudaLaunchKernel", LAUNCH, 1, [BASE1 + 16, BASE2 + 8]),
    # A driver launch with its parameters in one buffer, read at cuFuncGetParamInfo's offsets.
    ("cuLaunchKernel", LAUNCH, 1, [BASE2, BASE1 + 4095]),
    ("cuLaunchKernel", LAUNCH, 0, []),  # 40 parameters: more than kept, unknown
    # No parameters: neither query answers for index 0, which a handle neither takes would
    # also give; unknown.
    ("cuLaunchKernel", LAUNCH, 0, []),
    ("cuLaunchKernel", LAUNCH, 0, [BASE2 + i for i in range(8)]),  # nine pointers
    # A CUkernel: cuFuncGetParamInfo refuses it, cuKernelGetParamInfo answers.
    ("cuLaunchKernel", LAUNCH, 1, [BASE1 + 64]),
    # (the second runtime launch made no driver call: no record)
    ("cudaMemcpy", COPY, 1, [HOST, BASE1]),
    ("cudaMemsetAsync", COPY, 1, [BASE2, 0]),
    # An event's handle where it is recorded and waited for; a 2D and a 3D copy's pointers.
    ("cudaEventRecord", EVENT, 1, [EVENT_HANDLE]),
    ("cudaEventSynchronize", EVENT, 1, [EVENT_HANDLE]),
    ("cudaMemcpy2D", COPY, 1, [HOST, BASE2 + 32]),
    ("cudaMemcpy3D", COPY, 1, [HOST, BASE1 + 128]),
    ("cudaFree", FREE, 1, [BASE1]),
]


# The launches pointers_app makes: 5 driver launches of its own and 2 runtime launches (a
# driver launch inside a runtime one is not a call of its own).
LAUNCHES = 7


def check_self_cost(check, path):
    """The trace's metadata counts every launch and syncscope's own time in them (SYNC502 takes
    it off the traced launches), and every call whose stack was taken and syncscope's own time
    after its return."""
    meta, records = {}, []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            f = line.rstrip("\n").split(" ")
            records.append(f)
            if f[0] == "meta" and len(f) == 3:
                meta[f[1]] = f[2]
    # A launch over 20 us of syncscope's own time (a loaded machine) is counted apart.
    counted = int(meta.get("self_launches", "0")) + int(meta.get("self_slow_launches", "0"))
    check(counted == LAUNCHES,
          f"meta self_launches {meta.get('self_launches')!r} and self_slow_launches "
          f"{meta.get('self_slow_launches')!r}, expected {LAUNCHES} in all")
    check(meta.get("self_launch_ns", "").isdigit() and int(meta["self_launch_ns"]) > 0,
          f"meta self_launch_ns {meta.get('self_launch_ns')!r}, expected a positive count")
    # Every call whose stack was taken counts its own time after its return (SYNC301 takes
    # it off the host's time after a readback); one over 100 us apart.
    stacked = sum(1 for f in records if f[0] == "api" and f[16] != "0")
    counted = int(meta.get("self_stacks", "0")) + int(meta.get("self_slow_stacks", "0"))
    check(stacked > 0 and counted == stacked,
          f"meta self_stacks {meta.get('self_stacks')!r} and self_slow_stacks "
          f"{meta.get('self_slow_stacks')!r}, expected {stacked} in all (the calls with a stack)")
    check(meta.get("self_stack_ns", "").isdigit() and int(meta["self_stack_ns"]) > 0,
          f"meta self_stack_ns {meta.get('self_stack_ns')!r}, expected a positive count")


def read_trace(path):
    """The trace's calls by correlation (name, enter) and its args records."""
    strings, calls, args = {0: ""}, {}, []
    with open(path, encoding="utf-8") as handle:
        header = handle.readline().split()
        for line in handle:
            f = line.rstrip("\n").split(" ")
            if f[0] == "str":
                strings[int(f[1])] = urllib.parse.unquote(f[2])
            elif f[0] == "api":
                calls[int(f[4])] = (strings[int(f[5])], int(f[1]))
            elif f[0] == "args":
                time, corr, kind, complete, count = (int(x) for x in f[1:6])
                values = [int(x) for x in f[6:]]
                args.append((time, corr, kind, complete, count, values))
    return header, calls, args


def run_off(opts, failures):
    """SYNCSCOPE_POINTERS=0 (--no-pointers): the same calls, no args record, format 1.0."""
    workdir, check, env = start_case("no_pointers", opts, failures)
    trace = os.path.join(workdir, "out.sstrace")
    env.update({"LD_PRELOAD": opts["preload"], "SYNCSCOPE_CUPTI_PATH": opts["fake"],
                "SYNCSCOPE_QUIET": "1", "SYNCSCOPE_OUTPUT": os.path.join(workdir, "out.json"),
                "SYNCSCOPE_TRACE": trace, "SYNCSCOPE_POINTERS": "0"})
    proc = subprocess.run([opts["app"]], cwd=workdir, env=env, capture_output=True, text=True,
                          timeout=TIMEOUT_S)
    check(proc.returncode == 0, f"exit status {proc.returncode}: {proc.stderr}")
    if check(os.path.exists(trace), "no trace written"):
        header, calls, args = read_trace(trace)
        check(header == ["SSTRACE", "1", "0"] and args == [] and len(calls) == 16,
              f"header {header}, {len(args)} args records, {len(calls)} calls; expected "
              "SSTRACE 1 0, none, 16")
        check_self_cost(check, trace)


def main():
    if len(sys.argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    opts = dict(zip(("app", "preload", "fake", "workdir"), sys.argv[1:]))
    failures = []
    run_off(opts, failures)
    workdir, check, env = start_case("pointers", opts, failures)
    trace = os.path.join(workdir, "out.sstrace")
    env.update({"LD_PRELOAD": opts["preload"], "SYNCSCOPE_CUPTI_PATH": opts["fake"],
                "SYNCSCOPE_QUIET": "1", "SYNCSCOPE_OUTPUT": os.path.join(workdir, "out.json"),
                "SYNCSCOPE_TRACE": trace})
    proc = subprocess.run([opts["app"]], cwd=workdir, env=env, capture_output=True, text=True,
                          timeout=TIMEOUT_S)
    check(proc.returncode == 0, f"exit status {proc.returncode}: {proc.stderr}")
    lines = proc.stdout.splitlines()
    check(len(lines) == 2 and lines[0].startswith("host buffer: ")
          and lines[1] == "pointers_app: end", f"stdout {proc.stdout!r}")
    if not os.path.exists(trace):
        failures.append("pointers: no trace written")
    else:
        host = int(lines[0].split(": ")[1])
        header, calls, args = read_trace(trace)
        check(header == ["SSTRACE", "1", "3"], f"header {header}, expected SSTRACE 1 3")
        check_self_cost(check, trace)
        got = []
        for time, corr, kind, complete, count, values in args:
            name, enter = calls.get(corr, ("<no call>", None))
            check(enter == time, f"args of correlation {corr}: time {time}, call entered {enter}")
            check(all(v == 0 for v in values[count:]), f"args {corr}: values past the count")
            got.append((name.split("_v")[0], kind, complete, values[:count]))
        want = [(n, k, c, [host if v == HOST else v for v in vals])
                for n, k, c, vals in EXPECTED]
        check(got == want, "args records differ:\n  got  " +
              "\n       ".join(map(str, got)) + "\n  want " + "\n       ".join(map(str, want)))
    for message in failures:
        print(f"run_pointers: {message}", file=sys.stderr)
    if not failures:
        print(f"run_pointers: {len(EXPECTED)} calls' pointers as expected")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
