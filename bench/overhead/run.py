"""run.py: the driver behind bench/overhead/run.sh (read its header for usage).

Every round runs each workload once per variant, in an order that rotates from round to
round, so slow drifts of the machine (clocks, temperature, neighbours) fall on all variants
alike. Results are medians over the rounds, and per variant the median of the rounds' paired
ratios to bare with a bootstrap 95% interval (pairstats.py). Standard library only.
"""
import datetime
import glob
import os
import re
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pairstats import bootstrap_median, ratio_summary, resolves  # noqa: E402

LAUNCH_TARGET = 1.5      # (syncscope - bare) / (floor - bare), ns per launch
WALL_TARGET = 1.03       # syncscope / bare wall time
RESULT_LINE = re.compile(r"^bench: (\S+) ([0-9.eE+-]+) (\d+)\s*$", re.M)
FLOOR_LINE = re.compile(r"^cupti_floor: (\d+) records", re.M)


def fail(message):
    sys.exit(f"bench/overhead: {message}")


def env_int(name, default):
    text = os.environ.get(name, "")
    if not text:
        return default
    if not text.isdigit() or int(text) <= 0:
        fail(f"{name} must be a positive integer, not '{text}'")
    return int(text)


# bare; the CUPTI floor (the interposer's default activity kinds; also with every runtime API
# callback, without kernel records, with kernel records only, or with synchronization records
# too); syncscope (also with SYNCSCOPE_KERNEL_ACTIVITY=0, i.e. `--no-kernel-activity`, and
# writing a trace, which adds synchronization records).
# Each variant's settings on top of its tool's ({scratch} and {tag} name the run's files).
VARIANT_ENV = {
    "bare": {},
    "floor": {},
    "floorcb": {"SYNCSCOPE_BENCH_FLOOR_CALLBACKS": "1"},
    "floor_nokernel": {"SYNCSCOPE_BENCH_FLOOR_KINDS": "memcpy,memset"},
    "floor_kernel": {"SYNCSCOPE_BENCH_FLOOR_KINDS": "kernel"},
    "floor_sync": {"SYNCSCOPE_BENCH_FLOOR_KINDS": "kernel,memcpy,memset,sync"},
    "syncscope": {},
    "syncscope_nokernel": {"SYNCSCOPE_KERNEL_ACTIVITY": "0"},
    "syncscope_trace": {"SYNCSCOPE_TRACE": "{scratch}/{tag}.sstrace"},
    "syncscope_nopointers": {"SYNCSCOPE_POINTERS": "0"},
    # The light mode (docs/run.md, "Modes"), and the light mode with a full window of 5 s every
    # 120 s; "syncscope" is the full mode.
    "light": {"SYNCSCOPE_MODE": "light"},
    "sampled": {"SYNCSCOPE_SAMPLE": "5s/120s"},
    # Full windows of 1 s every 2 s (the first 2 s after the first CUDA call): what a window
    # costs, against light and syncscope, in a run of a few seconds.
    "sampled_dense": {"SYNCSCOPE_SAMPLE": "1s/2s"},
}
VARIANTS = tuple(VARIANT_ENV)
# The light mode's target on the launch-bound workloads (issue: always-on light mode).
LIGHT_TARGET = 1.02


def observed(variant):
    """Whether 'variant' runs under libsyncscope.so."""
    return variant.startswith("syncscope") or variant in ("light", "sampled", "sampled_dense")


class Workload:
    def __init__(self, name, argv, metric, description):
        self.name = name
        self.argv = argv
        self.metric = metric
        self.description = description


