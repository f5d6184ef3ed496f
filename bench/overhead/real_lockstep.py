"""real_lockstep.py: what the light mode costs a real workload's whole process, taken apart
into what it adds once and what it adds per iteration, each measured side by side
(docs/studies/performance.md, "Modes", "Real workloads in lockstep").

Usage: python3 real_lockstep.py LIBSYNCSCOPE WORKDIR --workload resnet|generate|fake
           [--variants "bare light bare light"] [--pairs "light/noop ..."] [--block N]
           [--seconds T (100)]
           [--generations G (5)] [--whole-runs N (0)] [--whole-bare S] [--cpus LIST]
           [--timing] [--fake-cost F]

A whole process of tests/gpu/real/resnet_train.py or gpt2_generate.py moves by seconds between
runs (its import of PyTorch), so whole processes in pairs cannot resolve 1%. Here one process
imports the workload's modules once, without touching the GPU, and forks one child per word of
--variants (a light child sets CUDA_INJECTION64_PATH=LIBSYNCSCOPE and SYNCSCOPE_MODE=light
before its first CUDA call, as bench/overhead/mlp_lockstep.py's children do), one at a time in
an order that turns by one child each generation. Each child, alone on the machine but for
the others' idle contexts, times the parts of the workload that run once:

  init      torch.cuda.init(): cuInit, where the driver loads syncscope and CUPTI and a light
            child subscribes
  setup     the workload's set-up as its script does it: the dataset and DataLoader, or the
            config; the model built and copied to the GPU (the context, the allocations, the
            parameters' copies), the optimizer
  first     its first iteration (a training step with its two readbacks, or one generate()
            call): cuBLAS and cuDNN start, the kernels' modules load, the DataLoader's
            workers start
  rest      the rest of the script's iterations (resnet_train.py's 8 steps, gpt2_generate.py's
            4 calls): the script's own length
  teardown  after the rounds, the DataLoader's shutdown (joining its workers)
  exit      timed by the parent, from the child's last word to its reaping: the interpreter's
            exit, CUDA's teardown, a light child's finisher writing its result

Between setting up and tearing down, the children run in lockstep as mlp_lockstep.py's do
(its Child, round_order and summarize): rounds in which every child in turn runs one block of
--block iterations (after LEAD_IN untimed iterations and a readback) while the others wait;
ABBA order, turning by one child every pair of rounds; no round starts after the generation's
share of T seconds (the import counted). The iterations continue the same stream (the
DataLoader's next batches, the next prompts) for every child alike.

--variants may also name SYNCSCOPE_LIGHT_PROBE's stops (load, subscribe, noop, noop_runtime,
noop_driver: docs/run.md; a probe's child loads the library and leaves no result), each
against bare like light, and --pairs "A/B ..." adds A's ratio to B paired within the rounds
(e.g. light/noop: syncscope's own work in its callbacks), as mlp_lockstep.py does.

Printed, besides a line per child and per round:

  bench: reallock NAME light/bare MEASURE n N median R ci95 LO HI ... target 1.01 VERDICT
      per iteration (MEASURE block, step, cpu): the median over the rounds of the mean light
      child's block over the mean bare child's, as mlp_lockstep.py prints it; bare/bare the
      control; per other variant V the same 'V/bare' line, per pair 'A/B'
  bench: reallock NAME once PHASE light-bare n N added_ms D ci95 LO HI bare_ms B light_ms L
      per phase, and 'once' (init + setup + first + teardown + exit) and 'natural' (all six,
      the script's whole CUDA part and exit at its own length): the median over the pairs
      (the k-th light child of a generation against its k-th bare child) of the difference,
      with a bootstrap 95% interval; 'bare-bare' lines the same for the second bare child
      against the first (the control: what separates two children of one mode), 'V-bare'
      lines for each probe variant V
  bench: reallock NAME finisher light n N median_ms M ci95 LO HI min A max B
      with --timing (SYNCSCOPE_TIMING=1 in the light children): their finishers' own time
      (the exit timing line's total, read from the child's standard error), to set beside
      the exit's difference; and where the interposer prints it, 'bench: reallock NAME
      callbacks light n N per_iteration callbacks C own_us O stacks S [unwound W] unwind_us U
      python_us P [kinds_us K probes_us Q [questions A nested D]] iterations I': the capture's
      own time in its callbacks
      (of it, K and Q the light mode's questions to the driver, SYNCSCOPE_TIMING's light line:
      the memory kinds and the pending work, where the interposer prints it; A the streams
      asked, cuStreamQuery; D the driver callbacks CUPTI made inside runtime calls, not in that
      time; SYNCSCOPE_TIMING's callback
      timing line) over the child's iterations (set-up included), medians over the children
  bench: reallock NAME whole bare_s W runs N
      the bare whole process (python3 SCRIPT, import and exit included), --whole-runs runs
      after the generations, on the same CPUs (or --whole-bare S, given)
  bench: reallock NAME figure per_iteration F ci95 LO HI target 1.01 VERDICT
      F = (W + D_once + (r - 1) * L_rest) / W: W the bare whole process (median), D_once the
      median of the pairs' 'once' differences, r the per-iteration block ratio (median of the
      rounds), L_rest the bare children's median 'rest' (the script's iterations after the
      first); the interval from 2,000 joint resamples of the pairs and the rounds (W fixed)
  bench: reallock NAME figure natural F ci95 LO HI target 1.01 VERDICT
      F = (W + D_natural) / W: the script's own iterations measured in the pairs, not scaled
      from the rounds

What neither figure holds: the interpreter's start and the import, where no CUDA call is made
and, on this path (the library loaded at cuInit), no syncscope code runs; under LD_PRELOAD
(`syncscope run --mode light`) the library's constructor runs at the start and names syncscope
the NVTX tool.

Checked: every child of a generation ends on the same check (resnet: the images trained on;
generate: the CRC of the last generated ids, greedy decoding of the same prompts), an observed
child has LIBSYNCSCOPE in its memory map and leaves its result, a bare child has not.
--fake runs the protocol with pure-Python busy loops in place of the workload (no PyTorch, no
GPU), --fake-cost F making a non-bare child's every phase and iteration F times as long.
Exit status 0, 1 when a child failed or a check did not hold (what ran is still summarized), 2
on usage errors.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
import zlib

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import mlp_lockstep  # noqa: E402
from pairstats import (SEED, bootstrap_median, bootstrap_medians, parse_cpus,  # noqa: E402
                       quantile, resolves)

STARTED = time.monotonic()  # --seconds counts from here: the import included
TARGET = 1.01
PHASES = ("init", "setup", "first", "rest", "teardown", "exit")
SUMS = {"once": ("init", "setup", "first", "teardown", "exit"), "natural": PHASES}


class Fake:
    """--fake: busy loops in place of the workload's parts, 'cost' times as long."""
    script = None
    natural, lead_in, block = 4, 1, 5
    preimport = ()

    def __init__(self, cost):
        self.loops = int(3000 * cost)
        self.count = 0

    def burn(self, times):
        total = 0
        for k in range(self.loops * times):
            total += k % 7
        return total

    def init(self):
        self.burn(10)

    def setup(self):
        self.burn(20)

    def step(self, i):
        self.burn(1)
        self.count += 1
        return i

    def readback(self, value):
        return float(value)

    def check(self, value):
        return self.count

    def teardown(self):
        self.burn(2)
        if os.environ.get("SYNCSCOPE_TIMING") == "1":  # as the finisher would at the exit
            print("syncscope: callback timing: 200 callbacks, own time 4.0 ms (20.00 us each; "
                  "1 threads' registration 0.1 ms); 100 stacks (25 unwound whole, the others "
                  "found in the site cache): unwinding 2.0 ms, Python frames 1.0 ms\n"
                  "syncscope: light timing: memory kinds asked at 50 calls, 0.5 ms; pending "
                  "work looked for at 100 calls, entry and exit, 1.5 ms\n"
                  "syncscope: exit timing: symbolize 1.0 ms (...), total 12.5 ms",
                  file=sys.stderr, flush=True)


