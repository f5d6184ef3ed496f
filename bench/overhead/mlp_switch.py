"""mlp_switch.py: the light mode's own work in its callbacks, measured inside one process on
the launch-bound MLP of mlp_train.py (docs/studies/performance.md, "Where the light mode's cost
is").

Usage: python3 mlp_switch.py LIBSYNCSCOPE WORKDIR [--block STEPS (30)] [--seconds T (60)]
           [--cpus LIST] [--fake] [--fake-cost F]

The lockstep of mlp_lockstep.py compares processes, each with a CUDA context of its own, and
two contexts of the same program differ by about 1% in their step (the per-context offset of
its control), as much as the parts of the light mode's cost to be told apart. Here one process
runs under the light mode with SYNCSCOPE_LIGHT_PROBE=switch, and between blocks of STEPS steps
calls syncscope_light_probe_set: 1 makes the light mode's API callbacks return at once
('noop', as SYNCSCOPE_LIGHT_PROBE=noop), 0 makes them work ('light'), 2 makes them work as
before the light mode remembered device allocations ('query': every asynchronous memset's
memory kind asked of the driver with cuPointerGetAttributes). A round runs one block of each,
in an order that turns and reverses from round to round (mlp_lockstep.round_order), each block
after a lead-in of 5 untimed steps and a loss readback, measured by its median step (the
host's time per step; the readback is outside the timing). A round gives the ratios
light/noop (what syncscope's own work in the callbacks costs a step, with CUPTI subscribed and
the same callbacks enabled on both sides), query/noop, and light/query (what remembering the
allocations saves), in the same context, blocks a tenth of a second apart. No round starts
after T seconds from the start (the import of PyTorch included).

Prints per ratio 'bench: switch A/B step n N median RATIO ci95 LO HI q1 Q1 q3 Q3 min MIN max
MAX sum_ratio S' (pairstats.py: the median of the rounds' ratios and its bootstrap 95%
interval) and 'bench: switch_us noop STEP light STEP query STEP rounds N' (the median steps).
Checked: the process loaded LIBSYNCSCOPE and the final loss is a number. --fake runs the
protocol with a Python busy loop and a stand-in switch (no PyTorch, no GPU), --fake-cost F
making the 'light' and 'query' blocks loop F times as long. Exit status 0, 1 when a check
failed, 2 on usage errors.
"""
import argparse
import ctypes
import os
import statistics
import sys
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from pairstats import ratio_summary  # noqa: E402
from mlp_lockstep import round_order, set_cpus  # noqa: E402

LEAD_IN = 5
LEVELS = {"light": 0, "noop": 1, "query": 2}  # syncscope_light_probe_set's levels
RATIOS = (("light", "noop"), ("query", "noop"), ("light", "query"))
STARTED = time.monotonic()


