"""mlp_lockstep.py: the modes' cost on the launch-bound MLP of mlp_train.py, measured in
processes that run side by side and take turns, block by block (docs/studies/performance.md,
"Modes", "Lockstep").

Usage: python3 mlp_lockstep.py LIBSYNCSCOPE WORKDIR [--variants "bare light full bare"]
           [--block STEPS (100)] [--seconds T (60)] [--generations G (1)] [--cpus LIST]
           [--pairs "noop/subscribe light/noop"] [--fake] [--dry-run]

Whole processes one after another (bench/overhead/run.sh) and forked children one after
another (mlp_pairs.py) both moved by 10 to 27% between runs of the same variant on the shared
H200, far more than the 2% to be shown, and a run of one variant cannot be told from a slow
period of the machine. Here one process imports PyTorch once, without touching the GPU, and
forks one child per word of --variants, all at once; each child makes its own CUDA context and
trains mlp_train's model through its warm-up, then waits. The parent then runs rounds: in a
round every child in turn trains one block (5 untimed steps after the other contexts' work,
then STEPS timed steps ending with the loss readback, mlp_train's logging pattern), while the
others wait on a pipe; every other round runs them in the reverse order of the one before
(ABBA), and each such pair of rounds starts one child later, so that over 2 x children rounds
every child takes every place twice. The machine's slow and fast periods
then fall on every variant alike, and each round gives one ratio per variant to the first
bare child, taken seconds apart. No round starts after T seconds from the start (the import of
PyTorch and the children's set-up included), each generation having an equal share.

Variants: bare (nothing set), light (SYNCSCOPE_MODE=light), sampled (SYNCSCOPE_SAMPLE=5s/120s:
light, and a full window of 5 s every 120 s of the child's life), full (the default mode),
each observed child loading LIBSYNCSCOPE through CUDA_INJECTION64_PATH at cuInit; and the
light mode's cost taken apart with the measurement aid SYNCSCOPE_LIGHT_PROBE (docs/run.md):
load (the library injected and CUPTI loaded, never subscribed), subscribe (subscribed, no
callback enabled), noop (light's callbacks enabled, returning at once), noop_runtime and
noop_driver (only the runtime's or the driver's of them); these record nothing. A second
bare child is the control: bare/bare, which differs from 1 only by what separates two CUDA
contexts of one program (where the allocator placed the tensors, the context's own state), is
the least difference this measure can tell; a variant's ratio says something only outside it.
With --generations G the children are made G times afresh, so that the per-context difference
is sampled too.

Checked: every child's final loss equals the first's (the run is deterministic and every
child trains the same steps), an observed child has LIBSYNCSCOPE in its memory map and leaves
its result (SYNCSCOPE_OUTPUT, written by its finisher at exit; a probe's child has the library
and leaves none), a bare child has not.

--fake runs the same protocol with a pure-Python busy loop in place of the MLP (no PyTorch,
no GPU; the variants only label the children), to check the protocol and the statistics;
--fake-cost F makes every child but the bare ones loop F times as long (a known cost that the
measure must find).

--dry-run prints each child's tag and the environment it would set ('child TAG: NAME=VALUE
...', sorted; 'child TAG: -' for a bare child) and exits without starting any.

Each block is measured three ways: 'block', its wall time (the readback included); 'step',
the median of its steps' wall times (the host's time per step in the steady state, which a
stall of the machine during a few steps does not move); 'cpu', the child's CPU time over the
block (all its threads). Prints one line per round and, per measure and variant other than
the first bare child,

  bench: lockstep VARIANT/bare MEASURE n N median RATIO ci95 LO HI q1 Q1 q3 Q3 min MIN
         max MAX sum_ratio S target T VERDICT

and per pair A/B of --pairs (two variants of --variants, neither bare) the same line 'bench:
lockstep A/B MEASURE ...' of A's measure over B's in each round (target '-'): one step of the
light mode's cost taken apart, paired within the rounds;

RATIO the median over the rounds of the variant's measure over the first bare child's in the
same round, LO..HI a bootstrap 95% interval of that median, S the ratio of their sums,
VERDICT 'shown', 'refuted' or 'not resolved' against the target (1.02 for light and sampled;
'control' for the second bare child against the first); a variant with several children (e.g.
"bare light bare light") is taken as the mean of its children in each round against the mean
of the bare children, so that what one context differs by from another is averaged; then per
child 'bench: lockstep_ms VARIANT block MS step_us US cpu MS blocks N steps S' (medians).
Exit status 0, 1 when a child failed or a check did not hold, 2 on usage errors.
"""
import argparse
import json
import os
import statistics
import sys
import time
import traceback

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from pairstats import parse_cpus, ratio_summary, resolves  # noqa: E402

