"""forked.py: what the light mode adds to a real Python workload once its imports are done, in
many short pairs of forked children (docs/studies/performance.md, "Modes").

Usage: python3 forked.py LIBSYNCSCOPE WORKDIR [--preimport "MODULES"] [--seconds T (80)]
                         [--pairs N (200)] [--cpus LIST] [--variants "light load ..."]
                         [--steps "light/noop ..."] [--timing] [--fake]
                         -- SCRIPT [:: SCRIPT ...]

A whole process of tests/gpu/real/resnet_train.py or gpt2_generate.py is mostly the import of
PyTorch and its libraries (8 to 13 s of a 10 to 16 s process on the H200), CPU work whose speed
moved by up to 58% between runs on the same CPUs: whole processes in pairs (bench/exit BENCH_WHOLE)
cannot resolve a cost of 1% in minutes. Here one process imports the modules of --preimport once,
without touching the GPU, and forks one child per run: the child makes its own CUDA context,
runs SCRIPT as __main__ and exits (CUDA's teardown, and a light child's finisher). A light child
sets CUDA_INJECTION64_PATH=LIBSYNCSCOPE and SYNCSCOPE_MODE=light before its first CUDA call, so
the driver loads syncscope at cuInit (docs/run.md, the path for programs that cannot be
preloaded; the callbacks are the same as under LD_PRELOAD); a bare child sets nothing. What is
left out is what no callback can touch: the interpreter's start and the import.

--variants (default "light") names the children that run beside the bare one: light, or a
stop of the measurement aid SYNCSCOPE_LIGHT_PROBE (load, subscribe, noop, noop_runtime,
noop_driver: docs/run.md), which take the light mode part of the way, to tell where its cost
is (docs/studies/performance.md, "Where the light mode's cost is"); --steps "A/B ..." adds the
paired ratio of two of them. --timing sets SYNCSCOPE_TIMING=1 in the light children, whose
timing lines (the start, the callbacks' own time, the exit) go to their logs.

Per pair, each SCRIPT runs bare and each variant, the order rotating and reversing from pair to
pair (ABBA for one variant; bench/overhead/mlp_lockstep.py's round_order); no pair starts after
T seconds (counted after one discarded run of each SCRIPT bare and light, or the first
variant without light, which warms the page cache and the symbol cache); every child runs on the CPUs of --cpus. A
child's wall time runs from the fork to its reaping, its CPU time is its own and its waited
children's (a DataLoader's workers), and it reports the time SCRIPT took, the rest being its
exit. A light child must leave its result (SYNCSCOPE_OUTPUT, written by its finisher) and have
the library in its memory map (a probe child the library only: it records nothing), a bare
child must not; every child of a SCRIPT must print the same standard output. --fake (for
tests without a GPU) drops the checks of the library and the result.

Prints one line per child and, per SCRIPT, variant (and step of --steps) and measure (wall,
script, exit, cpu):

  bench: forked NAME light/bare MEASURE n N median R ci95 LO HI added_ms D ci95 DLO DHI \
    bare_ms B light_ms L

R being the median over the pairs of the variant's time over the same pair's bare time, D the
median of their differences (what the variant adds, in ms), each with a bootstrap 95% interval
(bench/overhead/pairstats.py), B and L the medians of each side (for a step A/B, B is B's and L
A's). Exit status 0, 1 when a child
failed (the pairs before it are still summarized), 2 on usage errors.
"""
import argparse
import importlib
import json
import os
import resource
import runpy
import statistics
import sys
import time
import traceback

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "overhead"))
from pairstats import bootstrap_median, parse_cpus, ratio_summary, read_to_end  # noqa: E402
from mlp_lockstep import PROBES, VARIANTS, round_order  # noqa: E402

MEASURES = ("wall", "script", "exit", "cpu")