def parse(argv):
    parser = argparse.ArgumentParser(prog="mlp_switch.py")
    parser.add_argument("library")
    parser.add_argument("workdir")
    parser.add_argument("--block", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--cpus", default="")
    parser.add_argument("--fake", action="store_true")
    parser.add_argument("--fake-cost", type=float, default=1.0)
    try:
        opts = parser.parse_args(argv[1:])
    except SystemExit:
        return None
    problem = None
    if min(opts.block, opts.seconds, opts.fake_cost) <= 0:
        problem = "--block, --seconds and --fake-cost must be positive"
    elif not opts.fake and not os.path.isfile(opts.library):
        problem = f"{opts.library}: no such file"
    if problem:
        print(f"mlp_switch.py: {problem}", file=sys.stderr)
        return None
    opts.library = os.path.abspath(opts.library)
    opts.workdir = os.path.abspath(opts.workdir)
    return opts


class FakeRun:
    """--fake: a step is a Python loop, longer by 'cost' while the stand-in switch says light."""

    def __init__(self, cost):
        self.cost = cost
        self.level = LEVELS["noop"]

    def switch(self, level):
        self.level = level

    def step(self, i):
        total = 0
        for k in range(int(2000 * (1.0 if self.level == LEVELS["noop"] else self.cost))):
            total += (k * (i + 1)) % 7
        return float(i)


def set_up(opts):
    """(step(i), readback(loss) -> float, switch(level)), the library loaded."""
    if opts.fake:
        fake = FakeRun(opts.fake_cost)
        return fake.step, float, fake.switch
    os.makedirs(opts.workdir, exist_ok=True)
    os.environ.update({"CUDA_INJECTION64_PATH": opts.library, "SYNCSCOPE_MODE": "light",
                       "SYNCSCOPE_LIGHT_PROBE": "switch", "SYNCSCOPE_QUIET": "1",
                       "SYNCSCOPE_OUTPUT": os.path.join(opts.workdir, "switch.json"),
                       "SYNCSCOPE_SYMBOL_CACHE": os.path.join(opts.workdir, "cache")})
    import mlp_train
    step = mlp_train.make_step()  # the first CUDA call: cuInit loads LIBSYNCSCOPE
    for i in range(mlp_train.WARMUP_STEPS):
        step(i)
    mlp_train.torch.cuda.synchronize()
    with open("/proc/self/maps", encoding="utf-8") as handle:
        if os.path.basename(opts.library) not in handle.read():
            raise RuntimeError(f"{os.path.basename(opts.library)} not loaded")
    switch = ctypes.CDLL(opts.library).syncscope_light_probe_set
    switch.argtypes = [ctypes.c_int]
    return step, lambda loss: loss.item(), switch


def block(opts, step, readback, start_index):
    """One block: lead-in, readback, STEPS timed steps; (median step in s, next index, loss)."""
    i = start_index
    for _ in range(LEAD_IN):
        step(i)
        i += 1
    readback(step(i))
    i += 1
    times = [0.0] * opts.block
    previous = time.perf_counter()
    for k in range(opts.block):
        loss = step(i)
        i += 1
        now = time.perf_counter()
        times[k] = now - previous
        previous = now
    return statistics.median(times), i, readback(loss)


def main(argv):
    opts = parse(argv)
    if opts is None:
        return 2
    if opts.cpus:
        set_cpus(opts.cpus)
    try:
        step, readback, switch = set_up(opts)
    except RuntimeError as problem:
        print(f"mlp_switch.py: {problem}", file=sys.stderr)
        return 1
    deadline = STARTED + opts.seconds
    names = list(LEVELS)
    steps = {name: [] for name in names}
    i, loss, r = 1000, None, 0
    while r == 0 or time.monotonic() < deadline:
        for k in round_order(len(names), r):
            switch(LEVELS[names[k]])
            median, i, loss = block(opts, step, readback, i)
            steps[names[k]].append(median)
        switch(LEVELS["light"])
        r += 1
        if r % 50 == 0:
            print(f"round {r}: " + ", ".join(f"{n} {steps[n][-1] * 1e6:.1f} us" for n in names),
                  flush=True)
    if not isinstance(loss, float) or loss != loss:
        print(f"mlp_switch.py: the final loss {loss!r} is not a number", file=sys.stderr)
        return 1
    print(f"{r} rounds of {len(names)} blocks of {opts.block} steps, "
          f"{time.monotonic() - STARTED:.0f} s")
    for top, under in RATIOS:
        s = ratio_summary([a / b for a, b in zip(steps[top], steps[under])])
        print(f"bench: switch {top}/{under} step n {s['n']} median {s['median']:.4f} ci95 "
              f"{s['ci95'][0]:.4f} {s['ci95'][1]:.4f} q1 {s['q1']:.4f} q3 {s['q3']:.4f} min "
              f"{s['min']:.4f} max {s['max']:.4f} sum_ratio "
              f"{sum(steps[top]) / sum(steps[under]):.4f}")
    print("bench: switch_us " + " ".join(f"{n} {statistics.median(steps[n]) * 1e6:.2f}"
                                         for n in names) + f" rounds {r}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
