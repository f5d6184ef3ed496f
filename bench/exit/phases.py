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
  bench-mark NAME SECONDS  one call of a function BENCH_MARKS names returned after SECONDS
The workload's own output and exit status are unchanged.

BENCH_MARKS="NAME=module:Class.method ..." wraps each such function (after the imports) so that
each call's duration is written, to tell which step of a workload moves between runs (e.g.
loader_exit=torch.utils.data.dataloader:_MultiProcessingDataLoaderIter._shutdown_workers, which
joins the DataLoader's workers with a time-out of seconds).
"""
import os
import runpy
import sys
import time


def mark(name):
    print(f"bench-phase {name} {time.time():.6f}", file=sys.stderr, flush=True)


def wrap_marks(text):
    """Wraps the functions BENCH_MARKS names (NAME=module:Attr.attr words)."""
    import functools
    import importlib
    for word in text.split():
        name, _, target = word.partition("=")
        module_name, _, path = target.partition(":")
        parts = path.split(".")
        try:
            owner = importlib.import_module(module_name)
            for part in parts[:-1]:
                owner = getattr(owner, part)
            original = getattr(owner, parts[-1])
        except (ImportError, AttributeError) as problem:  # another version: no such step
            print(f"bench-mark-missing {name}: {problem}", file=sys.stderr, flush=True)
            continue

        def wrapper(*args, _original=original, _name=name, **kwargs):
            start = time.monotonic()
            try:
                return _original(*args, **kwargs)
            finally:
                print(f"bench-mark {_name} {time.monotonic() - start:.6f}", file=sys.stderr,
                      flush=True)

        setattr(owner, parts[-1], functools.wraps(original)(wrapper))


def main():
    mark("start")
    if len(sys.argv) < 2:
        print("usage: phases.py SCRIPT [ARGS...]", file=sys.stderr)
        return 2
    for module in os.environ.get("BENCH_PREIMPORT", "").split():
        __import__(module)
    wrap_marks(os.environ.get("BENCH_MARKS", ""))
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