def child(opts, script, variant, output, log, write_end):
    """The forked child: SCRIPT as __main__, its standard output to 'log'.out and its standard
    error to 'log'; writes one JSON line (the
    script's seconds, whether the library is mapped) to 'write_end', then leaves by sys.exit so
    that the interpreter's exit, CUDA's teardown and a light child's finisher run."""
    if variant != "bare":
        os.environ.update({"CUDA_INJECTION64_PATH": opts.library, "SYNCSCOPE_OUTPUT": output,
                           "SYNCSCOPE_QUIET": "1",
                           "SYNCSCOPE_SYMBOL_CACHE": os.path.join(opts.workdir, "cache")})
        os.environ.update(VARIANTS[variant])
        if opts.timing:
            os.environ["SYNCSCOPE_TIMING"] = "1"
    sys.stdout.flush()
    sys.stderr.flush()
    for target, path in ((1, log + ".out"), (2, log)):
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(fd, target)
        os.close(fd)
    sys.argv = [script]
    sys.path.insert(0, os.path.dirname(script))
    status = 0
    start = time.monotonic()
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit as e:
        status = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    seconds = time.monotonic() - start
    sys.stdout.flush()
    with open("/proc/self/maps", encoding="utf-8") as handle:
        loaded = os.path.basename(opts.library) in handle.read()
    os.write(write_end, (json.dumps({"script": seconds, "loaded": loaded, "status": status})
                         + "\n").encode())
    os.close(write_end)
    sys.exit(status)


def run_one(opts, script, variant, tag):
    """Forks a child for one run; returns its times (s) and output, or raises RuntimeError."""
    output = os.path.join(opts.workdir, f"{tag}.json")
    log = os.path.join(opts.workdir, f"{tag}.log")
    read_end, write_end = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        try:
            child(opts, script, variant, output, log, write_end)
        except SystemExit:
            raise
        except BaseException:  # never back into the parent's loop
            traceback.print_exc()
            os._exit(1)
        os._exit(0)
    os.close(write_end)
    text = read_to_end(read_end)
    _, status, usage = os.wait4(pid, 0)
    wall = time.monotonic() - start
    code = os.waitstatus_to_exitcode(status)
    if code != 0 or not text:
        raise RuntimeError(f"{tag}: the child exited {code} (its output: {log})")
    result = json.loads(text)
    if not opts.fake:
        if result["loaded"] != (variant != "bare"):
            raise RuntimeError(f"{tag}: {os.path.basename(opts.library)} "
                               f"{'not ' if variant != 'bare' else ''}loaded in a {variant} run")
        if variant == "light" and not os.path.isfile(output):
            raise RuntimeError(f"{tag}: the light run left no result {output} (not observed?)")
    with open(log + ".out", encoding="utf-8", errors="replace") as handle:
        printed = handle.read().strip()  # the workload's standard output (stderr: 'log')
    return {"wall": wall, "script": result["script"], "exit": wall - result["script"],
            "cpu": usage.ru_utime + usage.ru_stime, "stdout": printed}


def summarize(name, pairs, top="light", base="bare"):
    """The 'bench: forked' lines of one SCRIPT's pairs, variant 'top' against 'base'."""
    lines = []
    for measure in MEASURES:
        bare = [p[base][measure] for p in pairs]
        light = [p[top][measure] for p in pairs]
        ratios = [a / b for a, b in zip(light, bare)]
        added = [(a - b) * 1e3 for a, b in zip(light, bare)]
        s = ratio_summary(ratios)
        low, high = bootstrap_median(added)
        lines.append(f"bench: forked {name} {top}/{base} {measure} n {s['n']} median "
                     f"{s['median']:.4f} ci95 {s['ci95'][0]:.4f} {s['ci95'][1]:.4f} added_ms "
                     f"{statistics.median(added):.1f} ci95 {low:.1f} {high:.1f} bare_ms "
                     f"{statistics.median(bare) * 1e3:.1f} light_ms "
                     f"{statistics.median(light) * 1e3:.1f}")
    return lines