class Resnet:
    """resnet_train.py's loop: ResNet-18, SGD with momentum, FakeData 64x64 through a DataLoader
    with two workers, batches of 16, the loss and the accuracy read back every step; the
    dataset long enough for the whole run."""
    script = "tests/gpu/real/resnet_train.py"
    natural, lead_in, block = 8, 3, 25
    preimport = ("torch", "torchvision")

    def __init__(self, cost):
        import torch
        self.torch = torch
        self.seen = 0
        self.batches = None

    def init(self):
        self.torch.cuda.init()

    def setup(self):
        import torchvision
        from torch.utils.data import DataLoader
        torch = self.torch
        torch.manual_seed(0)
        self.dev = torch.device("cuda")
        data = torchvision.datasets.FakeData(size=16 * 200000, image_size=(3, 64, 64),
                                             num_classes=10,
                                             transform=torchvision.transforms.ToTensor())
        self.loader = DataLoader(data, batch_size=16, shuffle=False, num_workers=2)
        self.model = torchvision.models.resnet18(num_classes=10).to(self.dev)
        self.opt = torch.optim.SGD(self.model.parameters(), lr=0.01, momentum=0.9)
        self.loss_fn = torch.nn.CrossEntropyLoss()
        self.model.train()

    def step(self, i):
        if self.batches is None:
            self.batches = iter(self.loader)  # the workers start
        x, y = next(self.batches)
        x = x.to(self.dev, non_blocking=True)
        y = y.to(self.dev)
        self.opt.zero_grad()
        out = self.model(x)
        loss = self.loss_fn(out, y)
        loss.backward()
        self.opt.step()
        running = loss.item()
        pred = out.argmax(dim=1)
        correct = (pred == y).sum().item()
        self.seen += y.numel()
        del correct
        return running

    def readback(self, value):
        return value

    def check(self, value):
        return self.seen

    def teardown(self):
        self.batches = None  # the iterator's __del__ shuts the workers down


