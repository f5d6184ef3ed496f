#!/usr/bin/env python3
"""graph_calls.py: both modes record graph instantiation and upload (docs/run.md, "Modes").

  graph_calls.py --syncscope SYNCSCOPE --program PROGRAM --workdir DIR [--probe GPU_PROBE]
      Runs PROGRAM (tests/gpu/sync501_clean.cu: one cudaGraphInstantiate, two
      cudaGraphLaunch) under `syncscope run` in the full and in the light mode with a trace,
      and requires: cudaGraphInstantiate exactly once in both traces, the same graph
      instantiation and upload calls (runtime and driver) in both, the two cudaGraphLaunch in
      the full trace and none in the light one (launches are left out).
Exit status: 0 pass, 1 fail, 2 usage error, 77 skipped (no GPU visible).
"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import stream_race  # noqa: E402  (the options, the runner and the trace reader)

GRAPH_SETUP = ("cudaGraphInstantiate", "cudaGraphInstantiateWithFlags",
               "cudaGraphInstantiateWithParams", "cudaGraphUpload", "cuGraphInstantiate",
               "cuGraphInstantiateWithFlags", "cuGraphInstantiateWithParams", "cuGraphUpload")


def main(argv):
    opts = stream_race.options(argv, __doc__)
    if opts is None:
        return 77
    failed = 0
    names = {}
    for mode in ("full", "light"):
        trace = os.path.join(opts.workdir, f"{mode}.sstrace")
        status, _, err = stream_race.execute(
            [opts.syncscope, "run", "--mode", mode, "--fail-on", "none", "-o",
             os.path.join(opts.workdir, f"{mode}.json"), "--trace", trace, "--", opts.program],
            opts.workdir)
        if status != 0 or not os.path.exists(trace):
            print(f"FAIL: {mode}: status {status}: {err[-2000:]}")
            failed += 1
            continue
        _, calls = stream_race.read_trace(trace)
        names[mode] = [name for name, _ in calls]
        setup = [name for name in names[mode] if name in GRAPH_SETUP]
        launches = names[mode].count("cudaGraphLaunch")
        print(f"{mode}: graph set-up calls {setup}, cudaGraphLaunch x{launches}")
        if setup.count("cudaGraphInstantiate") != 1:
            print(f"FAIL: {mode}: cudaGraphInstantiate x{setup.count('cudaGraphInstantiate')}")
            failed += 1
        if launches != (2 if mode == "full" else 0):
            print(f"FAIL: {mode}: cudaGraphLaunch x{launches}")
            failed += 1
    if len(names) == 2:
        full = [n for n in names["full"] if n in GRAPH_SETUP]
        light = [n for n in names["light"] if n in GRAPH_SETUP]
        if full != light:
            print(f"FAIL: graph set-up calls differ: full {full}, light {light}")
            failed += 1
    print("ok" if failed == 0 else f"{failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
