"""whatif_pair.py: the command line every framework pair of tests/gpu/whatif shares.

  PROGRAM written|rewritten [STEPS [WARMUP]]
      runs one form: WARMUP untimed steps, then STEPS timed ones, and prints
      "steady: <us> us per iteration (<STEPS> iterations after <WARMUP> warm-up)"
  PROGRAM rounds ROUNDS [STEPS [WARMUP]]
      runs both forms ROUNDS times, alternating (written first), in this one process, and
      prints one "round R FORM <us>" line per run, then "median FORM <us>" per form and
      "saving <us> us per iteration" (median written - median rewritten)

A pair module defines forms = {"written": make, "rewritten": make}: make() sets the form up
and returns (step, sync): step(i) runs iteration i, sync() waits for the device.
"""
import statistics
import sys
import time


def host_work(us):
    """The host's own work between steps: 'us' microseconds of Python."""
    end = time.perf_counter() + us / 1e6
    x = 0
    while time.perf_counter() < end:
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
    return x


def timed(make, steps, warmup):
    step, sync = make()
    for i in range(warmup):
        step(i)
    sync()
    start = time.perf_counter()
    for i in range(warmup, warmup + steps):
        step(i)
    sync()
    return (time.perf_counter() - start) * 1e6 / steps


def main(forms, default_steps, default_warmup):
    args = sys.argv[1:]
    usage = f"usage: {sys.argv[0]} written|rewritten|rounds [ROUNDS] [STEPS [WARMUP]]"
    if not args or args[0] not in ("written", "rewritten", "rounds"):
        print(usage, file=sys.stderr)
        return 2
    rounds = 0
    if args[0] == "rounds":
        if len(args) < 2 or not args[1].isdigit():
            print(usage, file=sys.stderr)
            return 2
        rounds = int(args[1])
        rest = args[2:]
    else:
        rest = args[1:]
    if not all(a.isdigit() for a in rest) or len(rest) > 2:
        print(usage, file=sys.stderr)
        return 2
    steps = int(rest[0]) if rest else default_steps
    warmup = int(rest[1]) if len(rest) > 1 else default_warmup
    if steps < 1:
        print(usage, file=sys.stderr)
        return 2
    if not rounds:
        us = timed(forms[args[0]], steps, warmup)
        print(f"steady: {us:.3f} us per iteration ({steps} iterations after {warmup} warm-up)")
        print("ok")
        return 0
    times = {"written": [], "rewritten": []}
    for r in range(rounds):
        for form in ("written", "rewritten"):
            us = timed(forms[form], steps, warmup)
            times[form].append(us)
            print(f"round {r} {form} {us:.3f}", flush=True)
    for form, values in times.items():
        print(f"median {form} {statistics.median(values):.3f}")
    saving = statistics.median(times["written"]) - statistics.median(times["rewritten"])
    print(f"saving {saving:.3f} us per iteration")
    print("ok")
    return 0