class Generate:
    """gpt2_generate.py's loop: a 2-layer GPT-2 from a GPT2Config (random weights), greedy
    generate() of 16 new tokens for two prompts of 12 ids, the next prompts each call."""
    script = "tests/gpu/real/gpt2_generate.py"
    natural, lead_in, block = 4, 1, 4
    preimport = ("torch", "transformers", "transformers.models.gpt2.modeling_gpt2",
                 "transformers.generation.utils")

    def __init__(self, cost):
        import torch
        self.torch = torch

    def init(self):
        self.torch.cuda.init()

    def setup(self):
        from gpt2_model import tiny_gpt2
        torch = self.torch
        torch.manual_seed(0)
        self.dev = torch.device("cuda")
        self.model = tiny_gpt2(self.dev)
        self.generator = torch.Generator().manual_seed(1)

    def step(self, i):
        torch = self.torch
        with torch.no_grad():
            ids = torch.randint(0, 998, (2, 12), generator=self.generator).to(self.dev)
            mask = torch.ones_like(ids)
            return self.model.generate(ids, attention_mask=mask, max_new_tokens=16,
                                       do_sample=False, min_new_tokens=16)

    def readback(self, value):
        return value[0, -1].item()

    def check(self, value):
        return zlib.crc32(value.cpu().numpy().tobytes())

    def teardown(self):
        pass


class Item:
    """The smallest loop of light calls: one in-place add on a one-value tensor and its
    .item() (a launch, a 4-byte cudaMemcpyAsync to the host and the stream's
    synchronization, with the driver calls the runtime makes inside them) per iteration, so
    that a light call's cost is a large part of an iteration (real_switch.py's wrappers' levels
    against CUPTI's callbacks)."""
    script = None
    natural, lead_in, block = 200, 20, 400
    preimport = ("torch",)

    def __init__(self, cost):
        import torch
        self.torch = torch

    def init(self):
        self.torch.cuda.init()

    def setup(self):
        self.value = self.torch.zeros(1, device="cuda")

    def step(self, i):
        self.value.add_(1)
        return self.value.item()

    def readback(self, value):
        return value

    def check(self, value):
        return value

    def teardown(self):
        pass


