"""run.py: the driver behind bench/lint/run.sh (read its header for usage).

Every round runs each measurement once, in an order that rotates from round to round, so
slow drifts of the machine fall on all of them alike; results are medians over the rounds.
Peak memory is the largest resident set of any one process of a run (os.wait4), so for a
lint that forks workers it is the largest worker, and for a threaded one the whole process.
Standard library only.
"""
import datetime
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

from floor import (analyzer_args, analyzer_args_after, fmt, lang_of, machine_line, make_shims,
                   median, run_floor, timed)

# The lint options this benchmark relies on, in one place. A measurement whose option is
# missing from `syncscope lint --help` is reported as n/a.
LINT_JOBS = "-j"              # -j N: parse N translation units at once
LINT_NO_CACHE = "--no-cache"  # neither read nor write the per-file cache
LINT_CACHE_DIR = "--cache-dir"  # --cache-dir DIR: where the cache lives
LINT_BASE = ["lint", "--fail-on", "none", "--keep-going", "--format", "json"]

TARGET_FLOOR = 1.15   # lint -j1 cold / floor
TARGET_WARM = 0.10    # warm re-run / cold run
TARGET_SPEEDUP = 1.8  # lint -j1 / lint -j2


def fail(message):
    sys.exit(f"bench/lint: {message}")


def env_int(name, default):
    text = os.environ.get(name, "")
    if not text:
        return default
    if not text.isdigit() or int(text) <= 0:
        fail(f"{name} must be a positive integer, not '{text}'")
    return int(text)


def floor_commands(corpus, cuda, shims, clang):
    """The floor's commands: each entry's arguments less -c, -o and the file, after what the
    analyzer adds for its language (floor.py)."""
    with open(os.path.join(corpus, "compile_commands.json"), encoding="utf-8") as f:
        entries = json.load(f)
    commands = []
    for e in entries:
        args = e["arguments"][1:]
        kept = []
        skip = False
        for a in args:
            if skip:
                skip = False
            elif a in ("-c",):
                continue
            elif a == "-o":
                skip = True
            elif a == e["file"] or a == os.path.relpath(e["file"], e["directory"]):
                continue
            else:
                kept.append(a)
        lang = lang_of(e["file"], args)
        before = analyzer_args(lang, cuda, shims)
        after = analyzer_args_after(lang, cuda, shims)
        commands.append((e["directory"],
                         [clang, "-fsyntax-only"] + before + kept + after + [e["file"]], e["file"]))
    return commands


def lint_summary(path):
    try:
        with open(path, encoding="utf-8") as f:
            summary = json.load(f).get("summary", {})
        return summary.get("findings"), summary.get("diagnostics")
    except (OSError, ValueError, AttributeError):
        return None, None


def run_lint(syncscope, corpus, scratch, jobs, supported, cache_dir=None, tag="run"):
    out = os.path.join(scratch, f"{tag}.json")
    argv = [syncscope] + LINT_BASE + ["-o", out, "-p", corpus]
    if supported["jobs"]:
        argv += [LINT_JOBS, str(jobs)]
    if cache_dir is not None:
        argv += [LINT_CACHE_DIR, cache_dir]
    elif supported["no_cache"]:
        argv.append(LINT_NO_CACHE)
    seconds, rss, rc, err = timed(argv, corpus)
    findings, diagnostics = lint_summary(out)
    problem = None
    if rc not in (0, 1) or findings is None:
        problem = f"{' '.join(argv)}: exit {rc}: {err.strip()[-300:]}"
    elif diagnostics:
        problem = (f"{diagnostics} diagnostics (parse errors?) that the floor did not have: "
                   f"{err.strip()[:300]}")
    return {"seconds": seconds, "rss": rss, "findings": findings, "diagnostics": diagnostics,
            "problem": problem, "argv": argv}


def verdict(value, target, at_most=True):
    if value is None:
        return ""
    ok = value <= target if at_most else value >= target
    return "PASS" if ok else "FAIL"