VARIANTS = {"bare": {}, "light": {"SYNCSCOPE_MODE": "light"},
            "sampled": {"SYNCSCOPE_SAMPLE": "5s/120s"}, "full": {}}
PROBES = ("load", "subscribe", "noop", "noop_runtime", "noop_driver")
VARIANTS.update({probe: {"SYNCSCOPE_MODE": "light", "SYNCSCOPE_LIGHT_PROBE": probe}
                 for probe in PROBES})
TARGET = {"light": 1.02, "sampled": 1.02}
LEAD_IN = 5  # untimed steps at the start of a block: the GPU switches from another context
STARTED = time.monotonic()  # --seconds counts from here: the import of PyTorch included


class FakeStep:
    """--fake: a 'step' is a short pure-Python loop (scaled by 'cost'); the 'loss' is a
    deterministic number."""

    def __init__(self, cost):
        self.value = self.burnt = 0
        self.loops = int(2000 * cost)

    def __call__(self, i):
        total = 0
        for k in range(self.loops):
            total += (k * (i + 1)) % 7
        self.burnt = total
        self.value = i  # the step's number: the same steps give the same 'loss'
        return self


def make_child_step(fake, cost):
    """(step(i), readback(loss) -> float, checksum(float) -> int, warm_up())."""
    if fake:
        step = FakeStep(cost)
        return step, lambda loss: float(loss.value), int, lambda: [step(i) for i in range(5)]
    import mlp_train  # imports torch; only the child touches CUDA
    step = mlp_train.make_step()

    def warm_up():
        for i in range(mlp_train.WARMUP_STEPS):
            step(i)
        mlp_train.torch.cuda.synchronize()

    return step, lambda loss: loss.item(), mlp_train.checksum, warm_up


def child_environment(variant, opts, output):
    """The variables a child of 'variant' sets before its first CUDA call (none when bare or
    --fake)."""
    if variant == "bare" or opts.fake:
        return {}
    env = {"CUDA_INJECTION64_PATH": opts.library, "SYNCSCOPE_OUTPUT": output,
           "SYNCSCOPE_QUIET": "1", "SYNCSCOPE_SYMBOL_CACHE": os.path.join(opts.workdir, "cache")}
    env.update(VARIANTS[variant])
    return env


def child_main(variant, opts, output, commands, results):
    """The forked child: sets its variant's environment before any CUDA call, warms up, says
    'ready', then trains one block per 'run' line and reports its time, until 'stop'."""
    os.environ.update(child_environment(variant, opts, output))
    cost = opts.fake_cost if variant != "bare" else 1.0
    step, readback, checksum, warm_up = make_child_step(opts.fake, cost)
    warm_up()
    reader = os.fdopen(commands, "r")

    def send(record):
        os.write(results, (json.dumps(record) + "\n").encode())

    send({"ready": True})
    i = 1000  # past the warm-up's batches
    last = None
    for line in reader:
        if line.strip() != "run":
            break
        for _ in range(LEAD_IN):
            step(i)
            i += 1
        readback(step(i))
        i += 1
        steps = [0.0] * opts.block  # allocated before the timing
        cpu = time.process_time()
        start = previous = time.perf_counter()
        for k in range(opts.block):
            loss = step(i)
            i += 1
            now = time.perf_counter()
            steps[k] = now - previous
            previous = now
        last = readback(loss)
        end = time.perf_counter()
        send({"block": (end - start) * 1e3, "step": statistics.median(steps) * 1e6,
              "cpu": (time.process_time() - cpu) * 1e3})
    with open("/proc/self/maps", encoding="utf-8") as handle:
        loaded = os.path.basename(opts.library) in handle.read()
    send({"check": checksum(last) if last is not None else None, "loaded": loaded})
    os.close(results)
    sys.exit(0)  # a normal exit: an observed child's finisher writes its result


def child_tag(variant, index, generation):
    return f"g{generation}-{index}-{variant}"


class Child:
    """The parent's side of one forked child."""

    def __init__(self, variant, index, opts, generation, main=child_main):
        """Forks the child, which runs main(variant, opts, output, commands, results)
        (child_main, or another workload's, e.g. real_lockstep.py's)."""
        self.variant = variant
        self.tag = child_tag(variant, index, generation)
        self.output = os.path.join(opts.workdir, f"{self.tag}.json")
        down_r, down_w = os.pipe()
        up_r, up_w = os.pipe()
        sys.stdout.flush()
        self.pid = os.fork()
        if self.pid == 0:
            os.close(down_w)
            os.close(up_r)
            try:
                main(variant, opts, self.output, down_r, up_w)
            except SystemExit:
                raise
            except BaseException:  # never back into the parent's loop
                traceback.print_exc()
                os._exit(1)
        os.close(down_r)
        os.close(up_w)
        self.commands = down_w
        self.results = os.fdopen(up_r, "r")

    def ask(self, command):
        os.write(self.commands, (command + "\n").encode())

    def answer(self):
        line = self.results.readline()
        if not line:
            raise RuntimeError(f"{self.tag}: the child ended without an answer")
        return json.loads(line)

    def finish(self):
        """Stops the child; returns its last record (check, loaded) after it exited 0."""
        self.ask("stop")
        os.close(self.commands)
        record = self.answer()
        _, status = os.waitpid(self.pid, 0)
        code = os.waitstatus_to_exitcode(status)
        if code != 0:
            raise RuntimeError(f"{self.tag}: the child exited {code}")
        return record

    def kill(self):
        try:
            os.kill(self.pid, 9)
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass


