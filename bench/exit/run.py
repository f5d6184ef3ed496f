#!/usr/bin/env python3
"""run.py: the exit-time benchmark (bench/exit/run.sh; docs/studies/performance.md, "Exit time").

  run.py BUILD_DIR [-- PROGRAM ARGS...]

Part 1, the whole process: exit_app (bench/exit/exit_app.c: fake CUDA calls from inside
libLLVM's optimizer, libclang and qsort, under the fake CUPTI), or PROGRAM on a machine with a
GPU, bare and under libsyncscope.so with the symbol cache off, cold (an empty folder) and warm
(the folder the cold run filled), and with BENCH_OLD_FINISHER (another libsyncscope_finish.so,
e.g. one built before the symbol index) also under that finisher ("old"), in interleaved
rounds; the process's wall time and the finisher's own SYNCSCOPE_TIMING line, medians. The call
stacks of the traces must be the same frame for frame (pcs aside: each run is another process;
for exit_app in order, for another program as a set), and so must the findings' sites and
frames (exit_app).

Part 2, the symbolization alone (bench/exit/symbench.c): the native frames of that trace, and
addresses sampled in a set of large libraries standing in for a PyTorch process, resolved with
libdw's own lookup (the finisher before the symbol index), with the index, and through the
cache cold and warm; every result must equal libdw's.

BENCH_WHOLE=1 (with a PROGRAM) measures only the whole process: bare, the CUPTI floor (with
BENCH_FLOOR) and a user's run (the full mode; BENCH_WHOLE_FULL=0 leaves it out), after a
discarded warm-up run of each, in rounds of alternating order (the first run of a process that
loads large libraries pays for the page cache); medians and minima, and per mode the median of
its runs' ratios to the same round's bare run with a bootstrap 95% interval, and whether that
interval shows the ratio at or under BENCH_TARGET (1.01), and the median of the same pairs'
differences in ms with its interval. BENCH_CPU=LIST runs every process on those CPUs
(taskset -c); BENCH_SECONDS=T starts no round after T seconds, so that the summary is printed
before an outer time bound; BENCH_WARMUP=NAMES gives only those modes (bare, floor, full, a
variant's name; "none": no mode) the warm-up run. BENCH_VARIANTS="NAME:VAR=VALUE[,VAR=VALUE]
..." adds a user's run with those settings for each word (e.g. nonvtx:SYNCSCOPE_NVTX=0: what
observing NVTX costs). A Python PROGRAM run through bench/exit/phases.py also gets the median
of each phase of the process (startup, import of BENCH_PREIMPORT, the script, exit).

With BENCH_FLOOR=LIB (bench/overhead's libcupti_floor.so, a GPU machine) the process also runs
under the CUPTI floor alone ("floor": the least a CUPTI-based tool pays), and with BENCH_PLAIN=1
as a user's run costs ("plain": no trace, the symbol cache warm): bare, floor and plain side by
side give the whole-process overhead and how much of it is CUPTI's.

Environment: BENCH_ROUNDS (3), BENCH_SCALE (1: exit_app's amount of generated code),
BENCH_MODULES (space-separated library paths; default: the large libraries found here; "none"
for no such part), BENCH_PER_MODULE (30), BENCH_OLD_FINISHER, BENCH_OUT (also write the report
to this file).
Exit status: 0, 1 when results differ between paths or a run failed, 2 on a usage error.
"""
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "overhead"))
from pairstats import bootstrap_median, ratio_summary, resolves  # noqa: E402

TIMING = re.compile(r"^syncscope: exit timing: symbolize ([0-9.]+) ms \((.*?)\), collect "
                    r"([0-9.]+) ms .*? total ([0-9.]+) ms$", re.M)
