"""real_switch.py: what the light mode costs a real workload per iteration, measured inside one
process (docs/studies/performance.md, "In one process, callbacks off").

Usage: python3 real_switch.py LIBSYNCSCOPE WORKDIR --workload generate|resnet|fake
           [--levels "light off noop"] [--block N] [--seconds T (60)] [--cpus LIST]
           [--timing] [--fake-cost F]

real_lockstep.py compares processes, and two CUDA contexts of the same program differ by
several % in their iteration, more than the 1% to be shown. Here one process runs the workload
of real_lockstep.py (resnet: resnet_train.py's training steps; generate: gpt2_generate.py's
generate() calls) in the light mode under SYNCSCOPE_LIGHT_PROBE=switch, and between blocks of
N iterations calls syncscope_light_probe_set to put the mode's API callbacks in one state of
--levels:

  light  the light mode's work (level 0)
  off    the mode's API callbacks disabled in CUPTI (level 3: cuptiEnableCallback(0) for
         each, the profiler's scope marks' too; a stream's destruction kept), enabled again
         when the block is over: CUPTI subscribed, nothing dispatched
  noop   enabled, returning at once (level 1): CUPTI's dispatch without syncscope's work
  query  the mode's work with every memset's memory kind asked of the driver (level 2)
  wrap   the mode's work, the runtime's calls taken by libsyncscope_cudart.so's wrappers (the
         file beside LIBSYNCSCOPE, given with LD_PRELOAD) instead of CUPTI's runtime callbacks,
         which are disabled (level 4); the driver's as at level light
  wraponly  the same with the mode's driver callbacks disabled in CUPTI too (level 5): no API
         callback dispatched (docs/studies/performance.md, "The light mode's runtime calls
         without CUPTI")

With wrap or wraponly the measuring process starts with LD_PRELOAD naming the wrappers, which
load LIBSYNCSCOPE at its start (not at cuInit).

A round runs one block of each level, in an order that turns and reverses from round to round
(mlp_lockstep.round_order), each block after the workload's lead-in iterations and a readback
(real_lockstep's), timed from its first iteration to its readback. A round gives per pair of
levels the ratio of their blocks, in the same context, seconds apart: light/off is what the
mode costs an iteration (CUPTI's dispatch and syncscope's own work), noop/off CUPTI's dispatch
alone, light/noop syncscope's own work. No round starts after T seconds from the start (the
import included). What is not here: the process's one-time costs (loading CUPTI, subscribing,
the first iteration's extra calls, the exit: bench/exit, real_lockstep.py's 'once' lines).

Printed: 'bench: realswitch NAME A/B block n N median R ci95 LO HI q1 Q1 q3 Q3 min MIN max MAX
sum_ratio S [target 1.01 VERDICT]' per pair (light/off with the target), 'bench: realswitch
NAME block_ms LEVEL MS ... rounds N' (the median blocks), 'bench: realswitch NAME events
LEVEL MEDIAN [min A max B] ... reference R' (the events the capture recorded in a block at
each level, syncscope_light_probe_events; the reference: blocks at level light before any
switch), and with --timing (SYNCSCOPE_TIMING=1: the light blocks pay its clock reads) 'bench:
realswitch NAME own light_iterations I own_us_per_iteration O callbacks C questions Q nested
D kinds_us K probes_us P' from the exit's timing lines (syncscope's own time, summed over the
run, over the iterations at level light, set-up included), 'bench: realswitch NAME
own_in_blocks light_blocks B us_per_iteration U' (the own time in the timed light blocks alone,
syncscope_light_probe_own_ns around each: no set-up, no lead-in) and the result's findings.
Checked: the process loaded LIBSYNCSCOPE; no event is recorded at levels off and noop; the
light blocks record as many events (median) as the reference blocks; a result is written.
--fake runs the protocol with real_lockstep's busy loops, a stand-in switch making light and
query blocks F times as long (--fake-cost) and a stand-in event count. Exit status 0, 1 when a
check failed (what ran is still printed), 2 on usage errors.
"""
import argparse
import ctypes
import json
import os
import re
import statistics
import subprocess
import sys
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from pairstats import ratio_summary, resolves  # noqa: E402
import real_lockstep  # noqa: E402
from mlp_lockstep import round_order, set_cpus  # noqa: E402

