#!/usr/bin/env python3
"""phases.py: runs a Python workload as __main__ and says on standard error when each phase of
the process ended, so that BENCH_WHOLE can tell where a whole process's extra time goes
(bench/exit/run.py; docs/studies/performance.md, "Whole process").

  python3 phases.py SCRIPT [ARGS...]

Lines written (CLOCK_REALTIME seconds, the clock run.py reads before it starts the process):
  bench-phase start T     the interpreter reached this file (startup: the loader, the
                          preloaded libraries' constructors, the interpreter itself)
  bench-phase imported T  the modules BENCH_PREIMPORT names (space-separated) are imported
  bench-phase ran T       SCRIPT returned or called sys.exit (what is left until the process
                          is gone is its exit: atexit handlers, CUDA's teardown, finalization)
The workload's own output and exit status are unchanged.
"""
import os
import runpy
import sys
import time


def mark(name):
    print(f"bench-phase {name} {time.time():.6f}", file=sys.stderr, flush=True)


def main():
    mark("start")
    if len(sys.argv) < 2:
        print("usage: phases.py SCRIPT [ARGS...]", file=sys.stderr)
        return 2
    for module in os.environ.get("BENCH_PREIMPORT", "").split():
        __import__(module)
    mark("imported")
    script = sys.argv[1]
    sys.argv = sys.argv[1:]
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    status = 0
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit as e:
        status = e.code
    mark("ran")
    return status


if __name__ == "__main__":
    sys.exit(main())