def read_variants(text):
    """BENCH_VARIANTS: 'NAME:VAR=VALUE[,VAR=VALUE...]' words, each a user's run with those
    settings besides the plain one (what one feature costs)."""
    variants = {}
    for word in text.split():
        name, _, settings = word.partition(":")
        pairs = [p.partition("=") for p in settings.split(",") if p]
        if not name or not pairs or any(not k or not eq for k, eq, _ in pairs):
            die(f"BENCH_VARIANTS: '{word}' is not NAME:VAR=VALUE[,VAR=VALUE...]", 2)
        variants[name] = {k: v for k, _, v in pairs}
    return variants


VARIANTS = {}  # main() fills it from BENCH_VARIANTS
PHASE = re.compile(r"^bench-phase (start|imported|ran) ([0-9.]+)$", re.M)
MARK = re.compile(r"^bench-mark (\S+) ([0-9.]+)$", re.M)
DEFAULT_MODULES = [
    "/usr/lib/x86_64-linux-gnu/libLLVM-16.so.1", "/usr/lib/x86_64-linux-gnu/libLLVM-15.so.1",
    "/usr/lib/x86_64-linux-gnu/libLLVM-14.so.1", "/usr/lib/llvm-16/lib/libclang-cpp.so.16",
    "/usr/lib/llvm-14/lib/libclang-cpp.so.14", "/usr/lib/x86_64-linux-gnu/libclang-16.so.1",
    "/usr/lib/x86_64-linux-gnu/libpython3.11.so.1.0", "/usr/lib/x86_64-linux-gnu/libstdc++.so.6",
    "/usr/lib/x86_64-linux-gnu/libc.so.6", "/usr/local/cuda/lib64/libcudart.so",
    "/usr/local/cuda/lib64/libcublasLt.so", "/usr/local/cuda/lib64/libcublas.so",
    "/usr/local/cuda/lib64/libcudnn_graph.so", "/usr/local/cuda/lib64/libcupti.so",
    "/usr/lib/x86_64-linux-gnu/libgrpc.so.29", "/usr/lib/x86_64-linux-gnu/libz3.so.4",
]


def die(message, status=1):
    print(f"run.py: {message}", file=sys.stderr)
    sys.exit(status)