def main():
    if len(sys.argv) not in (2, 3):
        fail("usage: run.sh SYNCSCOPE [CORPUS_DIR]")
    syncscope = os.path.abspath(sys.argv[1])
    rounds = env_int("BENCH_ROUNDS", 3)
    files = env_int("BENCH_FILES", 240)
    seed = env_int("BENCH_SEED", 20240611)
    share = os.environ.get("BENCH_THRUST_SHARE", "0.12")
    measures = os.environ.get("BENCH_MEASURE", "floor j1 j2 cache").split()
    for m in measures:
        if m not in ("floor", "j1", "j2", "cache"):
            fail(f"unknown measurement '{m}' (floor, j1, j2, cache)")
    clang = os.environ.get("CLANG", "clang-16")
    cuda = os.environ.get("CUDA_PATH", "/usr/local/cuda")
    if "floor" in measures and shutil.which(clang) is None:
        fail(f"{clang} not found (set CLANG)")
    lint_measures = [m for m in measures if m != "floor"]
    help_text = ""
    if lint_measures:
        if not os.access(syncscope, os.X_OK):
            fail(f"{syncscope} is not an executable")
        proc = subprocess.run([syncscope, "lint", "--help"], capture_output=True, text=True)
        help_text = proc.stdout + proc.stderr
    supported = {
        "jobs": re.search(r"(^|\s)" + re.escape(LINT_JOBS) + r"[\s,=N]", help_text) is not None,
        "no_cache": LINT_NO_CACHE in help_text,
        "cache_dir": LINT_CACHE_DIR in help_text,
    }

    scratch = tempfile.mkdtemp(prefix="syncscope-lintbench-")
    corpus = os.path.abspath(sys.argv[2]) if len(sys.argv) == 3 else os.path.join(scratch,
                                                                                  "corpus")
    here = os.path.dirname(os.path.abspath(__file__))
    gen = [sys.executable, os.path.join(here, "gen_corpus.py"), corpus, "--files", str(files),
           "--seed", str(seed), "--thrust-share", share]
    if os.path.isdir(os.path.join(corpus, "src")):
        shutil.rmtree(os.path.join(corpus, "src"))
    generated = subprocess.run(gen, capture_output=True, text=True, check=True).stdout.strip()
    commands = floor_commands(corpus, cuda, make_shims(scratch), clang)

    command = "bench/lint/run.sh " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    settings = " ".join(f"{k}={shlex.quote(os.environ[k])}" for k in sorted(os.environ)
                        if k.startswith("BENCH_") and k != "BENCH_OUT")
    if settings:
        command = settings + " " + command
    started = datetime.datetime.now(datetime.timezone.utc)
    runs = {k: [] for k in ("floor", "j1", "j2", "fill", "warm")}
    problems = []
    plan = list(measures)
    try:
        for r in range(rounds):
            order = plan[r % len(plan):] + plan[:r % len(plan)]
            for m in order:
                if m == "floor":
                    res = run_floor(commands)
                    runs["floor"].append(res)
                    if res["errors"] or res["failed"]:
                        problems.append(f"floor: {res['errors']} errors, {res['failed']} "
                                        "files failed to parse")
                    show = res
                elif m in ("j1", "j2"):
                    if m == "j2" and not supported["jobs"]:
                        continue
                    res = run_lint(syncscope, corpus, scratch, 1 if m == "j1" else 2,
                                   supported, tag=f"{m}-{r}")
                    runs[m].append(res)
                    show = res
                else:
                    if not supported["cache_dir"]:
                        continue
                    cache = os.path.join(scratch, f"cache-{r}")
                    fill = run_lint(syncscope, corpus, scratch, 1, supported, cache, f"fill-{r}")
                    warm = run_lint(syncscope, corpus, scratch, 1, supported, cache, f"warm-{r}")
                    runs["fill"].append(fill)
                    runs["warm"].append(warm)
                    shutil.rmtree(cache, ignore_errors=True)
                    show = warm
                    if fill["findings"] != warm["findings"]:
                        problems.append(f"round {r + 1}: warm run found {warm['findings']} "
                                        f"findings, cold run {fill['findings']}")
                for res in (runs["fill"][-1:] if m == "cache" else []) + [show]:
                    if res.get("problem"):
                        problems.append(f"round {r + 1} {m}: {res['problem']}")
                print(f"round {r + 1}/{rounds} {m:6} {show['seconds']:8.2f} s, peak "
                      f"{show['rss'] / 1024:.0f} MiB", file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    def med(key, field="seconds"):
        return median([x[field] for x in runs[key] if x.get(field) is not None])

    floor, j1, j2, fill, warm = (med(k) for k in ("floor", "j1", "j2", "fill", "warm"))
    ratio_floor = j1 / floor if j1 and floor else None
    speedup = j1 / j2 if j1 and j2 else None
    ratio_warm = warm / fill if warm is not None and fill else None
    mib = lambda key: None if med(key, "rss") is None else med(key, "rss") / 1024  # noqa: E731
    lines = [f"Lint benchmark, {started:%Y-%m-%d %H:%M} UTC, {machine_line()}, {clang}, "
             f"CUDA at {cuda}",
             f"Command: {command}",
             f"Corpus: {generated}. Medians of {rounds} interleaved rounds.",
             "lint options: not looked up (no lint measurement)" if not lint_measures else
             f"lint options: {LINT_JOBS} {'yes' if supported['jobs'] else 'no'}, "
             f"{LINT_NO_CACHE} {'yes' if supported['no_cache'] else 'no'}, "
             f"{LINT_CACHE_DIR} {'yes' if supported['cache_dir'] else 'no'}", "",
             "| measure | value | target |", "|---|---|---|",
             f"| floor: {clang} -fsyntax-only, one file after another | {fmt(floor, 1, ' s')} | |",
             f"| lint -j1, cold | {fmt(j1, 1, ' s')} | |",
             f"| lint -j1 cold / floor | {fmt(ratio_floor, 3, 'x')} "
             f"{verdict(ratio_floor, TARGET_FLOOR)} | <= {TARGET_FLOOR}x |",
             f"| lint -j2, cold | {fmt(j2, 1, ' s')} | |",
             f"| speed-up -j2 over -j1 | {fmt(speedup, 2, 'x')} "
             f"{verdict(speedup, TARGET_SPEEDUP, at_most=False)} | >= {TARGET_SPEEDUP}x |",
             f"| lint -j1, empty cache (fills it) | {fmt(fill, 1, ' s')} | |",
             f"| lint -j1, warm re-run | {fmt(warm, 2, ' s')} | |",
             f"| warm / cold | {fmt(ratio_warm, 3, 'x')} {verdict(ratio_warm, TARGET_WARM)} "
             f"| <= {TARGET_WARM}x |",
             f"| peak RSS, floor (largest clang) | {fmt(mib('floor'), 0, ' MiB')} | |",
             f"| peak RSS, lint -j1 (largest process) | {fmt(mib('j1'), 0, ' MiB')} | |",
             f"| peak RSS, lint -j2 (largest process) | {fmt(mib('j2'), 0, ' MiB')} | |",
             f"| peak RSS, lint warm re-run | {fmt(mib('warm'), 0, ' MiB')} | |", ""]
    if runs["floor"]:
        lines.append(f"floor parse errors: {runs['floor'][-1]['errors']} (must be 0)")
    for key in ("j1", "j2", "warm"):
        if runs[key]:
            last = runs[key][-1]
            lines.append(f"lint {key}: {last['findings']} findings, {last['diagnostics']} "
                         f"diagnostics; command: {' '.join(last['argv'])}")
    if problems:
        lines += ["", "PROBLEMS (these measurements are not valid):"]
        lines += ["  " + p for p in problems]
    text = "\n".join(lines) + "\n"
    print(text, end="")
    out = os.environ.get("BENCH_OUT")
    if out:
        with open(out + ".tmp", "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(out + ".tmp", out)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
