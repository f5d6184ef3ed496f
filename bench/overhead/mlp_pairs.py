"""mlp_pairs.py: the light mode's cost on the launch-bound MLP of mlp_train.py, measured in
many short paired runs (docs/studies/performance.md, "Modes").

Usage: python3 mlp_pairs.py LIBSYNCSCOPE WORKDIR [--pairs N (40)] [--steps S (600)]
                            [--seconds T (110)] [--cpus LIST]

Run as separate processes, each importing PyTorch (about 10 s), the rounds of
bench/overhead/run.sh cost so much that five pairs fill a device run, and their ratio moved
from 0.90 to 1.24 between pairs. Here one process imports PyTorch once, without touching the
GPU, and forks a child per run: the child makes its own CUDA context, trains S steps and
reports mlp_train.train's measure (the median window of 100 steps, times the windows). A
light child sets CUDA_INJECTION64_PATH=LIBSYNCSCOPE and SYNCSCOPE_MODE=light before its first
CUDA call, so the driver loads the interposer at cuInit; a bare child sets nothing. Pairs alternate
their order (bare first, then light first), every child runs on the CPUs of --cpus (default:
the process's own), and no pair starts after T seconds. A light child must leave its result
(SYNCSCOPE_OUTPUT, written by the finisher at its exit) and the final loss of every child must
be the bare one's: otherwise the run fails.

Prints one line per pair and

  bench: mlp_pairs N median RATIO q1 Q1 q3 Q3 min MIN max MAX ci95 LO HI bare_ms B light_ms L

RATIO being the median over the pairs of light/bare, LO..HI a bootstrap 95% interval of that
median (2000 resamples, a fixed seed), B and L the medians of each side. Exit status 0, 1 when
a run failed, 2 on usage errors.
"""
import argparse
import json
import os
import statistics
import sys
import time
import traceback

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mlp_train  # noqa: E402  (imports torch: no CUDA call before the fork)
from pairstats import bootstrap_median, quantile, read_to_end  # noqa: E402

def child(variant, steps, library, output, cache, write_end):
    """The forked child: one run of the MLP, its result written to 'write_end' as one JSON line;
    leaves by sys.exit, so that a light child's finisher writes its result at exit."""
    if variant == "light":
        os.environ.update({"CUDA_INJECTION64_PATH": library, "SYNCSCOPE_MODE": "light",
                           "SYNCSCOPE_OUTPUT": output, "SYNCSCOPE_QUIET": "1",
                           "SYNCSCOPE_SYMBOL_CACHE": cache})
    measured, elapsed, _, final = mlp_train.train(mlp_train.make_step(), steps)
    with open("/proc/self/maps", encoding="utf-8") as handle:
        loaded = os.path.basename(library) in handle.read()
    line = json.dumps({"measured_ms": measured, "elapsed_ms": elapsed,
                       "check": mlp_train.checksum(final), "loaded": loaded})
    os.write(write_end, (line + "\n").encode())
    os.close(write_end)
    sys.exit(0)


def run_one(opts, variant, tag):
    """Forks a child for one run; returns its result (a dict) or raises RuntimeError."""
    output = os.path.join(opts.workdir, f"{tag}.json")
    read_end, write_end = os.pipe()
    sys.stdout.flush()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        try:
            child(variant, opts.steps, opts.library, output,
                  os.path.join(opts.workdir, "cache"), write_end)
        except SystemExit:
            raise
        except BaseException:  # never back into the parent's loop
            traceback.print_exc()
            os._exit(1)
    os.close(write_end)
    text = read_to_end(read_end)
    _, status = os.waitpid(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0 or not text:
        raise RuntimeError(f"{tag}: the child exited {os.waitstatus_to_exitcode(status)}")
    result = json.loads(text)
    if result["loaded"] != (variant == "light"):
        raise RuntimeError(f"{tag}: {os.path.basename(opts.library)} "
                           f"{'not ' if variant == 'light' else ''}loaded in a {variant} run")
    if variant == "light" and not os.path.isfile(output):
        raise RuntimeError(f"{tag}: the light run left no result {output} (not observed?)")
    return result


def summary(ratios, bare, light):
    """The 'bench:' line of the pairs' ratios and each side's times."""
    ordered = sorted(ratios)
    low, high = bootstrap_median(ratios)
    return (f"bench: mlp_pairs {len(ratios)} median {statistics.median(ratios):.4f} "
            f"q1 {quantile(ordered, 0.25):.4f} q3 {quantile(ordered, 0.75):.4f} "
            f"min {ordered[0]:.4f} max {ordered[-1]:.4f} ci95 {low:.4f} {high:.4f} "
            f"bare_ms {statistics.median(bare):.1f} light_ms {statistics.median(light):.1f}")


def main(argv):
    parser = argparse.ArgumentParser(prog="mlp_pairs.py")
    parser.add_argument("library")
    parser.add_argument("workdir")
    parser.add_argument("--pairs", type=int, default=40)
    parser.add_argument("--steps", type=int, default=600)
    parser.add_argument("--seconds", type=float, default=110.0)
    parser.add_argument("--cpus", default="")
    try:
        opts = parser.parse_args(argv[1:])
    except SystemExit:
        return 2
    if opts.pairs <= 0 or opts.steps < mlp_train.LOG_EVERY or opts.seconds <= 0:
        print(f"mlp_pairs.py: --pairs and --seconds must be positive, --steps at least "
              f"{mlp_train.LOG_EVERY}", file=sys.stderr)
        return 2
    opts.library = os.path.abspath(opts.library)
    if not os.path.isfile(opts.library):
        print(f"mlp_pairs.py: {opts.library}: no such file", file=sys.stderr)
        return 2
    if opts.cpus:
        cpus = set()
        for part in opts.cpus.split(","):
            first, _, last = part.partition("-")
            cpus.update(range(int(first), int(last or first) + 1))
        os.sched_setaffinity(0, cpus)
    opts.workdir = os.path.abspath(opts.workdir)
    os.makedirs(os.path.join(opts.workdir, "cache"), exist_ok=True)
    if mlp_train.torch.cuda.is_initialized():
        print("mlp_pairs.py: CUDA was initialized before the fork", file=sys.stderr)
        return 1
    started = time.monotonic()
    ratios, bare, light, check = [], [], [], None
    for pair in range(opts.pairs):
        if time.monotonic() - started > opts.seconds:
            break
        order = ("bare", "light") if pair % 2 == 0 else ("light", "bare")
        times = {}
        try:
            for variant in order:
                result = run_one(opts, variant, f"{pair:02d}-{variant}")
                if check is None:
                    check = result["check"]
                if result["check"] != check:
                    raise RuntimeError(f"pair {pair} {variant}: final loss bits "
                                       f"{result['check']}, the first run's {check}")
                times[variant] = result["measured_ms"]
        except RuntimeError as problem:
            print(f"mlp_pairs.py: {problem}", file=sys.stderr)
            if ratios:  # what the pairs before it measured
                print(summary(ratios, bare, light), flush=True)
            return 1
        ratio = times["light"] / times["bare"]
        ratios.append(ratio)
        bare.append(times["bare"])
        light.append(times["light"])
        print(f"pair {pair + 1} ({order[0]} first): bare {times['bare']:.1f} ms, light "
              f"{times['light']:.1f} ms, light/bare {ratio:.4f}", flush=True)
    if not ratios:
        print("mlp_pairs.py: no pair ran", file=sys.stderr)
        return 1
    print(f"{len(ratios)} pairs of {opts.steps} steps in {time.monotonic() - started:.0f} s")
    print(summary(ratios, bare, light), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