def workloads(build, python):
    overhead = os.path.join(build, "bench", "overhead")
    here = os.path.dirname(os.path.abspath(__file__))
    launches = env_int("BENCH_LAUNCHES", 200000)
    pipeline_args = os.environ.get("BENCH_PIPELINE_ARGS", "40 16 16384").split()
    small_args = ["300", "64", "1024"]
    steps = env_int("BENCH_MLP_STEPS", 2000)
    return {
        "launch": Workload("launch", [os.path.join(overhead, "empty_launch"), str(launches)],
                           "ns_per_launch", f"{launches} empty-kernel launches, one stream"),
        # Not in the default list: the same with eight long-named kernels and a 256-byte
        # argument in turn, to see whether CUPTI's cost per launch depends on the kernel.
        "launch_mixed": Workload("launch_mixed",
                                 [os.path.join(overhead, "empty_launch"), str(launches), "mixed"],
                                 "ns_per_launch",
                                 f"{launches} launches of 8 long-named kernels, one stream"),
        "pipeline": Workload("pipeline", [os.path.join(overhead, "pipeline")] + pipeline_args,
                             "pipeline_ms",
                             "chunked H2D->kernel->D2H, 2 streams, pinned (passes chunks KiB: "
                             + " ".join(pipeline_args) + ")"),
        # Not in the default list: 1 MiB chunks, an operation every ~10 us, where CUPTI's own
        # per-operation cost (the floor) dominates; measured to show syncscope adds nothing to it.
        "pipeline_small": Workload("pipeline_small",
                                   [os.path.join(overhead, "pipeline")] + small_args,
                                   "pipeline_ms",
                                   "chunked H2D->kernel->D2H, 2 streams, pinned, small chunks "
                                   "(passes chunks KiB: " + " ".join(small_args) + "); no target"),
        "mlp": Workload("mlp", [python, os.path.join(here, "mlp_train.py"), str(steps)],
                        "train_ms", f"PyTorch MLP training, {steps} steps"),
    }


def floor_library_path(floor):
    """LD_LIBRARY_PATH the floor needs when its libcupti is not where it was linked ("" when
    it resolves as built); fails when no libcupti.so.13 can be found."""
    try:
        ldd = subprocess.run(["ldd", floor], capture_output=True, text=True).stdout
    except OSError:
        return ""
    if "not found" not in ldd:
        return ""
    roots = [os.environ.get("CUDA_HOME", ""), os.environ.get("CUDA_PATH", ""),
             "/usr/local/cuda"] + sorted(glob.glob("/usr/local/cuda-*"))
    for root in [r for r in roots if r]:
        for sub in ("lib64", "lib", "targets/x86_64-linux/lib", "extras/CUPTI/lib64"):
            if glob.glob(os.path.join(root, sub, "libcupti.so.*")):
                return os.path.join(root, sub)
    fail(f"{floor} cannot find its libcupti ({ldd.strip()}); set LD_LIBRARY_PATH")
    return ""


class Runner:
    def __init__(self, floor, preload, scratch):
        self.floor = floor
        self.floor_path = floor_library_path(floor) if os.path.isfile(floor) else ""
        self.preload = preload
        self.scratch = scratch
        self.count = 0
        self.cpu_seconds = 0.0  # user + system time of the last run's process

    def environment(self, variant, tag):
        env = dict(os.environ)
        env.pop("LD_PRELOAD", None)
        for key in [k for k in env if k.startswith("SYNCSCOPE_")]:
            del env[key]
        output = None
        if variant.startswith("floor"):
            env["LD_PRELOAD"] = self.floor
            if self.floor_path:
                env["LD_LIBRARY_PATH"] = ":".join(
                    p for p in (self.floor_path, env.get("LD_LIBRARY_PATH", "")) if p)
            env["SYNCSCOPE_BENCH_FLOOR_VERBOSE"] = "1"
        elif observed(variant):
            env["LD_PRELOAD"] = self.preload
            output = os.path.join(self.scratch, f"{tag}.json")
            env["SYNCSCOPE_OUTPUT"] = output
            env["SYNCSCOPE_QUIET"] = "1"
        for key, value in VARIANT_ENV[variant].items():
            env[key] = value.format(scratch=self.scratch, tag=tag)
        return env, output

    def run(self, workload, variant):
        """Runs once; returns (metric, process seconds, checksum, problem or None)."""
        self.count += 1
        tag = f"{workload.name}-{variant}-{self.count}"
        env, output = self.environment(variant, tag)
        argv = workload.argv
        if os.environ.get("BENCH_CPU"):
            argv = ["taskset", "-c", os.environ["BENCH_CPU"]] + argv
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.monotonic()
        try:
            proc = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=600)
        except subprocess.TimeoutExpired:
            return None, None, None, "timed out after 600 s"
        seconds = time.monotonic() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        self.cpu_seconds = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        found = RESULT_LINE.findall(proc.stdout)
        if proc.returncode != 0 or not found or found[-1][0] != workload.metric:
            tail = (proc.stdout + proc.stderr).strip().splitlines()[-5:]
            return None, None, None, f"exit {proc.returncode}: " + " | ".join(tail)
        _, value, check = found[-1]
        problem = None
        if variant.startswith("floor"):
            m = FLOOR_LINE.search(proc.stderr)
            if not m or int(m.group(1)) == 0:
                problem = "CUPTI floor not active: " + proc.stderr.strip()[-200:]
        elif observed(variant):
            if not os.path.isfile(output):
                problem = "syncscope wrote no result (not attached?): " + proc.stderr.strip()[-200:]
        return float(value), seconds, int(check), problem