LEVELS = {"light": 0, "noop": 1, "query": 2, "off": 3, "wrap": 4, "wraponly": 5}
RECORDING = ("light", "query", "wrap", "wraponly")  # levels whose blocks record events
WRAPPED = ("wrap", "wraponly")
WRAPPERS = "libsyncscope_cudart.so"
TARGET = 1.01
REFERENCE_BLOCKS = 3
STARTED = time.monotonic()


def parse(argv):
    parser = argparse.ArgumentParser(prog="real_switch.py")
    parser.add_argument("library")
    parser.add_argument("workdir")
    parser.add_argument("--workload", required=True, choices=sorted(real_lockstep.WORKLOADS))
    parser.add_argument("--levels", default="light off noop")
    parser.add_argument("--block", type=int, default=0)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--cpus", default="")
    parser.add_argument("--timing", action="store_true")
    parser.add_argument("--fake-cost", type=float, default=1.0)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    try:
        opts = parser.parse_args(argv[1:])
    except SystemExit:
        return None
    opts.fake = opts.workload == "fake"
    opts.levels = opts.levels.split()
    problem = None
    if "light" not in opts.levels or len(opts.levels) < 2 or \
            len(set(opts.levels)) != len(opts.levels) or not set(opts.levels) <= set(LEVELS):
        problem = f"--levels: light and at least one other of {', '.join(LEVELS)}, once each"
    elif min(opts.seconds, opts.fake_cost) <= 0 or opts.block < 0:
        problem = "--seconds and --fake-cost must be positive, --block not negative"
    elif not opts.fake and not os.path.isfile(opts.library):
        problem = f"{opts.library}: no such file"
    if problem:
        print(f"real_switch.py: {problem}", file=sys.stderr)
        return None
    opts.library = os.path.abspath(opts.library)
    opts.workdir = os.path.abspath(opts.workdir)
    return opts


class FakeSwitch:
    """--fake: the stand-in switch (light and query make every burn 'cost' times as long) and
    event count (one event per iteration at a recording level)."""

    def __init__(self, work, cost):
        self.work, self.cost, self.base = work, cost, work.loops
        self.level, self.count = LEVELS["light"], 0
        step = work.step

        def counted(i):
            self.count += self.level in (LEVELS["light"], LEVELS["query"])
            return step(i)
        work.step = counted

    def switch(self, level):
        self.level = level
        recording = level in (LEVELS["light"], LEVELS["query"])
        self.work.loops = int(self.base * (self.cost if recording else 1.0))

    def events(self):
        return self.count

    def own_ns(self):
        """The stand-in own time: 1 us per iteration at a recording level."""
        return self.count * 1000


def set_up(opts):
    """(work, switch(level), events(), own_ns()) with the workload set up and its script's
    iterations run at level light (the library loaded and checked)."""
    work = real_lockstep.WORKLOADS[opts.workload](1.0)
    if opts.fake:
        fake = FakeSwitch(work, opts.fake_cost)
        work.init()
        work.setup()
        return work, fake.switch, fake.events, fake.own_ns
    work.init()  # cuInit: the library loads and subscribes
    work.setup()
    with open("/proc/self/maps", encoding="utf-8") as handle:
        maps = handle.read()
    for name in [opts.library] + ([WRAPPERS] if set(WRAPPED) & set(opts.levels) else []):
        if os.path.basename(name) not in maps:
            raise RuntimeError(f"{os.path.basename(name)} not loaded")
    library = ctypes.CDLL(opts.library)
    switch = library.syncscope_light_probe_set
    switch.argtypes = [ctypes.c_int]
    events = library.syncscope_light_probe_events
    events.restype = ctypes.c_uint64
    own_ns = library.syncscope_light_probe_own_ns
    own_ns.restype = ctypes.c_uint64
    return work, switch, events, own_ns


class Runner:
    """The iterations, continuing one stream of them over the blocks, counted per level."""

    def __init__(self, work, events, own_ns, block):
        self.work, self.events, self.own_ns, self.block = work, events, own_ns, block
        self.i, self.last = 0, None
        self.iterations = {}
        self.own = {}  # level: syncscope's own ns in its timed blocks (SYNCSCOPE_TIMING)

    def run(self, count, level):
        for _ in range(count):
            self.last = self.work.step(self.i)
            self.i += 1
        self.iterations[level] = self.iterations.get(level, 0) + count
        return self.work.readback(self.last)

    def timed_block(self, level):
        """The lead-in, then one timed block: (its ms, the events recorded in all)."""
        before = self.events()
        self.run(self.work.lead_in, level)
        own = self.own_ns()
        start = time.perf_counter()
        self.run(self.block, level)
        ms = (time.perf_counter() - start) * 1e3
        self.own[level] = self.own.get(level, 0) + self.own_ns() - own
        return ms, self.events() - before