def run_app(paths, mode, cache_dir, out_dir, tag, scale, program, need_timing=True):
    """One run; returns (wall s, timing dict or None, files). Without need_timing a run with
    no exit timing line (a program that never used CUDA) gives None."""
    env = dict(os.environ)
    for key in list(env):
        if key.startswith("SYNCSCOPE_"):
            del env[key]
    files = {}
    extra = {}
    if mode.startswith("plain+"):  # a user's run with settings of its own (BENCH_VARIANTS)
        mode, extra = "plain", VARIANTS[mode[len("plain+"):]]
    if mode == "floor":
        env["LD_PRELOAD"] = paths["floor"]
    elif mode != "bare":
        files = {"json": os.path.join(out_dir, f"{tag}.json")}
        preload = paths["old_preload"] if mode == "old" else paths["preload"]
        env.update({"LD_PRELOAD": preload, "SYNCSCOPE_TIMING": "1", "SYNCSCOPE_QUIET": "1",
                    "SYNCSCOPE_OUTPUT": files["json"],
                    "SYNCSCOPE_SYMBOL_CACHE": cache_dir if mode in ("cold", "warm", "plain")
                    else "0"})
        if mode != "plain":  # "plain": what a user's run costs: no trace, a warm cache
            files["trace"] = os.path.join(out_dir, f"{tag}.sstrace")
            env["SYNCSCOPE_TRACE"] = files["trace"]
        env.update(extra)
        if program is None:
            env["SYNCSCOPE_CUPTI_PATH"] = paths["cupti"]
        elif os.environ.get("BENCH_CUPTI_PATH"):  # a stand-in CUPTI, to try it without a GPU
            env["SYNCSCOPE_CUPTI_PATH"] = os.environ["BENCH_CUPTI_PATH"]
    command = program if program is not None else [paths["app"], str(scale)]
    if os.environ.get("BENCH_CPU"):  # every process on the same CPUs (taskset -c)
        command = ["taskset", "-c", os.environ["BENCH_CPU"]] + command
    launched = time.time()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    proc = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    # CPU seconds of the process and the children it waited for (a DataLoader's workers):
    # what the run computed, without the time it spent waiting for files or other processes.
    files["cpu"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode != 0:
        die(f"{command[0]} ({mode}) exited {proc.returncode}: {proc.stderr[-2000:]}")
    files["phases"] = read_phases(proc.stderr, launched, wall)
    files["marks"] = {}
    for m in MARK.finditer(proc.stderr):  # phases.py's BENCH_MARKS: seconds, summed by name
        files["marks"][m.group(1)] = files["marks"].get(m.group(1), 0.0) + float(m.group(2))
    if mode in ("bare", "floor"):
        return wall, None, files
    m = TIMING.search(proc.stderr)
    if not m and not need_timing:
        return wall, None, files
    if not m:
        die(f"no exit timing line ({mode}): {proc.stderr[-2000:]}")
    detail = m.group(2)
    timing = {"symbolize": float(m.group(1)), "collect": float(m.group(3)),
              "total": float(m.group(4)), "detail": detail}
    for name in ("report", "open", "symbol tables", "symbols", "lines", "inlined", "names",
                 "cache"):
        s = re.search(re.escape(name) + r" ([0-9.]+)", detail)
        timing[name] = float(s.group(1)) if s else float("nan")
    counts = re.match(r"(\d+) addresses, (\d+) modules(?:; (\d+) resolved, (\d+) from)?", detail)
    if counts:
        timing.update(addresses=int(counts.group(1)), modules=int(counts.group(2)),
                      resolved=int(counts.group(3) or counts.group(1)),
                      hits=int(counts.group(4) or 0))
    return wall, timing, files


def read_phases(stderr, launched, wall):
    """The phases bench/exit/phases.py marked, in seconds: startup (to the interpreter),
    import (BENCH_PREIMPORT), run (the script) and exit (the rest); {} without the marks."""
    marks = {m.group(1): float(m.group(2))
             for m in PHASE.finditer(stderr)}
    if not all(k in marks for k in ("start", "imported", "ran")):
        return {}
    return {"startup": marks["start"] - launched, "import": marks["imported"] - marks["start"],
            "run": marks["ran"] - marks["imported"],
            "exit": launched + wall - marks["ran"]}


def read_stacks(trace):
    """The trace's stacks as tuples of frames without their pcs."""
    strings = {"0": ""}
    stacks = []
    current = None

    def text(i):
        return strings.get(i, "?")

    with open(trace, encoding="utf-8", errors="replace") as f:
        for line in f:
            p = line.rstrip("\n").split(" ")
            if p[0] == "str":
                strings[p[1]] = p[2]
            elif p[0] == "stack":
                current = []
                stacks.append(current)
            elif p[0] == "frame":
                current.append((text(p[2]), text(p[3]), text(p[4]), p[5], p[6]))
    return [tuple(s) for s in stacks]


def read_sites(result):
    """The findings' places and frames (pcs aside), in the result's order."""
    with open(result, encoding="utf-8") as f:
        data = json.load(f)
    sites = []
    for g in data.get("findings", []):
        frames = tuple((fr.get("function"), fr.get("file"), fr.get("line"), fr.get("module"))
                       for fr in g.get("frames") or [])
        via = g.get("via") or {}
        sites.append((g.get("ruleId"), g.get("file"), g.get("line"), g.get("function"),
                      (via.get("file"), via.get("line"), via.get("function")),
                      g.get("module"), g.get("moduleOffset"), frames))
    return sites


def median(values):
    return statistics.median(values) if values else float("nan")


def symbench(paths, args, rounds):
    cmd = [paths["symbench"], "--rounds", str(rounds)] + args
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
    return proc.returncode, proc.stdout, proc.stderr


def save_report(report):
    """Also writes the report's lines to BENCH_OUT when it is set."""
    out_file = os.environ.get("BENCH_OUT")
    if out_file:
        with open(out_file, "w", encoding="utf-8") as f:
            f.write("\n".join(report) + "\n")


def warmed_modes(modes):
    """The modes BENCH_WARMUP names for a discarded warm-up run (default: every one; "none":
    none; else words among bare, floor, full and the BENCH_VARIANTS names): one warm-up of
    bare fills the page cache for all when another part has just loaded the tool's libraries."""
    text = os.environ.get("BENCH_WARMUP", "").split()
    if not text:
        return list(modes)
    if text == ["none"]:
        return []
    names = {"bare": "bare", "floor": "floor", "full": "plain"}
    names.update({name: f"plain+{name}" for name in VARIANTS})
    unknown = [w for w in text if names.get(w) not in modes]
    if unknown:
        die(f"BENCH_WARMUP: '{unknown[0]}' is not a mode of this run "
            f"({', '.join(n for n, m in names.items() if m in modes)}, or none)", 2)
    return [m for m in modes if m in {names[w] for w in text}]


def whole_process(paths, program, rounds, say):
    """BENCH_WHOLE=1: only the whole process, bare, under the CUPTI floor (when BENCH_FLOOR is
    set) and as a user's run (no trace, a warm cache), after one discarded run of each (the
    page cache, the symbol cache), in rounds whose order alternates so that drift cancels.
    Medians and minima (a process's wall time only ever gains noise), CPU time (user and
    system, the process and the children it waited for), and, when the program is
    bench/exit/phases.py, the median of each phase."""
    work = tempfile.mkdtemp(prefix="exit-bench-")
    cache = os.path.join(work, "cache")
    full = os.environ.get("BENCH_WHOLE_FULL", "1") not in ("", "0")
    modes = ["bare"] + (["floor"] if "floor" in paths else []) + (["plain"] if full else []) + \
        [f"plain+{name}" for name in VARIANTS]
    if len(modes) < 2:
        die("BENCH_WHOLE_FULL=0 needs BENCH_FLOOR or BENCH_VARIANTS: nothing to compare", 2)
    warm = warmed_modes(modes)
    try:
        for mode in warm:  # warm-up, discarded
            wall, _, _ = run_app(paths, mode, cache, work, f"warm-{mode}", 1, program, False)
            print(f"warm-up {mode}: {wall:.2f} s", file=sys.stderr, flush=True)
        walls = {m: [] for m in modes}
        cpus = {m: [] for m in modes}
        phases = {m: [] for m in modes}
        totals = {m: [] for m in modes}
        marks = {m: [] for m in modes}
        seconds = float(os.environ.get("BENCH_SECONDS", "0") or 0)
        started = time.monotonic()
        for r in range(rounds):
            # No round starts past BENCH_SECONDS, so that the summary is printed before an
            # outer time bound cuts the run: only whole rounds count.
            if seconds and r and time.monotonic() - started > seconds:
                print(f"BENCH_SECONDS: {r} rounds in {time.monotonic() - started:.0f} s",
                      file=sys.stderr, flush=True)
                break
            for mode in (modes if r % 2 == 0 else list(reversed(modes))):
                wall, timing, files = run_app(paths, mode, cache, work, f"{mode}{r}", 1,
                                              program, False)
                walls[mode].append(wall)
                cpus[mode].append(files["cpu"])
                # Progress as it comes: a run cut by a time bound still tells its rounds.
                print(f"round {r + 1}/{rounds} {mode}: {wall:.2f} s, {files['cpu']:.2f} s CPU",
                      file=sys.stderr, flush=True)
                if files["phases"]:
                    phases[mode].append(files["phases"])
                marks[mode].append(files["marks"])
                if timing:
                    totals[mode].append(timing["total"])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    labels = {"bare": "bare", "floor": "CUPTI floor", "plain": "syncscope (no trace, cache warm)"}
    labels.update({f"plain+{name}": "syncscope, " + " ".join(f"{k}={v}" for k, v in env.items())
                   for name, env in VARIANTS.items()})

    def row(name, values, form):
        say(f"| {name} | " + " | ".join(form(v) for v in values) + " |")

    rounds = len(walls["bare"])
    warmed = "a warm-up" if warm == modes else (
        "no warm-up" if not warm else "a warm-up of " + ", ".join(labels[m] for m in warm))
    say(f"## Whole process: {' '.join(program)}, {rounds} rounds after {warmed}, order "
        "alternating" + (f", on CPUs {os.environ['BENCH_CPU']}" if os.environ.get("BENCH_CPU")
                         else ""))
    say()
    say("| measure | " + " | ".join(labels[m] for m in modes) + " |")
    say("|---" * (len(modes) + 1) + "|")
    bare_median, bare_min = median(walls["bare"]), min(walls["bare"])
    row("process wall s, median", [median(walls[m]) for m in modes], lambda v: f"{v:.3f}")
    row("/ bare, medians", [median(walls[m]) / bare_median for m in modes], lambda v: f"{v:.3f}x")
    row("process wall s, minimum", [min(walls[m]) for m in modes], lambda v: f"{v:.3f}")
    row("/ bare, minima", [min(walls[m]) / bare_min for m in modes], lambda v: f"{v:.3f}x")
    row("runs (s)", [walls[m] for m in modes], lambda v: ", ".join(f"{w:.2f}" for w in v))
    row("CPU s (user + system), median", [median(cpus[m]) for m in modes], lambda v: f"{v:.3f}")
    row("/ bare, CPU medians", [median(cpus[m]) / median(cpus["bare"]) for m in modes],
        lambda v: f"{v:.3f}x")
    if all(len(phases[m]) == rounds for m in modes):
        for phase in ("startup", "import", "run", "exit"):
            row(f"{phase} s, median", [median([p[phase] for p in phases[m]]) for m in modes],
                lambda v: f"{v:.3f}")
        row("import s, each run", [[p["import"] for p in phases[m]] for m in modes],
            lambda v: ", ".join(f"{x:.2f}" for x in v))
        row("run + exit s, each run", [[p["run"] + p["exit"] for p in phases[m]] for m in modes],
            lambda v: ", ".join(f"{x:.2f}" for x in v))
    for name in sorted({k for m in modes for run in marks[m] for k in run}):
        row(f"{name} s, each run", [[run.get(name, 0.0) for run in marks[m]] for m in modes],
            lambda v: ", ".join(f"{x:.3f}" for x in v))
    row("syncscope's exit total ms", [totals[m] for m in modes],
        lambda v: f"{median(v):.1f}" if v else "-")
    say()
    measures = [("wall", walls), ("cpu", cpus)]
    if all(len(phases[m]) == rounds for m in modes):
        # the process's parts apart: the import, where no CUDA call is made yet, and what
        # follows it (the workload and the exit), where the observed modes' callbacks run
        measures += [("import", {m: [p["import"] for p in phases[m]] for m in modes}),
                     ("after_import", {m: [p["run"] + p["exit"] for p in phases[m]]
                                       for m in modes})]
    paired_ratios(program, modes, measures, say)


def paired_ratios(program, modes, measures, say):
    """Per mode and measure (wall, CPU, and with phases.py the import and what follows it), its
    run over the same round's bare run: n, the median of those ratios and its bootstrap 95%
    interval, and whether the interval shows the light modes' target (BENCH_TARGET, 1.01) or
    cannot tell."""
    target = float(os.environ.get("BENCH_TARGET", "1.01"))
    name = os.path.basename(program[-1]) if program else "program"
    short = {"plain": "full", "floor": "floor"}
    for mode in modes[1:]:
        word = short.get(mode, mode[len("plain+"):])
        for measure, values in measures:
            ratios = [a / b for a, b in zip(values[mode], values["bare"])]
            if not ratios:
                continue
            s = ratio_summary(ratios)
            say(f"bench: whole {name} {word} {measure}/bare n {s['n']} median "
                f"{s['median']:.4f} ci95 {s['ci95'][0]:.4f} {s['ci95'][1]:.4f} min "
                f"{s['min']:.4f} max {s['max']:.4f} target {target} "
                f"{resolves(s, target) if s['n'] >= 3 else 'not resolved (n < 3)'}")
            # The same pairs as differences, in ms: what the mode adds to a process, which
            # holds for a process of any length where the ratio holds only for this one.
            added = [(a - b) * 1e3 for a, b in zip(values[mode], values["bare"])]
            low, high = bootstrap_median(added)
            say(f"bench: whole {name} {word} {measure}-bare n {len(added)} median_ms "
                f"{statistics.median(added):.1f} ci95 {low:.1f} {high:.1f}")
    say()


def main():
    args = sys.argv[1:]
    program = None
    if "--" in args:
        program = args[args.index("--") + 1:]
        args = args[:args.index("--")]
    if len(args) != 1 or (program is not None and not program):
        print(__doc__, file=sys.stderr)
        return 2
    build = os.path.abspath(args[0])
    paths = {"symbench": f"{build}/bench/exit/symbench",
             "preload": f"{build}/interpose/libsyncscope.so"}
    if program is None:
        paths.update(app=f"{build}/bench/exit/exit_app",
                     cupti=f"{build}/bench/exit/libcupti_fake.so")
    for name, path in paths.items():
        if not os.path.exists(path):
            die(f"{path} is missing: build the tree ({name})", 2)
    VARIANTS.update(read_variants(os.environ.get("BENCH_VARIANTS", "")))
    rounds = int(os.environ.get("BENCH_ROUNDS", "3"))
    scale = int(os.environ.get("BENCH_SCALE", "1"))
    per_module = int(os.environ.get("BENCH_PER_MODULE", "30"))
    modules = os.environ.get("BENCH_MODULES", "").split() or \
        [m for m in DEFAULT_MODULES if os.path.exists(m)]
    if modules == ["none"]:
        modules = []
    report = []

    def say(line=""):
        print(line, flush=True)
        report.append(line)

    floor = os.environ.get("BENCH_FLOOR")
    if floor:
        if not os.path.exists(floor):
            die(f"{floor} is missing (BENCH_FLOOR: bench/overhead's libcupti_floor.so)", 2)
        paths["floor"] = os.path.abspath(floor)
    if os.environ.get("BENCH_WHOLE", "0") not in ("", "0"):
        if program is None:
            die("BENCH_WHOLE needs a program after '--'", 2)
        whole_process(paths, program, rounds, say)
        save_report(report)
        return 0

    work = tempfile.mkdtemp(prefix="exit-bench-")
    modes = ["bare", "off", "cold", "warm"]
    old = os.environ.get("BENCH_OLD_FINISHER")
    if old:
        # The capture library loads the finisher from its own folder.
        folder = os.path.join(work, "old")
        os.mkdir(folder)
        shutil.copy(paths["preload"], folder)
        shutil.copy(old, os.path.join(folder, "libsyncscope_finish.so"))
        paths["old_preload"] = os.path.join(folder, "libsyncscope.so")
        modes.insert(1, "old")
    if floor:
        modes.insert(1, "floor")
    if os.environ.get("BENCH_PLAIN", "0") not in ("", "0"):
        modes.append("plain")
    traced = [m for m in modes if m not in ("bare", "floor", "plain")]
    timed = [m for m in modes if m not in ("bare", "floor")]
    failed = False
    try:
        walls = {m: [] for m in modes}
        timings = {m: [] for m in timed}
        first = {}
        for r in range(rounds):
            cache = os.path.join(work, f"cache{r}")
            for mode in modes:
                wall, timing, files = run_app(paths, mode, cache, work, f"{mode}{r}", scale,
                                              program)
                walls[mode].append(wall)
                if timing:
                    timings[mode].append(timing)
                if r == 0:
                    first[mode] = files
        # Every path gives the same stacks and the same findings.
        stacks = {m: read_stacks(first[m]["trace"]) for m in traced}
        sites = {m: read_sites(first[m]["json"]) for m in traced}
        if program is not None:
            stacks = {m: sorted(set(v)) for m, v in stacks.items()}
            sites = {m: sorted(set(v), key=repr) for m, v in sites.items()}
        same_stacks = all(stacks[m] == stacks["off"] for m in traced)
        same_sites = all(sites[m] == sites["off"] for m in traced)
        if program is None:
            failed |= not (same_stacks and same_sites)
        differ = sum(len(set(stacks[m]) ^ set(stacks["off"])) for m in traced)

        t0 = timings["off"][0]
        name = "exit_app (scale %d)" % scale if program is None else " ".join(program)
        say(f"## Exit time: {name}, {rounds} interleaved rounds, medians")
        say()
        say(f"{t0.get('addresses', '?')} addresses in {t0.get('modules', '?')} modules, "
            f"{len(stacks['off'])} stacks, {len(sites['off'])} findings; stacks identical "
            f"across {', '.join(traced)}: {'yes' if same_stacks else f'NO ({differ} differ)'}; "
            f"findings' sites and frames identical: {'yes' if same_sites else 'NO'}")
        say()
        labels = {"bare": "bare", "floor": "CUPTI floor", "plain": "no trace, cache warm",
                  "old": "old finisher", "off": "cache off",
                  "cold": "cache cold", "warm": "cache warm"}
        say("| measure | " + " | ".join(labels[m] for m in modes) + " |")
        say("|---" * (len(modes) + 1) + "|")
        say("| process wall s | " + " | ".join(f"{median(walls[m]):.3f}" for m in modes) + " |")
        say("| / bare | 1.000x | " + " | ".join(
            f"{median(walls[m]) / median(walls['bare']):.3f}x" for m in modes[1:]) + " |")
        skip = "| " * (len(modes) - len(timed))
        for key, label in (("symbolize", "symbolize ms"), ("report", "  report modules"),
                           ("open", "  open files"), ("symbol tables", "  symbol tables"),
                           ("symbols", "  symbol lookups"), ("lines", "  line tables"),
                           ("inlined", "  inlined calls"), ("names", "  names (demangle)"),
                           ("cache", "  cache read/write"), ("collect", "collect ms"),
                           ("total", "exit total ms")):
            say(f"| {label} {skip}| " + " | ".join(
                f"{median([t[key] for t in timings[m]]):.1f}" for m in timed) + " |")
        say(f"| addresses resolved / from cache {skip}| " + " | ".join(
            f"{timings[m][0].get('resolved', '?')} / {timings[m][0].get('hits', '?')}"
            for m in timed) + " |")
        base = median([t["total"] for t in timings["off"]])
        say(f"| exit total / cache off {skip}| " + " | ".join(
            f"{median([t['total'] for t in timings[m]]) / base:.3f}x" for m in timed) + " |")
        say()

        say("## Symbolization steps: the trace's native frames")
        say()
        rc, out, err = symbench(paths, ["--trace", first["off"]["trace"]], rounds)
        for line in out.splitlines():
            say(line)
        if rc != 0:
            failed = True
            say(f"symbench failed ({rc}): {err.strip()[-2000:]}")
        say()
        if modules:
            say(f"## Symbolization steps: {per_module} addresses in each of {len(modules)} "
                "large libraries (a stand-in for a PyTorch process)")
            say()
            say("modules: " + ", ".join(os.path.basename(m) for m in modules))
            say()
            rc, out, err = symbench(paths, ["--per-module", str(per_module)] + modules, rounds)
            for line in out.splitlines():
                say(line)
            if rc != 0:
                failed = True
                say(f"symbench failed ({rc}): {err.strip()[-2000:]}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    save_report(report)
    if failed:
        print("run.py: results differ between paths (see above)", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