def main(argv):
    args = argv[1:]
    scripts = []
    if "--" in args:
        words = args[args.index("--") + 1:]
        args = args[:args.index("--")]
        scripts = [w for w in words if w != "::"]
    parser = argparse.ArgumentParser(prog="forked.py")
    parser.add_argument("library")
    parser.add_argument("workdir")
    parser.add_argument("--preimport", default="")
    parser.add_argument("--seconds", type=float, default=80.0)
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--cpus", default="")
    parser.add_argument("--variants", default="light")
    parser.add_argument("--steps", default="")
    parser.add_argument("--timing", action="store_true")
    parser.add_argument("--fake", action="store_true")
    try:
        opts = parser.parse_args(args)
    except SystemExit:
        return 2
    opts.variants = opts.variants.split()
    steps = [tuple(step.split("/")) for step in opts.steps.split()]
    allowed = ("light",) + PROBES
    bad = [v for v in opts.variants if v not in allowed]
    if bad or not opts.variants or len(set(opts.variants)) != len(opts.variants):
        what = bad[0] if bad else " ".join(opts.variants) or "none"
        print(f"forked.py: --variants: {what}: each once, of {', '.join(allowed)}",
              file=sys.stderr)
        return 2
    bad = [s for s in steps if len(s) != 2 or s[0] == s[1] or not set(s) <= set(opts.variants)]
    if bad:
        print(f"forked.py: --steps: '{'/'.join(bad[0])}' is not A/B, two variants of "
              "--variants", file=sys.stderr)
        return 2
    if not scripts:
        print("forked.py: no SCRIPT after '--'", file=sys.stderr)
        return 2
    if opts.pairs <= 0 or opts.seconds <= 0:
        print("forked.py: --pairs and --seconds must be positive", file=sys.stderr)
        return 2
    opts.library = os.path.abspath(opts.library)
    if not os.path.isfile(opts.library):
        print(f"forked.py: {opts.library}: no such file", file=sys.stderr)
        return 2
    scripts = [os.path.abspath(s) for s in scripts]
    for script in scripts:
        if not os.path.isfile(script):
            print(f"forked.py: {script}: no such file", file=sys.stderr)
            return 2
    if opts.cpus:
        os.sched_setaffinity(0, parse_cpus(opts.cpus))
    opts.workdir = os.path.abspath(opts.workdir)
    os.makedirs(os.path.join(opts.workdir, "cache"), exist_ok=True)
    started = time.monotonic()
    # A module that asks torch.cuda.is_available() at its import would initialize the driver
    # in this process, and no forked child could use CUDA after it: NVML answers instead.
    os.environ["PYTORCH_NVML_BASED_CUDA_CHECK"] = "1"
    for module in opts.preimport.split():
        importlib.import_module(module)
    del os.environ["PYTORCH_NVML_BASED_CUDA_CHECK"]
    torch = sys.modules.get("torch")
    if torch is not None and torch.cuda.is_initialized():
        print("forked.py: CUDA was initialized by the imports, before the fork", file=sys.stderr)
        return 1
    with open("/proc/self/maps", encoding="utf-8") as handle:
        if "libcuda.so" in handle.read():
            print("forked.py: note: the imports loaded libcuda.so (a child may fail to use "
                  "CUDA)", flush=True)
    print(f"imported {opts.preimport or 'nothing'} in {time.monotonic() - started:.1f} s",
          flush=True)
    names = [os.path.basename(s) for s in scripts]
    pairs = {name: [] for name in names}
    expected = {}
    failed = None
    # A discarded run of each SCRIPT bare and light (or the first variant, without light): the
    # first child reads the CUDA libraries (and CUPTI) from disk and a light child's symbol
    # cache starts empty.
    kinds = ["bare"] + opts.variants
    warm = ["bare", "light" if "light" in opts.variants else opts.variants[0]]
    try:
        for script, name in zip(scripts, names):
            for variant in warm:
                result = run_one(opts, script, variant, f"warm-{name}-{variant}")
                expected.setdefault(name, result["stdout"])
                print(f"warm-up {name} {variant}: wall {result['wall']:.3f} s", flush=True)
    except RuntimeError as problem:
        print(f"forked.py: {problem}", file=sys.stderr)
        return 1
    started = time.monotonic()
    for pair in range(opts.pairs):
        if pair and time.monotonic() - started > opts.seconds:
            break
        order = [kinds[k] for k in round_order(len(kinds), pair)]
        try:
            for script, name in zip(scripts, names):
                times = {}
                for variant in order:
                    result = run_one(opts, script, variant, f"{pair:03d}-{name}-{variant}")
                    expected.setdefault(name, result["stdout"])
                    if result["stdout"] != expected[name]:
                        raise RuntimeError(f"pair {pair + 1} {name} {variant}: its output "
                                           f"{result['stdout']!r} is not the first run's "
                                           f"{expected[name]!r}")
                    times[variant] = result
                    print(f"pair {pair + 1} {name} {variant}: wall {result['wall']:.3f} s, "
                          f"script {result['script']:.3f} s, exit {result['exit']:.3f} s, "
                          f"CPU {result['cpu']:.3f} s", flush=True)
                pairs[name].append(times)
        except RuntimeError as problem:
            failed = problem
            break
    count = min(len(p) for p in pairs.values())
    print(f"{count} pairs of {', '.join(names)} in {time.monotonic() - started:.0f} s",
          flush=True)
    for name in names:
        for top, base in [(v, "bare") for v in opts.variants] + steps:
            for line in summarize(name, pairs[name], top, base) if pairs[name] else []:
                print(line, flush=True)
    if failed is not None:
        print(f"forked.py: {failed}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