def rounds(opts, runner, switch):
    """The reference blocks at level light, then rounds until the deadline: ({level: [ms]},
    {level: [events]}, the reference blocks' events)."""
    reference = [runner.timed_block("light")[1] for _ in range(REFERENCE_BLOCKS)]
    times = {name: [] for name in opts.levels}
    events = {name: [] for name in opts.levels}
    deadline, r = STARTED + opts.seconds, 0
    while r == 0 or time.monotonic() < deadline:
        for k in round_order(len(opts.levels), r):
            name = opts.levels[k]
            switch(LEVELS[name])
            ms, count = runner.timed_block(name)
            times[name].append(ms)
            events[name].append(count)
        switch(LEVELS["light"])
        r += 1
        if r % 20 == 0:
            print(f"round {r}: " + ", ".join(f"{n} {times[n][-1]:.1f} ms" for n in opts.levels),
                  flush=True)
    return times, events, reference


def pair_lines(opts, times):
    label = f"bench: realswitch {opts.workload}"
    lines = []
    others = [n for n in opts.levels if n != "light"]
    pairs = [("light", n) for n in others] + [(a, b) for a in others for b in others
                                               if a != b and b == "off"]
    pairs += [(a, "off") for a in WRAPPED if a in others and "off" not in others]
    pairs += [(a, "light") for a in WRAPPED if a in others and (a, "light") not in pairs]
    for top, under in pairs:
        s = ratio_summary([a / b for a, b in zip(times[top], times[under])])
        target = f" target {TARGET} {resolves(s, TARGET)}" if (top, under) == ("light", "off") \
            else ""
        lines.append(f"{label} {top}/{under} block n {s['n']} median {s['median']:.4f} ci95 "
                     f"{s['ci95'][0]:.4f} {s['ci95'][1]:.4f} q1 {s['q1']:.4f} q3 {s['q3']:.4f} "
                     f"min {s['min']:.4f} max {s['max']:.4f} sum_ratio "
                     f"{sum(times[top]) / sum(times[under]):.4f}{target}")
    lines.append(f"{label} block_ms " + " ".join(
        f"{n} {statistics.median(times[n]):.3f}" for n in opts.levels) +
        f" rounds {len(times['light'])} block {opts.block}")
    return lines


def event_problems(opts, events, reference):
    """The events line and what the checks found wrong."""
    ref = statistics.median(reference)
    line = f"bench: realswitch {opts.workload} events " + " ".join(
        f"{n} {statistics.median(events[n]):g} min {min(events[n])} max {max(events[n])}"
        for n in opts.levels) + f" reference {ref:g}"
    problems = [f"{n} blocks recorded events (max {max(events[n])})" for n in opts.levels
                if n not in RECORDING and max(events[n]) != 0]
    if ref <= 0:
        problems.append("the reference blocks recorded nothing")
    for name in ["light"] + [n for n in WRAPPED if n in opts.levels]:
        if statistics.median(events[name]) != ref:
            problems.append(f"the {name} blocks recorded {statistics.median(events[name]):g} "
                            f"events (median), the reference blocks {ref:g}")
    return line, problems


def child_main(opts):
    """The measuring process: the environment before the first CUDA call, the rounds; prints
    the lines and, last, one JSON line of the iterations per level for the parent."""
    os.environ.update(child_environment(opts))
    work, switch, events, own_ns = set_up(opts)
    runner = Runner(work, events, own_ns, opts.block or work.block)
    opts.block = runner.block
    runner.run(work.natural, "light")  # the script's own iterations: the first's start-up
    times, counts, reference = rounds(opts, runner, switch)
    print(f"{len(times['light'])} rounds of {len(opts.levels)} blocks of {opts.block} "
          f"iterations, {time.monotonic() - STARTED:.0f} s", flush=True)
    for line in pair_lines(opts, times):
        print(line, flush=True)
    line, problems = event_problems(opts, counts, reference)
    print(line, flush=True)
    if opts.timing:
        print(own_blocks_line(opts, runner, len(times["light"]) + REFERENCE_BLOCKS), flush=True)
    work.teardown()
    print(json.dumps({"iterations": runner.iterations, "problems": problems}), flush=True)
    return 0