def median(values):
    return statistics.median(values) if values else None


def fmt(value, digits=1):
    return "n/a" if value is None else f"{value:.{digits}f}"


def machine_line():
    gpu = "unknown GPU"
    if shutil.which("nvidia-smi"):
        try:
            out = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version",
                                  "--format=csv,noheader"], capture_output=True, text=True,
                                 timeout=30).stdout.strip().splitlines()
            if out:
                gpu = out[0].replace(", ", ", driver ")
        except (OSError, subprocess.SubprocessError):
            pass
    return f"{gpu}; {os.cpu_count()} CPUs; {os.uname().release}"


def main():
    if len(sys.argv) not in (2, 3):
        fail("usage: run.sh BUILD_DIR [LIBSYNCSCOPE]")
    build = os.path.abspath(sys.argv[1])
    preload = os.path.abspath(sys.argv[2] if len(sys.argv) == 3
                              else os.path.join(build, "interpose", "libsyncscope.so"))
    floor = os.path.join(build, "bench", "overhead", "libcupti_floor.so")
    rounds = env_int("BENCH_ROUNDS", 5)
    python = os.environ.get("BENCH_PYTHON", "python3")
    names = os.environ.get("BENCH_WORKLOADS", "launch pipeline mlp").split()
    variants = os.environ.get("BENCH_VARIANTS", "bare floor syncscope").split()
    known = workloads(build, python)
    for name in names:
        if name not in known:
            fail(f"unknown workload '{name}' ({', '.join(known)})")
    for v in variants:
        if v not in VARIANTS:
            fail(f"unknown variant '{v}' ({', '.join(VARIANTS)})")
    if "bare" not in variants:
        fail("BENCH_VARIANTS must include bare")
    if any(v.startswith("floor") for v in variants) and not os.path.isfile(floor):
        fail(f"{floor} not found: configure BUILD_DIR with nvcc and libcupti available")
    if any(observed(v) for v in variants) and not os.path.isfile(preload):
        fail(f"{preload} not found: build the interposer or pass its path")
    chosen = []
    for name in names:
        w = known[name]
        if name == "mlp":
            probe = subprocess.run([python, "-c", "import torch, sys; "
                                    "sys.exit(0 if torch.cuda.is_available() else 1)"],
                                   capture_output=True, text=True)
            if probe.returncode != 0:
                print(f"bench/overhead: skipping mlp: {python} has no PyTorch with a GPU",
                      file=sys.stderr)
                continue
        elif not os.path.isfile(w.argv[0]):
            fail(f"{w.argv[0]} not found: build BUILD_DIR (bench/ needs nvcc)")
        chosen.append(w)

    command = "bench/overhead/run.sh " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    settings = " ".join(f"{k}={shlex.quote(os.environ[k])}" for k in sorted(os.environ)
                        if k.startswith("BENCH_") and k != "BENCH_OUT")
    if settings:
        command = settings + " " + command
    started = datetime.datetime.now(datetime.timezone.utc)
    scratch = tempfile.mkdtemp(prefix="syncscope-bench-")
    runner = Runner(floor, preload, scratch)
    samples = {(w.name, v): [] for w in chosen for v in variants}
    walls = {(w.name, v): [] for w in chosen for v in variants}
    cpus = {(w.name, v): [] for w in chosen for v in variants}
    checks = {w.name: set() for w in chosen}
    by_round = {(w.name, v): {} for w in chosen for v in variants}
    problems = []
    bound = float(os.environ.get("BENCH_SECONDS", "0") or 0)
    try:
        for w in chosen:
            value, _, _, problem = runner.run(w, "bare")
            print(f"warm-up {w.name}: {fmt(value)} {w.metric}"
                  + (f" ({problem})" if problem else ""), file=sys.stderr, flush=True)
        first = time.monotonic()
        for r in range(rounds):
            # No round starts past BENCH_SECONDS, so that the summary is printed before an
            # outer time bound cuts the run: only whole rounds count.
            if bound and r and time.monotonic() - first > bound:
                print(f"BENCH_SECONDS: {r} rounds in {time.monotonic() - first:.0f} s",
                      file=sys.stderr, flush=True)
                rounds = r
                break
            for w in chosen:
                order = variants[r % len(variants):] + variants[:r % len(variants)]
                for v in order:
                    value, seconds, check, problem = runner.run(w, v)
                    if problem:
                        problems.append(f"round {r + 1} {w.name} {v}: {problem}")
                    if value is None:
                        print(f"round {r + 1} {w.name} {v}: FAILED", file=sys.stderr)
                        continue
                    samples[(w.name, v)].append(value)
                    by_round[(w.name, v)][r] = value
                    walls[(w.name, v)].append(seconds)
                    checks[w.name].add(check)
                    cpus[(w.name, v)].append(runner.cpu_seconds)
                    print(f"round {r + 1}/{rounds} {w.name:8} {v:9} {value:12.1f} "
                          f"{w.metric}  ({seconds:.2f} s process, {runner.cpu_seconds:.2f} s CPU)",
                          file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    lines = report(chosen, variants, samples, walls, checks, problems, rounds, command,
                   started)
    lines += paired(chosen, variants, by_round)
    text = "\n".join(lines) + "\n"
    print(text, end="")
    out = os.environ.get("BENCH_OUT")
    if out:
        with open(out + ".tmp", "w", encoding="utf-8") as f:
            f.write(text)
            f.write("\nRaw samples (metric per run, in run order; process seconds; CPU "
                    "seconds):\n")
            for (name, v), values in samples.items():
                f.write(f"  {name} {v}: {' '.join(fmt(x) for x in values)}; "
                        f"{' '.join(fmt(x, 2) for x in walls[(name, v)])}; "
                        f"{' '.join(fmt(x, 2) for x in cpus[(name, v)])}\n")
            # Each round's variant over that round's bare run (rounds where both ran).
            for (name, v), values in samples.items():
                bare = samples[(name, "bare")]
                if v != "bare" and values and len(values) == len(bare):
                    f.write(f"  {name} {v}/bare per round: "
                            f"{' '.join(f'{x / b:.3f}' for x, b in zip(values, bare))}\n")
        os.replace(out + ".tmp", out)
    return 1 if problems else 0


def paired(chosen, variants, by_round):
    """Per workload and variant, each round's value over the same round's bare value: n, the
    median of those ratios and its bootstrap 95% interval (bench/overhead/pairstats.py), and
    the same pairs' differences (ns per launch, or ms); the light variants' ratio is held
    against LIGHT_TARGET where the workload has one. The order within a round rotates, so a
    ratio compares two runs a few seconds apart."""
    lines = []
    for w in chosen:
        bare = by_round[(w.name, "bare")]
        unit = "ns" if w.metric == "ns_per_launch" else "ms"
        for v in variants:
            if v == "bare":
                continue
            both = sorted(set(bare) & set(by_round[(w.name, v)]))
            if not both:
                continue
            ratios = [by_round[(w.name, v)][r] / bare[r] for r in both]
            added = [by_round[(w.name, v)][r] - bare[r] for r in both]
            s = ratio_summary(ratios)
            low, high = bootstrap_median(added)
            verdict = ""
            if v in ("light", "sampled") and w.name in ("mlp", "pipeline"):
                verdict = (f" target {LIGHT_TARGET} "
                           + (resolves(s, LIGHT_TARGET) if s["n"] >= 3 else "not resolved (n < 3)"))
            lines.append(f"bench: overhead {w.name} {v}/bare n {s['n']} median {s['median']:.4f} "
                         f"ci95 {s['ci95'][0]:.4f} {s['ci95'][1]:.4f} min {s['min']:.4f} max "
                         f"{s['max']:.4f} added_{unit} {statistics.median(added):.1f} ci95 "
                         f"{low:.1f} {high:.1f}{verdict}")
    return [""] + lines if lines else []


def report(chosen, variants, samples, walls, checks, problems, rounds, command, started):
    med = {key: median(vals) for key, vals in samples.items()}
    wall = {key: median(vals) for key, vals in walls.items()}
    lines = [f"Interposer overhead, {started:%Y-%m-%d %H:%M} UTC, {machine_line()}",
             f"Command: {command}",
             f"Medians of {rounds} interleaved rounds.", ""]
    header = "| workload | measure | " + " | ".join(variants) + " | result | target |"
    lines += [header, "|" + "---|" * (header.count("|") - 1)]
    for w in chosen:
        cells = [fmt(med[(w.name, v)]) for v in variants]
        if w.metric == "ns_per_launch":
            bare = med[(w.name, "bare")]
            added = {v: (med[(w.name, v)] - bare if med[(w.name, v)] is not None and
                         bare is not None else None) for v in variants}
            lines.append(f"| {w.name} | ns per launch | " + " | ".join(cells) + " | | |")
            lines.append(f"| {w.name} | added ns per launch | "
                         + " | ".join(fmt(added[v]) for v in variants) + " | | |")
            if w.name == "launch" and "floor" in variants and "syncscope" in variants:
                ratio = None
                if added["floor"] and added["syncscope"] is not None and added["floor"] > 0:
                    ratio = added["syncscope"] / added["floor"]
                verdict = "n/a" if ratio is None else (
                    "PASS" if ratio <= LAUNCH_TARGET else "FAIL")
                lines.append("| launch | added: syncscope / floor | "
                             + " | ".join("" for _ in variants)
                             + f" | {fmt(ratio, 2)}x {verdict} | <= {LAUNCH_TARGET}x |")
        else:
            lines.append(f"| {w.name} | in-program ms | " + " | ".join(cells) + " | | |")
            bare = med[(w.name, "bare")]
            ratios = [None if bare is None or med[(w.name, v)] is None else med[(w.name, v)] / bare
                      for v in variants]
            verdict = ""
            has_target = w.name != "pipeline_small"
            if "syncscope" in variants:
                r = ratios[variants.index("syncscope")]
                verdict = "n/a" if r is None else (
                    f"{r:.3f}x " + ("" if not has_target else
                                    "PASS" if r <= WALL_TARGET else "FAIL"))
            lines.append(f"| {w.name} | / bare | " + " | ".join(fmt(x, 3) for x in ratios)
                         + f" | {verdict} | " + (f"<= {WALL_TARGET}x" if has_target else "")
                         + " |")
            if "light" in variants and has_target:
                r = ratios[variants.index("light")]
                lines.append(f"| {w.name} | light / bare | " + " | ".join("" for _ in variants)
                             + " | " + ("n/a" if r is None else f"{r:.3f}x " + (
                                 "PASS" if r <= LIGHT_TARGET else "FAIL"))
                             + f" | <= {LIGHT_TARGET}x |")
            if "syncscope" in variants and "floor" in variants:
                f_ms, s_ms = med[(w.name, "floor")], med[(w.name, "syncscope")]
                lines.append(f"| {w.name} | syncscope / floor | " + " | ".join("" for _ in variants)
                             + " | " + ("n/a" if not f_ms or s_ms is None else
                                        f"{s_ms / f_ms:.3f}x") + " | |")
        pbare = wall[(w.name, "bare")]
        lines.append(f"| {w.name} | process s (with start-up, exit) | "
                     + " | ".join(fmt(wall[(w.name, v)], 2) for v in variants) + " | "
                     + ("" if pbare is None or wall.get((w.name, "syncscope")) is None else
                        f"{wall[(w.name, 'syncscope')] / pbare:.3f}x") + " | |")
    lines.append("")
    for w in chosen:
        same = "identical" if len(checks[w.name]) == 1 else (
            f"DIFFER ({len(checks[w.name])} distinct checksums)" if checks[w.name] else "none")
        lines.append(f"{w.name}: {w.description}; results across all runs: {same}")
    if problems:
        lines.append("")
        lines.append("PROBLEMS (these measurements are not valid):")
        lines += ["  " + p for p in problems]
    return lines


if __name__ == "__main__":
    sys.exit(main())
