#!/usr/bin/env python3
"""count_calls.py: the calls a light run of bench/overhead/mlp_train.py (or another loop) took,
in all and inside its loop (docs/studies/performance.md, "Modes").

  count_calls.py TRACE [SIZE]
      TRACE is the text trace of `syncscope run --mode light --trace TRACE -- python3
      mlp_train.py STEPS`. The loop's span runs from its first readback (a cudaMemcpyAsync of
      SIZE bytes, default 4: mlp_train's loss, at step 100) to its last; prints each API's
      count in all and in that span, and the number of readbacks in it. With no two readbacks
      the counts in all are still printed.
Exit status: 0, 1 when the trace holds no two readbacks, 2 on a usage error.
"""
import collections
import sys

sys.dont_write_bytecode = True
# The api record's fields after the keyword (docs/trace-format.md).
API_ENTER, API_NAME, API_BYTES = 0, 4, 8


def main(argv):
    if len(argv) not in (1, 2) or (len(argv) == 2 and not argv[1].isdigit()):
        print("usage: count_calls.py TRACE [SIZE]", file=sys.stderr)
        return 2
    size_marks = int(argv[1]) if len(argv) == 2 else 4
    strings, calls = {}, []
    with open(argv[0], encoding="utf-8") as handle:
        for line in handle:
            words = line.rstrip("\n").split(" ")
            if words[0] == "str" and len(words) >= 3:
                strings[words[1]] = words[2]
            elif words[0] == "api" and len(words) > 1 + API_BYTES:
                fields = words[1:]
                calls.append((int(fields[API_ENTER]), fields[API_NAME], int(fields[API_BYTES])))
    calls = sorted((enter, strings.get(name, name), size) for enter, name, size in calls)
    readbacks = [enter for enter, name, size in calls
                 if name == "cudaMemcpyAsync" and size == size_marks]
    everything = collections.Counter(name for _, name, _ in calls)
    if len(readbacks) < 2:
        print(f"{len(readbacks)} readbacks of {size_marks} bytes in {argv[0]}: no loop span; "
              f"{len(calls)} calls in all")
        for name, count in everything.most_common():
            print(f"  {name}: {count} in all")
        return 1
    first, last = readbacks[0], readbacks[-1]
    loop = collections.Counter(name for enter, name, _ in calls if first <= enter <= last)
    print(f"{len(calls)} calls in all, {sum(loop.values())} inside the loop "
          f"({len(readbacks)} readbacks, {(last - first) / 1e9:.3f} s from the first to the last)")
    for name, count in everything.most_common():
        print(f"  {name}: {count} in all, {loop.get(name, 0)} in the loop")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