def child_environment(opts):
    """What the measuring process's environment adds: the capture's settings, and with a
    wrappers' level LD_PRELOAD (which the parent gives it: read at the process's start)."""
    env = {}
    if not opts.fake:
        env.update({"CUDA_INJECTION64_PATH": opts.library, "SYNCSCOPE_MODE": "light",
                    "SYNCSCOPE_LIGHT_PROBE": "switch", "SYNCSCOPE_QUIET": "1",
                    "SYNCSCOPE_OUTPUT": os.path.join(opts.workdir, "switch.json"),
                    "SYNCSCOPE_SYMBOL_CACHE": os.path.join(opts.workdir, "cache")})
        if set(WRAPPED) & set(opts.levels):
            env["LD_PRELOAD"] = os.path.join(os.path.dirname(opts.library), WRAPPERS)
    if opts.timing:
        env["SYNCSCOPE_TIMING"] = "1"
    return env


def own_blocks_line(opts, runner, blocks):
    """syncscope's own time in the timed light blocks alone (syncscope_light_probe_own_ns
    around each: no set-up, no lead-in), per iteration."""
    n = blocks * opts.block
    return (f"bench: realswitch {opts.workload} own_in_blocks light_blocks {blocks} "
            f"us_per_iteration {runner.own.get('light', 0) / 1e3 / max(n, 1):.2f}")


def own_line(opts, text, iterations):
    """The timing lines' own time over the iterations at level light (set-up included)."""
    callbacks = re.search(real_lockstep.CALLBACK_TIMING, text, re.M)
    light = re.search(real_lockstep.LIGHT_TIMING, text, re.M)
    if callbacks is None or light is None:
        return None
    n = iterations.get("light", 0)
    values = dict(zip(real_lockstep.CALLBACK_FIELDS, callbacks.groups()))
    values.update(zip(real_lockstep.LIGHT_FIELDS, light.groups()))
    per = {k: float(v) / n for k, v in values.items() if v is not None}
    return (f"bench: realswitch {opts.workload} own light_iterations {n} own_us_per_iteration "
            f"{per['own_ms'] * 1e3:.2f} callbacks {per['callbacks']:.2f} questions "
            f"{per.get('questions', 0):.2f} nested {per.get('nested', 0):.2f} kinds_us "
            f"{per['kinds_ms'] * 1e3:.2f} probes_us {per['probes_ms'] * 1e3:.2f} stacks "
            f"{per['stacks']:.2f} unwind_us {per['unwind_ms'] * 1e3:.2f}")


def findings_line(opts):
    path = os.path.join(opts.workdir, "switch.json")
    if opts.fake:
        return None, None
    if not os.path.isfile(path):
        return None, "no result written"
    with open(path, encoding="utf-8") as handle:
        findings = json.load(handle).get("findings", [])
    rules = sorted({f.get("ruleId", "?") for f in findings})
    count = sum(int(f.get("evidence", {}).get("count", 0)) for f in findings)
    return (f"bench: realswitch {opts.workload} findings {len(findings)} occurrences {count} "
            f"rules {','.join(rules) or 'none'}"), None


def main(argv):
    opts = parse(argv)
    if opts is None:
        return 2
    if opts.cpus:
        set_cpus(opts.cpus)
    os.makedirs(opts.workdir, exist_ok=True)
    if opts.child:
        return child_main(opts)
    err = os.path.join(opts.workdir, "child.err")
    last = None
    with open(err, "w", encoding="utf-8") as handle:
        proc = subprocess.Popen([sys.executable] + argv + ["--child"], stdout=subprocess.PIPE,
                                stderr=handle, text=True,
                                env=dict(os.environ, **child_environment(opts)))
        for line in proc.stdout:  # passed on as they come: a run cut short still tells some
            if line.startswith("{"):
                last = json.loads(line)
            else:
                print(line, end="", flush=True)
        proc.wait()
    with open(err, encoding="utf-8", errors="replace") as handle:
        text = handle.read()
    if last is None:
        print(f"real_switch.py: the measuring process exited {proc.returncode}: {text[-600:]}",
              file=sys.stderr)
        return 1
    problems = list(last["problems"])
    print(f"bench: realswitch {opts.workload} iterations " + " ".join(
        f"{n} {last['iterations'].get(n, 0)}" for n in opts.levels), flush=True)
    own = own_line(opts, text, last["iterations"]) if opts.timing else None
    found, problem = findings_line(opts)
    for line in (own, found):
        if line:
            print(line)
    problems += [problem] if problem else []
    problems += [f"exit {proc.returncode}"] if proc.returncode != 0 else []
    for problem in problems:
        print(f"real_switch.py: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
