"""window_cost.py: what one full window of the sampled mode costs a program running without
pause, measured inside one process (docs/studies/performance.md, "Modes"): the launch-bound
MLP of mlp_train.py, or a loop of transformers' generate() on a small GPT-2.

Usage: syncscope run --sample ON/10m -- python3 window_cost.py ON [PAIRS (4)] [GAP (3)]
                                                               [WORKLOAD (mlp)]

WORKLOAD: mlp (a training step a step, a loss readback every mlp_train.LOG_EVERY steps),
generate (one greedy generate() of GENERATE_TOKENS tokens on a GPT-2 of random weights built
from its config, nothing downloaded, a step) or fake (no GPU, no syncscope: a step is a sleep
of FAKE_STEP_S; SIGUSR2 makes the steps FAKE_SLOWER times as long for ON seconds, with a pause
of FAKE_OPEN_S at the window's first step and FAKE_CLOSE_S at the first step after it: known
costs, for tests).

The program runs without pause. The script asks for a window PAIRS times (SIGUSR2 to itself,
the on-demand window of docs/run.md) and PAIRS times, in turn, for nothing (a control
period), each followed by ON + 1.5 seconds of steps, with GAP seconds of steps between
periods. A period's excess is its time minus its steps at the light mode's pace (the mean
step of the GAP stretches): the window's cost in ms, open, full and closed (the flush
included), against a control period's excess, the noise of the same measure with no window.
The median step inside the windows (from 0.2 s after the request to ON - 0.2 s) over the
median step of the GAP stretches is the full mode's slowdown inside a window. Prints one line
per period and

  bench: window_ms MEDIAN_WINDOW_EXCESS control_ms MEDIAN_CONTROL_EXCESS inside RATIO
  bench: window_added_ms n PAIRS median M ci95 LO HI min MIN max MAX
  bench: window_part PART n PAIRS median M ci95 LO HI

the second being each window's excess less that of the control period after it, the median
over the pairs with a bootstrap 95% interval (pairstats.py): what one window adds; the third
the same for the steps that ended in each part of the period: open (the first OPEN_S seconds
after the request: the activity records and the launch callbacks enabled), body (from then to
ON: the full mode's work on every launch and copy), close (from ON to the period's end: the
callbacks and records disabled and the records flushed).

Run without --sample the SIGUSR2 would end the process: the script refuses to run unless
SYNCSCOPE_SAMPLE is set (syncscope run --sample sets it), but for WORKLOAD fake.
"""
import os
import signal
import statistics
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pairstats import bootstrap_median  # noqa: E402

WORKLOADS = ("mlp", "generate", "fake")
OPEN_S = 0.5  # the part of a period that holds the window's opening
GENERATE_TOKENS = 8
FAKE_STEP_S, FAKE_SLOWER, FAKE_OPEN_S, FAKE_CLOSE_S = 0.01, 1.5, 0.4, 0.5


def mlp_workload():
    """(step(i) -> loss, readback(i, loss), warm-up steps) of mlp_train.py's MLP."""
    import mlp_train  # imports torch
    step = mlp_train.make_step()

    def readback(i, loss):
        if i % mlp_train.LOG_EVERY == 0:
            loss.item()
    return step, readback, mlp_train.WARMUP_STEPS


def generate_workload():
    """A step is one greedy generate() of GENERATE_TOKENS new tokens for two prompts of 12
    tokens, on a GPT-2 of two layers with random weights (tests/gpu/real/gpt2_generate.py's
    configuration); the generation loop reads back every token's stopping test itself."""
    import torch
    from gpt2_model import tiny_gpt2
    torch.manual_seed(0)
    dev = torch.device("cuda")
    model = tiny_gpt2(dev)
    generator = torch.Generator().manual_seed(1)
    prompts = [torch.randint(0, 998, (2, 12), generator=generator).to(dev) for _ in range(4)]
    mask = torch.ones_like(prompts[0])

    def step(i):
        with torch.no_grad():
            return model.generate(prompts[i % len(prompts)], attention_mask=mask,
                                  max_new_tokens=GENERATE_TOKENS,
                                  min_new_tokens=GENERATE_TOKENS, do_sample=False)
    return step, lambda i, out: None, 5


def fake_workload(on):
    """No GPU: a step sleeps; SIGUSR2 opens a pretend window of 'on' seconds (the steps slower
    by FAKE_SLOWER, a pause at its first step and at the first step after it)."""
    state = {"until": 0.0, "opened": False, "closed": True}

    def window(signum, frame):
        state.update(until=time.perf_counter() + on, opened=False, closed=False)
    signal.signal(signal.SIGUSR2, window)

    def step(i):
        now = time.perf_counter()
        pause, slower = 0.0, 1.0
        if now < state["until"]:
            slower = FAKE_SLOWER
            if not state["opened"]:
                state["opened"], pause = True, FAKE_OPEN_S
        elif not state["closed"]:
            state["closed"], pause = True, FAKE_CLOSE_S
        time.sleep(FAKE_STEP_S * slower + pause)
    return step, lambda i, out: None, 5