def round_order(count, r):
    """The children's order in round r: rounds go in pairs, the second the first reversed
    (ABBA), and each pair is rotated by one more: over 2 * count rounds every child takes every
    place twice."""
    order = [(k + r // 2) % count for k in range(count)]
    return order if r % 2 == 0 else order[::-1]


def run_generation(opts, generation, deadline, times):
    """Forks the children, runs rounds until 'deadline' (time.monotonic) and stops them;
    appends each child's block measures to times[index]; returns the final checks."""
    children = []
    try:
        for index, variant in enumerate(opts.variants):
            children.append(Child(variant, index, opts, generation))
        for child in children:
            if not child.answer().get("ready"):
                raise RuntimeError(f"{child.tag}: no 'ready'")
        r = 0
        while r == 0 or time.monotonic() < deadline:
            got = {}
            for k in round_order(len(children), r):
                children[k].ask("run")
                got[k] = children[k].answer()
            for k, measures in got.items():
                times[k].append(measures)
            r += 1
            ref = got[opts.variants.index("bare")]
            print(f"generation {generation} round {r}: " + ", ".join(
                f"{children[k].variant} {got[k]['block']:.1f} ms "
                f"({got[k]['block'] / ref['block']:.4f}), step {got[k]['step']:.1f} us "
                f"({got[k]['step'] / ref['step']:.4f})" for k in range(len(children))),
                flush=True)
        finals = []
        for child in children:
            record = child.finish()
            observed = child.variant != "bare" and not opts.fake
            if not opts.fake and record["loaded"] != observed:
                raise RuntimeError(f"{child.tag}: {os.path.basename(opts.library)} "
                                   f"{'not ' if observed else ''}loaded")
            result = os.path.isfile(child.output)
            if observed and child.variant not in PROBES and not result:
                raise RuntimeError(f"{child.tag}: left no result {child.output} (not observed?)")
            if child.variant in PROBES and result:
                raise RuntimeError(f"{child.tag}: a probe left a result {child.output}")
            finals.append((child.tag, record["check"]))
        return finals
    except BaseException:
        for child in children:
            child.kill()
        raise


MEASURES = ("block", "step", "cpu")


def summarize(opts, times, label="lockstep", targets=None):
    """The 'bench: LABEL' lines (targets: variant -> target ratio, TARGET by default), per
    measure (block: the block's wall time, readback included; step:
    the median step's wall time in the block; cpu: the child's CPU time over the block, all
    its threads): each variant against bare, a round's ratio being the mean of the variant's
    children over the mean of the bare children in that round; and the control, the second
    bare child over the first."""
    targets = TARGET if targets is None else targets
    lines = []
    bare = [k for k, v in enumerate(opts.variants) if v == "bare"]
    others = [v for k, v in enumerate(opts.variants) if v != "bare" and
              opts.variants.index(v) == k]
    rounds = range(len(times[bare[0]]))

    def mean(children, r, measure):
        return statistics.fmean(times[k][r][measure] for k in children)

    for measure in MEASURES:
        pairs = [(v, [k for k, w in enumerate(opts.variants) if w == v], bare) for v in others]
        if len(bare) > 1:
            pairs.append(("bare", [bare[1]], [bare[0]]))
        for top, under in opts.pairs:
            pairs.append((f"{top}/{under}", [k for k, w in enumerate(opts.variants) if w == top],
                          [k for k, w in enumerate(opts.variants) if w == under]))
        for variant, mine, ref in pairs:
            num = [mean(mine, r, measure) for r in rounds]
            den = [mean(ref, r, measure) for r in rounds]
            s = ratio_summary([a / b for a, b in zip(num, den)])
            target = targets.get(variant)
            verdict = resolves(s, target) if target else "control" if variant == "bare" else "-"
            name = variant if "/" in variant else f"{variant}/bare"
            lines.append(
                f"bench: {label} {name} {measure} n {s['n']} median {s['median']:.4f} "
                f"ci95 {s['ci95'][0]:.4f} {s['ci95'][1]:.4f} q1 {s['q1']:.4f} q3 {s['q3']:.4f} "
                f"min {s['min']:.4f} max {s['max']:.4f} sum_ratio {sum(num) / sum(den):.4f} "
                f"children {len(mine)}/{len(ref)} target {target if target else '-'} {verdict}")
    for k, variant in enumerate(opts.variants):
        medians = {m: statistics.median(t[m] for t in times[k]) for m in MEASURES}
        lines.append(f"bench: {label}_ms {variant} block {medians['block']:.2f} step_us "
                     f"{medians['step']:.2f} cpu {medians['cpu']:.2f} blocks {len(times[k])} "
                     f"steps {opts.block}")
    return lines


def parse(argv):
    parser = argparse.ArgumentParser(prog="mlp_lockstep.py")
    parser.add_argument("library")
    parser.add_argument("workdir")
    parser.add_argument("--variants", default="bare light full bare")
    parser.add_argument("--block", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--generations", type=int, default=1)
    parser.add_argument("--cpus", default="")
    parser.add_argument("--fake", action="store_true")
    parser.add_argument("--fake-cost", type=float, default=1.0)
    parser.add_argument("--dry-run", action="store_true")
    parser.add_argument("--pairs", default="")
    try:
        opts = parser.parse_args(argv[1:])
    except SystemExit:
        return None
    opts.variants = opts.variants.split()
    opts.pairs = [tuple(pair.split("/")) for pair in opts.pairs.split()]
    bad = [v for v in opts.variants if v not in VARIANTS]
    bad_pairs = [p for p in opts.pairs if len(p) != 2 or "bare" in p or p[0] == p[1] or
                 not set(p) <= set(opts.variants)]
    problem = None
    if bad:
        problem = f"unknown variant '{bad[0]}' (one of {', '.join(VARIANTS)})"
    elif bad_pairs:
        problem = (f"--pairs: '{'/'.join(bad_pairs[0])}' is not A/B, two other variants of "
                   "--variants than bare")
    elif "bare" not in opts.variants or len(opts.variants) < 2:
        problem = "--variants needs a bare child and at least one other"
    elif min(opts.block, opts.seconds, opts.generations, opts.fake_cost) <= 0:
        problem = "--block, --seconds, --generations and --fake-cost must be positive"
    return checked_options(opts, problem, "mlp_lockstep.py")


def checked_options(opts, problem, prog):
    """opts with absolute paths, or None after printing 'prog: problem' (a usage error; also
    when the library is missing outside --fake). Shared with real_lockstep.py."""
    if problem is None and not opts.fake and not os.path.isfile(opts.library):
        problem = f"{opts.library}: no such file"
    if problem:
        print(f"{prog}: {problem}", file=sys.stderr)
        return None
    opts.library = os.path.abspath(opts.library)
    opts.workdir = os.path.abspath(opts.workdir)
    return opts


def set_cpus(text):
    os.sched_setaffinity(0, parse_cpus(text))


def main(argv):
    opts = parse(argv)
    if opts is None:
        return 2
    if opts.dry_run:
        for generation in range(opts.generations):
            for index, variant in enumerate(opts.variants):
                tag = child_tag(variant, index, generation)
                env = child_environment(variant, opts, os.path.join(opts.workdir, f"{tag}.json"))
                print(f"child {tag}: " + (" ".join(f"{k}={v}" for k, v in sorted(env.items()))
                                          or "-"))
        return 0
    if opts.cpus:
        set_cpus(opts.cpus)
    os.makedirs(os.path.join(opts.workdir, "cache"), exist_ok=True)
    if not opts.fake:
        import mlp_train  # torch, once, before the forks; no CUDA call in the parent
        if mlp_train.torch.cuda.is_initialized():
            print("mlp_lockstep.py: CUDA was initialized before the fork", file=sys.stderr)
            return 1
    times = [[] for _ in opts.variants]
    status = 0
    for generation in range(opts.generations):
        check = None  # the children of one generation train the same steps
        try:
            deadline = STARTED + (generation + 1) * opts.seconds / opts.generations
            finals = run_generation(opts, generation, deadline, times)
        except RuntimeError as problem:
            print(f"mlp_lockstep.py: {problem}", file=sys.stderr)
            status = 1
            break
        for tag, value in finals:
            check = value if check is None else check
            if value != check:
                print(f"mlp_lockstep.py: {tag}: final loss bits {value}, the first child's "
                      f"{check}", file=sys.stderr)
                status = 1
    if not times[0]:
        print("mlp_lockstep.py: no round ran", file=sys.stderr)
        return 1
    print(f"{len(times[0])} rounds of {len(opts.variants)} blocks of {opts.block} steps in "
          f"{opts.generations} generation(s), {time.monotonic() - STARTED:.0f} s")
    for line in summarize(opts, times):
        print(line, flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