WORKLOADS = {"fake": Fake, "resnet": Resnet, "generate": Generate, "item": Item}


def timed(function):
    start = time.perf_counter()
    function()
    return (time.perf_counter() - start) * 1e3


def child_main(variant, opts, output, commands, results):
    """The forked child: its variant's environment, the parts that run once timed, 'ready';
    then one block per 'run'; on 'stop' the teardown, its last word, and a normal exit (an
    observed child's finisher writes its result)."""
    os.environ.update(mlp_lockstep.child_environment(variant, opts, output))
    if opts.timing and variant == "light":
        os.environ["SYNCSCOPE_TIMING"] = "1"  # the finisher's own time, one line at exit
    err = os.open(output[:-len(".json")] + ".err", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(err, 2)  # the workload's warnings, one file per child
    os.close(err)
    work = WORKLOADS[opts.workload](opts.fake_cost if variant != "bare" else 1.0)

    def send(record):
        os.write(results, (json.dumps(record) + "\n").encode())

    phases = {"init": timed(work.init), "setup": timed(work.setup)}
    state = {"i": 0, "last": None}

    def iterations(count):
        for _ in range(count):
            state["last"] = work.step(state["i"])
            state["i"] += 1
        work.readback(state["last"])

    phases["first"] = timed(lambda: iterations(1))
    phases["rest"] = timed(lambda: iterations(work.natural - 1))
    send({"ready": True, "phases": phases})
    block = opts.block
    for line in os.fdopen(commands, "r"):
        if line.strip() != "run":
            break
        iterations(work.lead_in)
        steps = [0.0] * block  # allocated before the timing
        cpu = time.process_time()
        start = previous = time.perf_counter()
        for k in range(block):
            state["last"] = work.step(state["i"])
            state["i"] += 1
            now = time.perf_counter()
            steps[k] = now - previous
            previous = now
        work.readback(state["last"])
        end = time.perf_counter()
        send({"block": (end - start) * 1e3, "step": statistics.median(steps) * 1e6,
              "cpu": (time.process_time() - cpu) * 1e3})
    check = work.check(state["last"])
    teardown = timed(work.teardown)
    with open("/proc/self/maps", encoding="utf-8") as handle:
        loaded = os.path.basename(opts.library) in handle.read()
    send({"check": check, "loaded": loaded, "teardown": teardown, "iterations": state["i"]})
    os.close(results)
    sys.exit(0)


def observed_problem(child, opts, loaded):
    """Why a child's observation is wrong (None when it is right): a light child has the
    library and leaves its result, a bare child neither."""
    if opts.fake:
        return None
    observed = child.variant != "bare"
    if loaded != observed:
        return f"{os.path.basename(opts.library)} {'not ' if observed else ''}loaded"
    if os.path.isfile(child.output) != (child.variant == "light"):
        return "left no result (not observed?)" if child.variant == "light" else \
            f"a {child.variant} child left a result"
    return None


def stop(child, opts):
    """Stops a child that said 'ready'; returns its last record and its exit's time (ms: from
    its last word to its reaping), or raises RuntimeError when it failed or was observed
    wrongly."""
    child.ask("stop")
    os.close(child.commands)
    record = child.answer()
    said = time.perf_counter()
    _, status = os.waitpid(child.pid, 0)
    exit_ms = (time.perf_counter() - said) * 1e3
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise RuntimeError(f"{child.tag}: the child exited {code}")
    problem = observed_problem(child, opts, record["loaded"])
    if problem:
        raise RuntimeError(f"{child.tag}: {problem}")
    if opts.timing and child.variant == "light":
        with open(child.output[:-len(".json")] + ".err", encoding="utf-8",
                  errors="replace") as handle:
            text = handle.read()
        said = re.findall(r"^syncscope: exit timing: .* total ([0-9.]+) ms$", text, re.M)
        if len(said) != 1:
            raise RuntimeError(f"{child.tag}: {len(said)} exit timing lines, not 1")
        record["finisher"] = float(said[0])
        callbacks = re.search(CALLBACK_TIMING, text, re.M)
        if callbacks:  # the capture's own time (an interposer that prints it)
            record["callbacks"] = {name: float(value) for name, value in
                                   zip(CALLBACK_FIELDS, callbacks.groups()) if value is not None}
            light = re.search(LIGHT_TIMING, text, re.M)
            if light:
                record["callbacks"].update((name, float(value)) for name, value in
                                           zip(LIGHT_FIELDS, light.groups())
                                           if value is not None)
    return record, exit_ms


# SYNCSCOPE_TIMING's line of the capture's own time in its callbacks, at the exit
# (and, since the site cache, how many stacks were unwound whole)
CALLBACK_TIMING = (r"^syncscope: callback timing: (\d+) callbacks, own time ([0-9.]+) ms .*; "
                   r"(\d+) stacks(?: \((\d+) unwound whole[^)]*\))?: unwinding ([0-9.]+) ms, "
                   r"Python frames ([0-9.]+) ms$")
CALLBACK_FIELDS = ("callbacks", "own_ms", "stacks", "unwound", "unwind_ms", "python_ms")
# The light mode's questions to the driver, of that own time (since 2026-12-03)
# (and since 2026-12-03 09:00 the streams asked, cuStreamQuery, and the driver callbacks CUPTI
# made inside runtime calls)
LIGHT_TIMING = (r"^syncscope: light timing: memory kinds asked at \d+ calls, ([0-9.]+) ms; "
                r"pending work looked for at \d+ calls, entry and exit, ([0-9.]+) ms"
                r"(?: \((\d+) streams asked\); (\d+) driver callbacks inside runtime calls)?$")
LIGHT_FIELDS = ("kinds_ms", "probes_ms", "questions", "nested")


def warm_up(opts):
    """One discarded bare child and one light child, set up and stopped (no round): the
    first child to load the CUDA libraries reads them from disk, the first light child's
    finisher fills the symbol cache."""
    parent = os.getpid()
    for variant in ("bare", "light"):
        child = mlp_lockstep.Child(variant, 9, opts, "warm", main=child_main)
        try:
            ready = child.answer()
            _, exit_ms = stop(child, opts)
        except BaseException:
            if os.getpid() == parent:
                child.kill()
            raise
        print(f"warm-up {child.tag}: " + ", ".join(
            f"{p} {ready['phases'][p]:.1f} ms" for p in PHASES[:4]) + f", exit {exit_ms:.1f} ms",
            flush=True)


def run_generation(opts, generation, deadline, times, once):
    """Forks the children one at a time (each set up alone), runs rounds until 'deadline',
    stops them one at a time; appends each child's blocks to times[k] and its phases to
    once[k]; returns the children's final checks."""
    parent = os.getpid()
    count = len(opts.variants)
    order = mlp_lockstep.round_order(count, 2 * generation)  # turns by one each generation
    children = [None] * count
    phases = [None] * count
    try:
        for k in order:
            children[k] = mlp_lockstep.Child(opts.variants[k], k, opts, generation,
                                             main=child_main)
            ready = children[k].answer()
            if not ready.get("ready"):
                raise RuntimeError(f"{children[k].tag}: no 'ready'")
            phases[k] = ready["phases"]
            print(f"generation {generation} set up {children[k].tag}", flush=True)
        r = 0
        while r == 0 or time.monotonic() < deadline:
            got = {}
            for k in mlp_lockstep.round_order(count, r):
                children[k].ask("run")
                got[k] = children[k].answer()
            for k, measures in got.items():
                times[k].append(measures)
            r += 1
            print(f"generation {generation} round {r}: " + ", ".join(
                f"{children[k].tag} {got[k]['block']:.1f} ms" for k in range(count)), flush=True)
        checks = {}
        for k in order[::-1]:
            record, phases[k]["exit"] = stop(children[k], opts)
            phases[k]["teardown"] = record["teardown"]
            for key in ("finisher", "callbacks"):
                if key in record:
                    phases[k][key] = record[key]
            phases[k]["iterations"] = record["iterations"]
            checks[children[k].tag] = record["check"]
        for k in range(count):
            once[k].append(phases[k])
            print(f"generation {generation} {children[k].tag}: " + ", ".join(
                f"{p} {phases[k][p]:.1f} ms" for p in PHASES), flush=True)
        return checks
    except BaseException:
        if os.getpid() == parent:  # not a child's own exit passing through
            for child in children:
                if child is not None:
                    child.kill()
        raise


def phase_sum(phases, name):
    return sum(phases[p] for p in SUMS.get(name, (name,)))


def once_differences(opts, once, name, top="light"):
    """The paired differences (ms) of one phase or sum: in each generation the k-th child of
    'top' against the k-th bare child (top 'bare': the second bare child against the first)."""
    bare = [k for k, v in enumerate(opts.variants) if v == "bare"]
    mine = bare[1:] if top == "bare" else [k for k, v in enumerate(opts.variants) if v == top]
    pairs = list(zip(mine, bare))
    return [phase_sum(once[a][g], name) - phase_sum(once[b][g], name)
            for g in range(len(once[bare[0]])) for a, b in pairs], pairs


def once_lines(opts, once):
    lines = []
    tops = [v for k, v in enumerate(opts.variants) if v != "bare" and
            opts.variants.index(v) == k] + ["bare"]
    for top, word in ((v, f"{v}-bare") for v in tops):
        for name in PHASES + tuple(SUMS):
            diffs, pairs = once_differences(opts, once, name, top)
            if not diffs:
                continue
            low, high = bootstrap_median(diffs)
            sides = [statistics.median([phase_sum(once[k][g], name) for k in ks
                                        for g in range(len(once[k]))]) for ks in zip(*pairs)]
            lines.append(f"bench: reallock {opts.workload} once {name} {word} n {len(diffs)} "
                         f"added_ms {statistics.median(diffs):.1f} ci95 {low:.1f} {high:.1f} "
                         f"bare_ms {sides[1]:.1f} {'second' if top == 'bare' else top}_ms "
                         f"{sides[0]:.1f}")
    return lines


def finisher_line(opts, once):
    """With --timing: the light children's finishers' own time (SYNCSCOPE_TIMING's total),
    the part of the exit's difference that syncscope's exit-time work explains."""
    said = [p["finisher"] for k, v in enumerate(opts.variants) if v == "light"
            for p in once[k] if "finisher" in p]
    if not said:
        return []
    low, high = bootstrap_median(said)
    lines = [f"bench: reallock {opts.workload} finisher light n {len(said)} median_ms "
             f"{statistics.median(said):.1f} ci95 {low:.1f} {high:.1f} min {min(said):.1f} "
             f"max {max(said):.1f}"]
    timed = [p for k, v in enumerate(opts.variants) if v == "light" for p in once[k]
             if "callbacks" in p]
    if timed:
        per = {name: statistics.median(p["callbacks"][name] / p["iterations"] for p in timed)
               for name in CALLBACK_FIELDS + LIGHT_FIELDS
               if all(name in p["callbacks"] for p in timed)}
        unwound = f"unwound {per['unwound']:.4f} " if "unwound" in per else ""
        light = (f"kinds_us {per['kinds_ms'] * 1e3:.2f} probes_us {per['probes_ms'] * 1e3:.2f} "
                 if "probes_ms" in per else "")
        light += (f"questions {per['questions']:.2f} nested {per['nested']:.2f} "
                  if "nested" in per else "")
        lines.append(f"bench: reallock {opts.workload} callbacks light n {len(timed)} "
                     f"per_iteration callbacks {per['callbacks']:.4f} own_us "
                     f"{per['own_ms'] * 1e3:.2f} stacks {per['stacks']:.4f} {unwound}unwind_us "
                     f"{per['unwind_ms'] * 1e3:.2f} python_us {per['python_ms'] * 1e3:.2f} "
                     f"{light}iterations {statistics.median(p['iterations'] for p in timed):.0f}")
    return lines


def round_ratios(opts, times, measure="block"):
    """Per round: the mean light child's measure over the mean bare child's."""
    def mean(variant, r):
        return statistics.fmean(times[k][r][measure] for k, v in enumerate(opts.variants)
                                if v == variant)
    return [mean("light", r) / mean("bare", r) for r in range(len(times[0]))]


def whole_runs(opts, work):
    """The bare whole process of the workload's script, --whole-runs times (seconds)."""
    command = [sys.executable, os.path.join(ROOT, work.script)] if work.script else \
        [sys.executable, "-c", "pass"]
    seconds = []
    for run in range(opts.whole_runs):
        start = time.monotonic()
        proc = subprocess.run(command, capture_output=True, text=True, check=False)
        seconds.append(time.monotonic() - start)
        print(f"whole bare run {run + 1}: {seconds[-1]:.3f} s, exit {proc.returncode}: "
              f"{proc.stdout.strip()[-80:]}", flush=True)
        if proc.returncode != 0:
            raise RuntimeError(f"the bare whole process exited {proc.returncode}: "
                               f"{proc.stderr[-300:]}")
    return seconds


def figure_lines(opts, times, once, whole):
    """The whole-process figures and their intervals (docstring: the formula)."""
    d_once, _ = once_differences(opts, once, "once")
    d_natural, _ = once_differences(opts, once, "natural")
    ratios = round_ratios(opts, times)
    bare = [k for k, v in enumerate(opts.variants) if v == "bare"]
    rest = statistics.median(p["rest"] for k in bare for p in once[k]) / 1e3
    r = statistics.median(ratios)
    d = statistics.median(d_once) / 1e3
    lines = [f"bench: reallock {opts.workload} terms bare_whole_s {whole:.4f} once_added_ms "
             f"{d * 1e3:.2f} per_iteration {r:.4f} rest_bare_ms {rest * 1e3:.2f} "
             f"natural_added_ms {statistics.median(d_natural):.2f}"]

    def line(kind, value, samples):
        samples = sorted(samples)
        s = {"ci95": (quantile(samples, 0.025), quantile(samples, 0.975))}
        lines.append(f"bench: reallock {opts.workload} figure {kind} {value:.4f} ci95 "
                     f"{s['ci95'][0]:.4f} {s['ci95'][1]:.4f} target {TARGET} "
                     f"{resolves(s, TARGET)}")

    line("per_iteration", (whole + d + (r - 1) * rest) / whole,
         [(whole + a / 1e3 + (b - 1) * rest) / whole for a, b in
          zip(bootstrap_medians(d_once), bootstrap_medians(ratios, seed=SEED + 1))])
    line("natural", (whole + statistics.median(d_natural) / 1e3) / whole,
         [(whole + a / 1e3) / whole for a in bootstrap_medians(d_natural)])
    return lines


def parse(argv):
    parser = argparse.ArgumentParser(prog="real_lockstep.py")
    parser.add_argument("library")
    parser.add_argument("workdir")
    parser.add_argument("--workload", required=True, choices=sorted(WORKLOADS))
    parser.add_argument("--variants", default="bare light bare light")
    parser.add_argument("--pairs", default="")
    parser.add_argument("--block", type=int, default=0)
    parser.add_argument("--seconds", type=float, default=100.0)
    parser.add_argument("--generations", type=int, default=5)
    parser.add_argument("--whole-runs", type=int, default=0)
    parser.add_argument("--whole-bare", type=float, default=0.0)
    parser.add_argument("--cpus", default="")
    parser.add_argument("--fake-cost", type=float, default=1.0)
    parser.add_argument("--timing", action="store_true")
    try:
        opts = parser.parse_args(argv[1:])
    except SystemExit:
        return None
    opts.fake = opts.workload == "fake"
    opts.variants = opts.variants.split()
    opts.pairs = [tuple(pair.split("/")) for pair in opts.pairs.split()]
    allowed = ("bare", "light") + mlp_lockstep.PROBES
    problem = None
    if not {"bare", "light"} <= set(opts.variants) <= set(allowed):
        problem = (f"--variants: bare and light children, at least one of each, and "
                   f"SYNCSCOPE_LIGHT_PROBE's ({', '.join(mlp_lockstep.PROBES)})")
    elif any(len(p) != 2 or "bare" in p or p[0] == p[1] or not set(p) <= set(opts.variants)
             for p in opts.pairs):
        problem = "--pairs: A/B words, two other variants of --variants than bare"
    elif min(opts.seconds, opts.generations, opts.fake_cost) <= 0 or \
            min(opts.block, opts.whole_runs, opts.whole_bare) < 0:
        problem = ("--seconds, --generations and --fake-cost must be positive, --block, "
                   "--whole-runs and --whole-bare not negative")
    return mlp_lockstep.checked_options(opts, problem, "real_lockstep.py")


def preimport(work):
    """The workload's modules, imported before any fork, with no CUDA call (NVML answers a
    module's torch.cuda.is_available())."""
    import importlib
    os.environ["PYTORCH_NVML_BASED_CUDA_CHECK"] = "1"
    for module in work.preimport:
        importlib.import_module(module)
    del os.environ["PYTORCH_NVML_BASED_CUDA_CHECK"]
    torch = sys.modules.get("torch")
    return torch is None or not torch.cuda.is_initialized()


def main(argv):
    opts = parse(argv)
    if opts is None:
        return 2
    if opts.cpus:
        os.sched_setaffinity(0, parse_cpus(opts.cpus))
    os.makedirs(os.path.join(opts.workdir, "cache"), exist_ok=True)
    work = WORKLOADS[opts.workload]
    opts.block = opts.block or work.block
    if not preimport(work):
        print("real_lockstep.py: CUDA was initialized by the imports, before the fork",
              file=sys.stderr)
        return 1
    print(f"imported {' '.join(work.preimport) or 'nothing'} in "
          f"{time.monotonic() - STARTED:.1f} s", flush=True)
    try:
        warm_up(opts)
    except RuntimeError as problem:
        print(f"real_lockstep.py: warm-up: {problem}", file=sys.stderr)
        return 1
    times = [[] for _ in opts.variants]
    once = [[] for _ in opts.variants]
    status = 0
    for generation in range(opts.generations):
        deadline = STARTED + (generation + 1) * opts.seconds / opts.generations
        if generation and time.monotonic() >= deadline:
            break
        try:
            checks = run_generation(opts, generation, deadline, times, once)
        except RuntimeError as problem:
            print(f"real_lockstep.py: {problem}", file=sys.stderr)
            status = 1
            break
        if len(set(checks.values())) != 1:
            print(f"real_lockstep.py: generation {generation}: the children's checks differ: "
                  f"{checks}", file=sys.stderr)
            status = 1
    if not once[0]:
        print("real_lockstep.py: no generation ran", file=sys.stderr)
        return 1
    print(f"{len(times[0])} rounds of {len(opts.variants)} blocks, {len(once[0])} "
          f"generation(s), {time.monotonic() - STARTED:.0f} s", flush=True)
    for line in mlp_lockstep.summarize(opts, times, label=f"reallock {opts.workload}",
                                       targets={"light": TARGET}) + \
            once_lines(opts, once) + finisher_line(opts, once):
        print(line, flush=True)
    whole = opts.whole_bare
    try:
        if opts.whole_runs:
            whole = statistics.median(whole_runs(opts, work))
    except RuntimeError as problem:
        print(f"real_lockstep.py: {problem}", file=sys.stderr)
        return 1
    if whole:
        print(f"bench: reallock {opts.workload} whole bare_s {whole:.3f} runs "
              f"{opts.whole_runs or 'given'}", flush=True)
        for line in figure_lines(opts, times, once, whole):
            print(line, flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
