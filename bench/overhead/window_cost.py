"""window_cost.py: what one full window of the sampled mode costs the launch-bound MLP of
mlp_train.py, measured inside one process (docs/studies/performance.md, "Modes").

Usage: syncscope run --sample ON/10m -- python3 window_cost.py ON [PAIRS (4)] [GAP (3)]

The MLP trains without pause. The script asks for a window PAIRS times (SIGUSR2 to itself,
the on-demand window of docs/run.md) and PAIRS times, in turn, for nothing (a control
period), each followed by ON + 1.5 seconds of steps, with GAP seconds of steps between
periods. A period's excess is its time minus its steps at the light mode's pace (the mean
step of the GAP stretches): the window's cost in ms, open, full and closed (the flush
included), against a control period's excess, the noise of the same measure with no window.
The median step inside the windows (from 0.2 s after the request to ON - 0.2 s) over the
median step of the GAP stretches is the full mode's slowdown inside a window. Prints one line per period and

  bench: window_ms MEDIAN_WINDOW_EXCESS control_ms MEDIAN_CONTROL_EXCESS inside RATIO
  bench: window_added_ms n PAIRS median M ci95 LO HI min MIN max MAX

the second being each window's excess less that of the control period after it, the median
over the pairs with a bootstrap 95% interval (pairstats.py): what one window adds.

Run without --sample the SIGUSR2 would end the process: the script refuses to run unless
SYNCSCOPE_SAMPLE is set (syncscope run --sample sets it).
"""
import os
import signal
import statistics
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mlp_train  # noqa: E402  (the MLP, its warm-up and loss readback cadence)
from pairstats import bootstrap_median  # noqa: E402
import torch  # noqa: E402


def run_for(step, first, seconds, times):
    """Steps from index 'first' for 'seconds', appending each step's end time to 'times'
    (a loss readback every LOG_EVERY steps, as mlp_train.py); returns the next index."""
    i = first
    end = time.perf_counter() + seconds
    while True:
        loss = step(i)
        i += 1
        if i % mlp_train.LOG_EVERY == 0:
            loss.item()
        now = time.perf_counter()
        times.append(now)
        if now >= end:
            return i


def durations(times, start):
    """The durations of the steps that ended in 'times', the first measured from 'start'."""
    return [b - a for a, b in zip([start] + times[:-1], times)]


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: window_cost.py ON [PAIRS] [GAP]")
    if not os.environ.get("SYNCSCOPE_SAMPLE"):
        sys.exit("window_cost.py: run it under syncscope run --sample ON/10m (SIGUSR2 would "
                 "end it otherwise)")
    on = float(sys.argv[1])
    pairs = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    gap = float(sys.argv[3]) if len(sys.argv) > 3 else 3.0
    if on <= 0.5 or pairs <= 0 or gap <= 0:
        sys.exit("window_cost.py: ON must exceed 0.5 s, PAIRS and GAP be positive")
    if not torch.cuda.is_available():
        sys.exit("window_cost.py: no CUDA device visible to PyTorch")
    step = mlp_train.make_step()
    for i in range(mlp_train.WARMUP_STEPS):
        step(i)
    torch.cuda.synchronize()

    span = on + 1.5
    i = mlp_train.WARMUP_STEPS
    light_steps, periods = [], []
    for n in range(2 * pairs):
        times = []
        start = time.perf_counter()
        i = run_for(step, i, gap, times)
        light_steps += durations(times, start)[1:]
        window = n % 2 == 0
        if window:
            os.kill(os.getpid(), signal.SIGUSR2)
        times = []
        start = time.perf_counter()
        i = run_for(step, i, span, times)
        periods.append((window, start, times))
    torch.cuda.synchronize()

    pace = sum(light_steps) / len(light_steps)
    excess = {True: [], False: []}
    inside = []
    for window, start, times in periods:
        elapsed = times[-1] - start
        extra = (elapsed - len(times) * pace) * 1e3
        excess[window].append(extra)
        if window:
            inside += [d for t, d in zip(times, durations(times, start))
                       if start + 0.2 <= t <= start + on - 0.2]
        print(f"{'window ' if window else 'control'}: {len(times)} steps in {elapsed * 1e3:.1f} "
              f"ms, excess {extra:.1f} ms")
    ratio = statistics.median(inside) / statistics.median(light_steps) if inside else float("nan")
    print(f"light pace {pace * 1e6:.1f} us per step ({len(light_steps)} steps); inside the "
          f"windows {ratio:.3f}x ({len(inside)} steps)")
    print(f"bench: window_ms {statistics.median(excess[True]):.1f} "
          f"control_ms {statistics.median(excess[False]):.1f} inside {ratio:.4f}", flush=True)
    # Each window against the control period after it: what one window adds, pair by pair.
    added = [w - c for w, c in zip(excess[True], excess[False])]
    low, high = bootstrap_median(added)
    print(f"bench: window_added_ms n {len(added)} median {statistics.median(added):.1f} "
          f"ci95 {low:.1f} {high:.1f} min {min(added):.1f} max {max(added):.1f}", flush=True)


if __name__ == "__main__":
    main()