def run_for(work, first, seconds, times):
    """Steps of 'work' (step, readback) from index 'first' for 'seconds', appending each
    step's end time to 'times'; returns the next index."""
    step, readback = work
    i = first
    end = time.perf_counter() + seconds
    while True:
        out = step(i)
        i += 1
        readback(i, out)
        now = time.perf_counter()
        times.append(now)
        if now >= end:
            return i


def durations(times, start):
    """The durations of the steps that ended in 'times', the first measured from 'start'."""
    return [b - a for a, b in zip([start] + times[:-1], times)]


def excess_ms(times, start, pace, low, high):
    """The time of the steps of a period that ended from 'low' to 'high' seconds after its
    'start', less their number at 'pace': their excess in ms."""
    kept = [d for t, d in zip(times, durations(times, start)) if low <= t - start < high]
    return (sum(kept) - len(kept) * pace) * 1e3


def paired_line(label, windows, controls):
    """A 'bench:' line of each window's value less the control period's after it."""
    added = [w - c for w, c in zip(windows, controls)]
    low, high = bootstrap_median(added)
    return (f"{label} n {len(added)} median {statistics.median(added):.1f} ci95 {low:.1f} "
            f"{high:.1f}")


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: window_cost.py ON [PAIRS] [GAP] [WORKLOAD]")
    on = float(sys.argv[1])
    pairs = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    gap = float(sys.argv[3]) if len(sys.argv) > 3 else 3.0
    workload = sys.argv[4] if len(sys.argv) > 4 else "mlp"
    if on <= OPEN_S or pairs <= 0 or gap <= 0:
        sys.exit(f"window_cost.py: ON must exceed {OPEN_S} s, PAIRS and GAP be positive")
    if workload not in WORKLOADS:
        sys.exit(f"window_cost.py: WORKLOAD '{workload}' is not one of {', '.join(WORKLOADS)}")
    if workload != "fake" and not os.environ.get("SYNCSCOPE_SAMPLE"):
        sys.exit("window_cost.py: run it under syncscope run --sample ON/10m (SIGUSR2 would "
                 "end it otherwise)")
    if workload == "fake":
        step, readback, warmup = fake_workload(on)
    else:
        import torch
        if not torch.cuda.is_available():
            sys.exit("window_cost.py: no CUDA device visible to PyTorch")
        step, readback, warmup = mlp_workload() if workload == "mlp" else generate_workload()
    for i in range(warmup):
        step(i)
    if workload != "fake":
        torch.cuda.synchronize()

    span = on + 1.5
    i = warmup
    light_steps, periods = [], []
    for n in range(2 * pairs):
        times = []
        start = time.perf_counter()
        i = run_for((step, readback), i, gap, times)
        light_steps += durations(times, start)[1:]
        window = n % 2 == 0
        if window:
            os.kill(os.getpid(), signal.SIGUSR2)
        times = []
        start = time.perf_counter()
        i = run_for((step, readback), i, span, times)
        periods.append((window, start, times))
    if workload != "fake":
        torch.cuda.synchronize()

    pace = sum(light_steps) / len(light_steps)
    excess = {True: [], False: []}
    parts = {True: [], False: []}
    inside = []
    for window, start, times in periods:
        elapsed = times[-1] - start
        extra = (elapsed - len(times) * pace) * 1e3
        excess[window].append(extra)
        parts[window].append([excess_ms(times, start, pace, low, high)
                              for low, high in ((0, OPEN_S), (OPEN_S, on), (on, span + 60))])
        if window:
            inside += [d for t, d in zip(times, durations(times, start))
                       if start + 0.2 <= t <= start + on - 0.2]
        print(f"{'window ' if window else 'control'}: {len(times)} steps in {elapsed * 1e3:.1f} "
              f"ms, excess {extra:.1f} ms (open {parts[window][-1][0]:.1f}, body "
              f"{parts[window][-1][1]:.1f}, close {parts[window][-1][2]:.1f})")
    ratio = statistics.median(inside) / statistics.median(light_steps) if inside else float("nan")
    print(f"light pace {pace * 1e6:.1f} us per step ({len(light_steps)} steps); inside the "
          f"windows {ratio:.3f}x ({len(inside)} steps)")
    print(f"bench: window_ms {statistics.median(excess[True]):.1f} "
          f"control_ms {statistics.median(excess[False]):.1f} inside {ratio:.4f}", flush=True)
    # Each window against the control period after it: what one window adds, pair by pair.
    added = [w - c for w, c in zip(excess[True], excess[False])]
    print(f"bench: window_added_ms {paired_line('', excess[True], excess[False]).strip()} "
          f"min {min(added):.1f} max {max(added):.1f}", flush=True)
    for k, name in enumerate(("open", "body", "close")):
        print("bench: window_part " + paired_line(name, [p[k] for p in parts[True]],
                                                  [p[k] for p in parts[False]]), flush=True)


if __name__ == "__main__":
    main()
