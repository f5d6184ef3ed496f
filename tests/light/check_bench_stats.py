"""check_bench_stats.py: the cost benchmarks' statistics and protocols without a GPU
(docs/studies/performance.md, "Modes"): bench/overhead/pairstats.py's figures exactly,
bench/overhead/mlp_lockstep.py --fake (the turn order, the rounds each child ran, a known cost
found, usage errors), bench/overhead/mlp_switch.py --fake (a known cost found, none without
it), bench/exit/run.py BENCH_WHOLE's paired
ratios and differences, BENCH_SECONDS, BENCH_WARMUP and BENCH_CPU with a small Python program
under libsyncscope.so, bench/overhead/run.sh's paired lines and BENCH_SECONDS with
stand-in programs, bench/exit/forked.py --fake (also --variants and --steps),
bench/overhead/window_cost.py's fake workload (a known window cost and its parts),
bench/overhead/real_lockstep.py --workload fake, and bench/overhead/real_switch.py --workload
fake (a known cost of the light blocks found against off and noop, the events per level, the
own time over the light iterations, usage errors).

Usage: python3 check_bench_stats.py SOURCE_DIR BUILD_DIR WORKDIR
Exit status 0 when every check holds, 1 otherwise (each failure printed).
"""
import os
import re
import shutil
import subprocess
import sys

FAILURES = []


def check(condition, what):
    if not condition:
        FAILURES.append(what)
        print(f"FAIL: {what}", file=sys.stderr)


def run(command, env=None, timeout=120):
    merged = dict(os.environ)
    merged.update(env or {})
    return subprocess.run(command, capture_output=True, text=True, env=merged, timeout=timeout)


def check_pairstats(source):
    sys.path.insert(0, os.path.join(source, "bench", "overhead"))
    import pairstats
    check(pairstats.quantile([1.0, 2.0, 3.0, 4.0], 0.25) == 1.75, "quantile 0.25 of 1..4")
    check(pairstats.quantile([5.0], 0.9) == 5.0, "quantile of one value")
    values = [1.00, 1.01, 0.99, 1.02, 1.00, 0.98, 1.01]
    s = pairstats.ratio_summary(values)
    check(s["n"] == 7 and s["median"] == 1.00 and s["min"] == 0.98 and s["max"] == 1.02,
          f"ratio_summary n/median/extremes: {s}")
    check(abs(s["q1"] - 0.995) < 1e-12 and abs(s["q3"] - 1.01) < 1e-12, f"quartiles: {s}")
    low, high = s["ci95"]
    check(0.98 <= low <= 1.00 <= high <= 1.02, f"interval around the median: {s['ci95']}")
    check(pairstats.ratio_summary(values)["ci95"] == s["ci95"], "the bootstrap is seeded")
    check(pairstats.resolves({"ci95": (0.99, 1.015)}, 1.02) == "shown", "resolves: shown")
    check(pairstats.resolves({"ci95": (1.021, 1.05)}, 1.02) == "refuted", "resolves: refuted")
    check(pairstats.resolves({"ci95": (1.0, 1.03)}, 1.02) == "not resolved",
          "resolves: an interval across the target")
    # The same values every time: a bootstrap interval of identical ratios is a point.
    check(pairstats.ratio_summary([1.5] * 4)["ci95"] == (1.5, 1.5), "identical ratios")


def lockstep(source, work, *args):
    script = os.path.join(source, "bench", "overhead", "mlp_lockstep.py")
    return run([sys.executable, script, "unused.so", work, "--fake"] + list(args))


def check_lockstep(source, build, work):
    sys.path.insert(0, os.path.join(source, "bench", "overhead"))
    import mlp_lockstep
    orders = [mlp_lockstep.round_order(4, r) for r in range(8)]
    check(orders[0] == [0, 1, 2, 3] and orders[1] == [3, 2, 1, 0] and orders[2] == [1, 2, 3, 0],
          f"round order (ABBA, rotated by pairs): {orders[:3]}")
    for child in range(4):
        places = sorted(order.index(child) for order in orders)
        check(places == [0, 0, 1, 1, 2, 2, 3, 3], f"child {child} takes every place twice")

    # A known cost: the light child loops three times as long; two generations.
    proc = lockstep(source, os.path.join(work, "cost"), "--variants", "bare light bare",
                    "--seconds", "3", "--generations", "2", "--block", "50", "--fake-cost", "3")
    check(proc.returncode == 0, f"lockstep --fake exit {proc.returncode}: {proc.stderr[-500:]}")
    rounds = re.search(r"^(\d+) rounds of 3 blocks of 50 steps in 2 generation", proc.stdout, re.M)
    check(rounds is not None, f"the rounds line: {proc.stdout[-300:]}")
    n = int(rounds.group(1)) if rounds else -1
    gens = set(re.findall(r"^generation (\d) round", proc.stdout, re.M))
    check(gens == {"0", "1"}, f"both generations ran rounds: {gens}")
    blocks = re.findall(r"^bench: lockstep_ms (\w+) block [0-9.]+ step_us [0-9.]+ cpu [0-9.]+ "
                        r"blocks (\d+) steps 50$", proc.stdout, re.M)
    check(blocks == [("bare", str(n)), ("light", str(n)), ("bare", str(n))],
          f"every child ran every round: {blocks}")
    for measure in ("block", "step", "cpu"):
        light = re.search(rf"^bench: lockstep light/bare {measure} n (\d+) median ([0-9.]+) "
                          r"ci95 ([0-9.]+) ([0-9.]+) .* target 1\.02 (\w[\w ]*)$",
                          proc.stdout, re.M)
        check(light is not None and int(light.group(1)) == n,
              f"light's {measure} line with n {n}")
        if light:
            check(float(light.group(2)) > 1.5 and light.group(5) == "refuted",
                  f"a 3x cost found and the target refuted: {light.group(0)}")
        control = re.search(rf"^bench: lockstep bare/bare {measure} n (\d+) .* target - "
                            r"control$", proc.stdout, re.M)
        check(control is not None and int(control.group(1)) == n, f"the control's {measure}")
        check(re.search(rf"^bench: lockstep light/bare {measure} n \d+ .* children 1/2 ",
                        proc.stdout, re.M) is not None,
              f"light against the mean of the two bare children ({measure})")

    # A step of the cost taken apart: light over the 'noop' child, paired in each round.
    proc = lockstep(source, os.path.join(work, "pairs"), "--variants", "bare noop light",
                    "--seconds", "2", "--block", "50", "--pairs", "light/noop")
    check(proc.returncode == 0, f"lockstep --pairs exit {proc.returncode}: {proc.stderr[-500:]}")
    rounds = re.search(r"^(\d+) rounds of 3 blocks", proc.stdout, re.M)
    n = int(rounds.group(1)) if rounds else -1
    for measure in ("block", "step", "cpu"):
        pair = re.search(rf"^bench: lockstep light/noop {measure} n (\d+) median ([0-9.]+) .* "
                         r"children 1/1 target - -$", proc.stdout, re.M)
        check(pair is not None and int(pair.group(1)) == n, f"the light/noop {measure} line: "
              f"{proc.stdout[-600:]}")

    # Usage errors.
    for args, message in (
            (["--variants", "bare light", "--pairs", "light/bare"],
             "--pairs: 'light/bare' is not A/B, two other variants of --variants than bare"),
            (["--variants", "bare light", "--pairs", "light/noop"],
             "--pairs: 'light/noop' is not A/B, two other variants of --variants than bare"),
            (["--variants", "light full"], "--variants needs a bare child and at least one other"),
            (["--variants", "bare heavy"], "unknown variant 'heavy' (one of bare, light, "
                                           "sampled, full, load, subscribe, noop, "
                                           "noop_runtime, noop_driver)"),
            (["--block", "0"], "--block, --seconds, --generations and --fake-cost must be "
                               "positive")):
        proc = lockstep(source, os.path.join(work, "usage"), *args)
        check(proc.returncode == 2 and proc.stderr.strip() == f"mlp_lockstep.py: {message}",
              f"usage {args}: exit {proc.returncode}, {proc.stderr.strip()!r}")
    script = os.path.join(source, "bench", "overhead", "mlp_lockstep.py")
    proc = run([sys.executable, script, os.path.join(work, "missing.so"), work])
    check(proc.returncode == 2 and proc.stderr.strip().endswith("missing.so: no such file"),
          f"a missing library: {proc.returncode} {proc.stderr.strip()!r}")

    # The probes' children (SYNCSCOPE_LIGHT_PROBE, docs/run.md): the environment each sets.
    library = os.path.join(build, "interpose", "libsyncscope.so")
    probes = os.path.join(work, "probes")
    proc = run([sys.executable, script, library, probes, "--dry-run", "--variants",
                "bare load subscribe noop noop_runtime noop_driver light"])
    common = (f"CUDA_INJECTION64_PATH={library} SYNCSCOPE_LIGHT_PROBE={{probe}} "
              f"SYNCSCOPE_MODE=light SYNCSCOPE_OUTPUT={probes}/g0-{{index}}-{{probe}}.json "
              f"SYNCSCOPE_QUIET=1 SYNCSCOPE_SYMBOL_CACHE={probes}/cache")
    wanted = ["child g0-0-bare: -"] + [
        f"child g0-{index}-{probe}: " + common.format(probe=probe, index=index)
        for index, probe in enumerate(["load", "subscribe", "noop", "noop_runtime",
                                       "noop_driver"], 1)] + [
        f"child g0-6-light: CUDA_INJECTION64_PATH={library} SYNCSCOPE_MODE=light "
        f"SYNCSCOPE_OUTPUT={probes}/g0-6-light.json SYNCSCOPE_QUIET=1 "
        f"SYNCSCOPE_SYMBOL_CACHE={probes}/cache"]
    check(proc.returncode == 0 and proc.stdout.splitlines() == wanted,
          f"--dry-run: exit {proc.returncode}: {proc.stdout}{proc.stderr}")
    check(not os.path.exists(probes), "--dry-run made its work folder")


def check_switch(source, work):
    """bench/overhead/mlp_switch.py --fake: a known cost of the 'light' blocks found in the
    pairs, none without it, and the usage errors."""
    script = os.path.join(source, "bench", "overhead", "mlp_switch.py")
    for cost in (2.0, 1.0):
        proc = run([sys.executable, script, "unused.so", os.path.join(work, "switch"), "--fake",
                    "--seconds", "2", "--block", "20", "--fake-cost", str(cost)])
        rounds = re.search(r"^(\d+) rounds of 3 blocks of 20 steps", proc.stdout, re.M)
        check(proc.returncode == 0 and rounds is not None,
              f"switch --fake-cost {cost}: exit {proc.returncode}: {proc.stdout[-400:]}"
              f"{proc.stderr[-400:]}")
        # The light and query blocks cost 'cost' times a noop block; light and query the same
        # (within a loaded machine's noise).
        for ratio, value in (("light/noop", cost), ("query/noop", cost), ("light/query", 1.0)):
            line = re.search(rf"^bench: switch {ratio} step n (\d+) median ([0-9.]+) ci95 "
                             r"([0-9.]+) ([0-9.]+) .* sum_ratio [0-9.]+$", proc.stdout, re.M)
            check(line is not None and rounds is not None and
                  int(line.group(1)) == int(rounds.group(1)) and
                  abs(float(line.group(2)) - value) < 0.3,
                  f"switch --fake-cost {cost}: {ratio} near {value}: {proc.stdout[-600:]}")
        check(re.search(r"^bench: switch_us light [0-9.]+ noop [0-9.]+ query [0-9.]+ rounds \d+$",
                        proc.stdout, re.M) is not None,
              f"switch --fake-cost {cost}: the switch_us line")
    proc = run([sys.executable, script, "unused.so", work, "--fake", "--block", "0"])
    check(proc.returncode == 2 and proc.stderr.strip() ==
          "mlp_switch.py: --block, --seconds and --fake-cost must be positive",
          f"switch usage: {proc.returncode} {proc.stderr.strip()!r}")
    proc = run([sys.executable, script, os.path.join(work, "missing.so"), work])
    check(proc.returncode == 2 and proc.stderr.strip().endswith("missing.so: no such file"),
          f"switch, a missing library: {proc.returncode} {proc.stderr.strip()!r}")


def check_real_switch(source, work):
    """bench/overhead/real_switch.py --workload fake: the light blocks 'cost' times as long
    found against the off and noop blocks (and noop/off near 1); one stand-in event per light
    iteration (a block: 1 lead-in and 20 timed), none at off and noop; with --timing the fake
    timing lines' own time (4.0 ms) over every light iteration (the 4 of the script, the 3
    reference blocks' 63 and 21 a round); usage errors."""
    script = os.path.join(source, "bench", "overhead", "real_switch.py")
    for cost in (2.0, 1.0):
        proc = run([sys.executable, script, "unused.so", os.path.join(work, "realswitch"),
                    "--workload", "fake", "--seconds", "3", "--fake-cost", str(cost),
                    "--block", "20", "--timing"])
        rounds = re.search(r"^(\d+) rounds of 3 blocks of 20 iterations", proc.stdout, re.M)
        check(proc.returncode == 0 and rounds is not None,
              f"realswitch --fake-cost {cost}: exit {proc.returncode}: {proc.stdout[-400:]}"
              f"{proc.stderr[-400:]}")
        n = int(rounds.group(1)) if rounds else -1
        for ratio, value in (("light/off", cost), ("light/noop", cost), ("noop/off", 1.0)):
            line = re.search(rf"^bench: realswitch fake {ratio} block n (\d+) median ([0-9.]+) "
                             r"ci95 ([0-9.]+) ([0-9.]+) .* sum_ratio [0-9.]+(.*)$", proc.stdout,
                             re.M)
            check(line is not None and int(line.group(1)) == n and
                  abs(float(line.group(2)) - value) < 0.3,
                  f"realswitch --fake-cost {cost}: {ratio} near {value}: "
                  f"{line.group(0) if line else proc.stdout[-600:]}")
            if line and ratio == "light/off":
                check(line.group(5) == " target 1.01 refuted" if cost == 2.0 else
                      line.group(5) in (" target 1.01 shown", " target 1.01 not resolved",
                                        " target 1.01 refuted"),
                      f"realswitch --fake-cost {cost}: verdict {line.group(5)!r}")
        check(f"bench: realswitch fake events light 21 min 21 max 21 off 0 min 0 max 0 noop 0 min "
              f"0 max 0 reference 21\n" in proc.stdout, f"realswitch events: {proc.stdout[-600:]}")
        # The own time in the timed light blocks alone: the stand-in's 1 us an iteration over
        # the 3 reference blocks and one a round.
        check(f"bench: realswitch fake own_in_blocks light_blocks {n + 3} us_per_iteration "
              f"1.00\n" in proc.stdout, f"realswitch own_in_blocks: {proc.stdout[-400:]}")
        iterations = 4 + 63 + 21 * n
        check(f"bench: realswitch fake own light_iterations {iterations} own_us_per_iteration "
              f"{4000 / iterations:.2f} callbacks {200 / iterations:.2f} " in proc.stdout,
              f"realswitch own line ({iterations} iterations): {proc.stdout[-400:]}")
    for args, message in ((["--levels", "off noop"], "--levels: light and at least one other of "
                           "light, noop, query, off, wrap, wraponly, once each"),
                          (["--block", "-1"], "--seconds and --fake-cost must be positive, "
                           "--block not negative")):
        proc = run([sys.executable, script, "unused.so", work, "--workload", "fake"] + args)
        check(proc.returncode == 2 and proc.stderr.strip() == f"real_switch.py: {message}",
              f"realswitch usage {args}: {proc.returncode} {proc.stderr.strip()!r}")


def check_whole(source, build, work):
    program = os.path.join(work, "tiny.py")
    with open(program, "w", encoding="utf-8") as handle:
        handle.write("import time\ntime.sleep(0.05)\nprint('tiny')\n")
    cpu = sorted(os.sched_getaffinity(0))[0]
    env = {"BENCH_WHOLE": "1", "BENCH_WHOLE_FULL": "0", "BENCH_ROUNDS": "50",
           "BENCH_SECONDS": "1", "BENCH_CPU": str(cpu),
           "BENCH_VARIANTS": "light:SYNCSCOPE_MODE=light", "BENCH_OUT":
           os.path.join(work, "whole.txt")}
    proc = run([os.path.join(source, "bench", "exit", "run.sh"), build, "--",
                sys.executable, program], env)
    check(proc.returncode == 0, f"BENCH_WHOLE exit {proc.returncode}: {proc.stderr[-800:]}")
    stopped = re.search(r"^BENCH_SECONDS: (\d+) rounds in", proc.stderr, re.M)
    check(stopped is not None, "BENCH_SECONDS stopped the rounds before BENCH_ROUNDS (50)")
    n = int(stopped.group(1)) if stopped else -1
    check(1 <= n < 50, f"rounds run: {n}")
    check(f", {n} rounds after a warm-up, order alternating, on CPUs {cpu}" in proc.stdout,
          "the heading names the rounds and the CPUs")
    lines = re.findall(r"^bench: whole tiny\.py light (wall|cpu)/bare n (\d+) median [0-9.]+ "
                       r"ci95 [0-9.]+ [0-9.]+ min [0-9.]+ max [0-9.]+ target 1\.01 (.+)$",
                       proc.stdout, re.M)
    verdicts = ("shown", "refuted", "not resolved") if n >= 3 else ("not resolved (n < 3)",)
    check([(m, int(k)) for m, k, _ in lines] == [("wall", n), ("cpu", n)] and
          all(v in verdicts for _, _, v in lines), f"the paired lines: {lines}")
    check(" full " not in proc.stdout and "syncscope (no trace" not in proc.stdout,
          "BENCH_WHOLE_FULL=0 left the full mode out")
    with open(os.path.join(work, "whole.txt"), encoding="utf-8") as handle:
        check("bench: whole tiny.py light wall/bare" in handle.read(), "BENCH_OUT has them")
    # phases.py's marks: each run's time in the functions BENCH_MARKS names (a missing one
    # is left out, the run goes on).
    marked = os.path.join(work, "marked.py")
    with open(marked, "w", encoding="utf-8") as handle:
        handle.write("import json\nfor _ in range(3):\n    json.dumps([1])\n")
    proc = run([os.path.join(source, "bench", "exit", "run.sh"), build, "--", sys.executable,
                os.path.join(source, "bench", "exit", "phases.py"), marked],
               dict(env, BENCH_SECONDS="0", BENCH_ROUNDS="2", BENCH_PREIMPORT="json",
                    BENCH_MARKS="dumps=json:dumps gone=json:NoSuch.thing"))
    row = re.search(r"^\| dumps s, each run \| ([0-9.]+), ([0-9.]+) \| ([0-9.]+), ([0-9.]+) \|$",
                    proc.stdout, re.M)
    check(proc.returncode == 0 and row is not None and "gone s" not in proc.stdout,
          f"BENCH_MARKS: a row of 2 runs per mode, the missing mark left out: {proc.stdout}")
    check(re.search(r"^\| import s, median \| [0-9.]+ \| [0-9.]+ \|$", proc.stdout, re.M)
          is not None, "phases.py's import phase")
    check(re.search(r"^\| run \+ exit s, each run \| [0-9.]+, [0-9.]+ \| [0-9.]+, [0-9.]+ \|$",
                    proc.stdout, re.M) is not None, "the part after the import, each run")
    parts = re.findall(r"^bench: whole marked\.py light (\w+)/bare n 2 ", proc.stdout, re.M)
    check(parts == ["wall", "cpu", "import", "after_import"], f"paired measures: {parts}")

    proc = run([os.path.join(source, "bench", "exit", "run.sh"), build, "--",
                sys.executable, program], dict(env, BENCH_VARIANTS=""))
    check(proc.returncode == 2 and "nothing to compare" in proc.stderr,
          f"BENCH_WHOLE_FULL=0 without variants: {proc.returncode} {proc.stderr.strip()!r}")

    # BENCH_WARMUP: only bare warms up; the pairs' differences in ms beside their ratios.
    proc = run([os.path.join(source, "bench", "exit", "run.sh"), build, "--",
                sys.executable, program], dict(env, BENCH_SECONDS="0", BENCH_ROUNDS="3",
                                               BENCH_WARMUP="bare"))
    warmed = re.findall(r"^warm-up (\S+):", proc.stderr, re.M)
    check(proc.returncode == 0 and warmed == ["bare"], f"BENCH_WARMUP=bare: {warmed}")
    check(", 3 rounds after a warm-up of bare, order alternating" in proc.stdout,
          "the heading says which modes warmed up")
    added = re.findall(r"^bench: whole tiny\.py light (wall|cpu)-bare n 3 median_ms "
                       r"(-?[0-9.]+) ci95 (-?[0-9.]+) (-?[0-9.]+)$", proc.stdout, re.M)
    check([m for m, _, _, _ in added] == ["wall", "cpu"] and
          all(float(lo) <= float(mid) <= float(hi) for _, mid, lo, hi in added),
          f"the differences' lines: {added}")
    proc = run([os.path.join(source, "bench", "exit", "run.sh"), build, "--",
                sys.executable, program], dict(env, BENCH_WARMUP="none", BENCH_ROUNDS="1",
                                               BENCH_SECONDS="0"))
    check(proc.returncode == 0 and "warm-up" not in proc.stderr and
          ", 1 rounds after no warm-up," in proc.stdout, "BENCH_WARMUP=none")
    proc = run([os.path.join(source, "bench", "exit", "run.sh"), build, "--",
                sys.executable, program], dict(env, BENCH_WARMUP="full"))
    check(proc.returncode == 2 and proc.stderr.strip() == "run.py: BENCH_WARMUP: 'full' is "
          "not a mode of this run (bare, light, or none)",
          f"BENCH_WARMUP naming a mode the run lacks: {proc.returncode} {proc.stderr!r}")


FAKE_PROGRAM = """#!/bin/sh
# a stand-in for bench/overhead's {name}: a fixed figure per variant, the result file written
value={bare}
[ -n "$LD_PRELOAD" ] && value={full}
[ "$SYNCSCOPE_MODE" = light ] && value={light}
[ -n "$SYNCSCOPE_SAMPLE" ] && value={sampled}
[ -n "$SYNCSCOPE_OUTPUT" ] && echo '{{}}' >"$SYNCSCOPE_OUTPUT"
echo "bench: {metric} $value 7"
"""


def check_overhead(source, work):
    """bench/overhead/run.sh's paired lines and BENCH_SECONDS, with stand-in programs whose
    figures per variant are known: every round's ratio is the same, so is the interval."""
    tree = os.path.join(work, "overhead-tree")
    os.makedirs(os.path.join(tree, "bench", "overhead"))
    os.makedirs(os.path.join(tree, "interpose"))
    for name, metric, figures in (
            ("empty_launch", "ns_per_launch", dict(bare=4000, light=4400, sampled=4400,
                                                   full=6000)),
            ("pipeline", "pipeline_ms", dict(bare=50, light=50.5, sampled=56, full=60))):
        path = os.path.join(tree, "bench", "overhead", name)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(FAKE_PROGRAM.format(name=name, metric=metric, **figures))
        os.chmod(path, 0o755)
    library = os.path.join(tree, "interpose", "libsyncscope.so")
    open(library, "w", encoding="utf-8").close()  # ld.so ignores it, the figures do not
    proc = run([os.path.join(source, "bench", "overhead", "run.sh"), tree],
               {"BENCH_ROUNDS": "500", "BENCH_SECONDS": "1", "BENCH_WORKLOADS":
                "launch pipeline", "BENCH_VARIANTS": "bare light sampled syncscope"})
    check(proc.returncode == 0, f"overhead run.sh exit {proc.returncode}: {proc.stderr[-500:]}")
    stopped = re.search(r"^BENCH_SECONDS: (\d+) rounds in", proc.stderr, re.M)
    n = int(stopped.group(1)) if stopped else -1
    check(1 <= n < 500 and f"Medians of {n} interleaved rounds." in proc.stdout,
          f"BENCH_SECONDS stopped the rounds: {n}")
    lines = re.findall(r"^bench: overhead .*$", proc.stdout, re.M)
    verdict = "not resolved (n < 3)" if n < 3 else "shown"
    refuted = "not resolved (n < 3)" if n < 3 else "refuted"
    expected = [
        f"bench: overhead launch light/bare n {n} median 1.1000 ci95 1.1000 1.1000 min 1.1000 "
        "max 1.1000 added_ns 400.0 ci95 400.0 400.0",
        f"bench: overhead launch sampled/bare n {n} median 1.1000 ci95 1.1000 1.1000 min 1.1000 "
        "max 1.1000 added_ns 400.0 ci95 400.0 400.0",
        f"bench: overhead launch syncscope/bare n {n} median 1.5000 ci95 1.5000 1.5000 min "
        "1.5000 max 1.5000 added_ns 2000.0 ci95 2000.0 2000.0",
        f"bench: overhead pipeline light/bare n {n} median 1.0100 ci95 1.0100 1.0100 min 1.0100 "
        f"max 1.0100 added_ms 0.5 ci95 0.5 0.5 target 1.02 {verdict}",
        f"bench: overhead pipeline sampled/bare n {n} median 1.1200 ci95 1.1200 1.1200 min "
        f"1.1200 max 1.1200 added_ms 6.0 ci95 6.0 6.0 target 1.02 {refuted}",
        f"bench: overhead pipeline syncscope/bare n {n} median 1.2000 ci95 1.2000 1.2000 min "
        "1.2000 max 1.2000 added_ms 10.0 ci95 10.0 10.0"]
    check(lines == expected, f"the paired lines: {lines}")


def check_forked(source, build, work):
    """bench/exit/forked.py --fake: pairs of forked children in ABBA order, a known cost found
    in the script's time (the light child sleeps ten times as long), a changed output refused."""
    script = os.path.join(source, "bench", "exit", "forked.py")
    library = os.path.join(build, "interpose", "libsyncscope.so")
    slow = os.path.join(work, "slow.py")
    with open(slow, "w", encoding="utf-8") as handle:
        handle.write("import os, time\ntime.sleep(0.2 if os.environ.get('SYNCSCOPE_MODE') == "
                     "'light' else 0.02)\nprint('slow: done')\n")
    plain = os.path.join(work, "plain.py")
    with open(plain, "w", encoding="utf-8") as handle:
        handle.write("print('plain: done')\n")
    proc = run([sys.executable, script, library, os.path.join(work, "forked"), "--fake",
                "--seconds", "1", "--preimport", "json", "--", slow, "::", plain])
    check(proc.returncode == 0, f"forked.py --fake exit {proc.returncode}: {proc.stderr[-500:]}")
    done = re.search(r"^(\d+) pairs of slow\.py, plain\.py in", proc.stdout, re.M)
    n = int(done.group(1)) if done else -1
    check(n >= 1, f"the pairs line: {proc.stdout[-300:]}")
    order = re.findall(r"^pair (\d+) slow\.py (bare|light):", proc.stdout, re.M)
    check(order[:4] == [("1", "bare"), ("1", "light"), ("2", "light"), ("2", "bare")][:2 * n],
          f"ABBA order: {order[:4]}")
    for name in ("slow.py", "plain.py"):
        measures = re.findall(rf"^bench: forked {re.escape(name)} light/bare (\w+) n (\d+) "
                              r"median [0-9.]+ ci95 [0-9.]+ [0-9.]+ added_ms -?[0-9.]+ ci95 "
                              r"-?[0-9.]+ -?[0-9.]+ bare_ms [0-9.]+ light_ms [0-9.]+$",
                              proc.stdout, re.M)
        check(measures == [(m, str(n)) for m in ("wall", "script", "exit", "cpu")],
              f"{name}: a line per measure with n {n}: {measures}")
    cost = re.search(r"^bench: forked slow\.py light/bare script n \d+ median ([0-9.]+) .* "
                     r"added_ms ([0-9.]+) ", proc.stdout, re.M)
    check(cost is not None and float(cost.group(1)) > 3 and float(cost.group(2)) > 100,
          f"the light child's 180 ms found: {cost.group(0) if cost else proc.stdout[-300:]}")
    # A workload whose output differs between the modes is refused, the pairs before told.
    differs = os.path.join(work, "differs.py")
    with open(differs, "w", encoding="utf-8") as handle:
        handle.write("import os\nprint(os.environ.get('SYNCSCOPE_MODE', 'bare'))\n")
    proc = run([sys.executable, script, library, os.path.join(work, "forked2"), "--fake",
                "--seconds", "1", "--", differs])
    check(proc.returncode == 1 and "pair 1 differs.py light: its output 'light' is not the "
          "first run's 'bare'" in proc.stderr, f"a changed output: {proc.stderr[-300:]}")
    proc = run([sys.executable, script, library, work, "--", os.path.join(work, "none.py")])
    check(proc.returncode == 2 and proc.stderr.strip().endswith("none.py: no such file"),
          f"a missing script: {proc.returncode} {proc.stderr.strip()!r}")
    check_forked_variants(script, library, work)


def check_forked_variants(script, library, work):
    """forked.py --variants: the probes' children beside bare and light in rotating order, each
    variant against bare and a --steps ratio between two of them, known costs found (a noop
    child sleeps 0.1 s more than bare, a light child 0.1 s more than noop); bad names refused."""
    staged = os.path.join(work, "staged.py")
    with open(staged, "w", encoding="utf-8") as handle:
        handle.write("import os, time\nprobe = os.environ.get('SYNCSCOPE_LIGHT_PROBE')\n"
                     "light = os.environ.get('SYNCSCOPE_MODE') == 'light'\n"
                     "time.sleep(0.02 + (0.1 if light else 0) + (0.1 if light and not probe "
                     "else 0))\nprint('staged: done')\n")
    proc = run([sys.executable, script, library, os.path.join(work, "forked3"), "--fake",
                "--seconds", "1.5", "--variants", "noop light", "--steps", "light/noop",
                "--", staged])
    check(proc.returncode == 0, f"--variants exit {proc.returncode}: {proc.stderr[-500:]}")
    warm = re.findall(r"^warm-up staged\.py (\w+):", proc.stdout, re.M)
    check(warm == ["bare", "light"], f"the warm-ups: {warm}")
    order = re.findall(r"^pair (\d+) staged\.py (\w+):", proc.stdout, re.M)
    check(order[:6] == [("1", "bare"), ("1", "noop"), ("1", "light"), ("2", "light"),
                        ("2", "noop"), ("2", "bare")], f"the rotating order: {order[:6]}")
    added = dict(re.findall(r"^bench: forked staged\.py (\w+/\w+) script n \d+ median [0-9.]+ "
                            r"ci95 [0-9.]+ [0-9.]+ added_ms (-?[0-9.]+) ", proc.stdout, re.M))
    check(sorted(added) == ["light/bare", "light/noop", "noop/bare"],
          f"a line per variant and step: {sorted(added)}")
    # Sleeps on a loaded machine overshoot: each difference within half its size.
    for key, ms in (("noop/bare", 100), ("light/bare", 200), ("light/noop", 100)):
        check(key in added and abs(float(added[key]) - ms) < ms / 2,
              f"{key}: {ms} ms found: {added.get(key)}")
    for words, message in ((["--variants", "light heavy"], "--variants: heavy: each once"),
                           (["--steps", "light/load"], "--steps: 'light/load' is not A/B")):
        proc = run([sys.executable, script, library, work, "--fake"] + words + ["--", staged])
        check(proc.returncode == 2 and message in proc.stderr,
              f"{words}: {proc.returncode} {proc.stderr.strip()!r}")


def check_window_cost(source):
    """bench/overhead/window_cost.py WORKLOAD fake: a pretend window of 1 s (steps 1.5 times as
    long, a 0.4 s pause at its first step and 0.5 s at the first after it, about 1.07 s in all)
    found against the control periods, split into its parts; bad arguments refused."""
    script = os.path.join(source, "bench", "overhead", "window_cost.py")
    proc = run([sys.executable, script, "1", "3", "0.3", "fake"])
    check(proc.returncode == 0, f"window_cost.py fake exit {proc.returncode}: {proc.stderr[-300:]}")
    added = re.search(r"^bench: window_added_ms n 3 median (-?[0-9.]+) ci95 ", proc.stdout, re.M)
    check(added is not None and 600 < float(added.group(1)) < 1800,
          f"the pretend window's ~1070 ms found: {proc.stdout[-700:]}")
    parts = dict(re.findall(r"^bench: window_part (\w+) n 3 median (-?[0-9.]+) ci95 -?[0-9.]+ "
                            r"-?[0-9.]+$", proc.stdout, re.M))
    check(sorted(parts) == ["body", "close", "open"], f"the parts' lines: {sorted(parts)}")
    check(all(float(parts.get(k, 0)) > 200 for k in ("open", "close")),
          f"the pauses at the window's open and close found: {parts}")
    for words, message in ((["1", "3", "1", "other"], "WORKLOAD 'other' is not one of"),
                           (["0.4"], "ON must exceed 0.5 s"),
                           (["1", "3", "1", "mlp"], "run it under syncscope run --sample")):
        proc = run([sys.executable, script] + words, env={"SYNCSCOPE_SAMPLE": ""})
        check(proc.returncode == 1 and message in proc.stderr,
              f"{words}: {proc.returncode} {proc.stderr.strip()!r}")


def check_real_lockstep(source, work):
    """bench/overhead/real_lockstep.py --workload fake: the children set up one at a time in
    an order that turns each generation, a known per-iteration cost found (3x) and the 1.01
    target refuted, the once lines paired per generation, the light children's exit timing
    lines read (--timing), the whole-process figure computed from its printed terms by its
    formula, usage errors."""
    script = os.path.join(source, "bench", "overhead", "real_lockstep.py")
    proc = run([sys.executable, script, "unused.so", os.path.join(work, "real"), "--workload",
                "fake", "--seconds", "3", "--generations", "2", "--whole-runs", "1",
                "--fake-cost", "3", "--timing"])
    out = proc.stdout
    check(proc.returncode == 0, f"real_lockstep --fake exit {proc.returncode}: "
          f"{proc.stderr[-500:]}")
    set_up = re.findall(r"^generation (\d) (g\d-\d-\w+): init ", out, re.M)
    check([tag for _, tag in set_up] == ["g0-0-bare", "g0-1-light", "g0-2-bare", "g0-3-light",
                                         "g1-0-bare", "g1-1-light", "g1-2-bare", "g1-3-light"],
          f"a phases line per child and generation: {set_up}")
    order = re.findall(r"^generation \d set up (g\d-\d)-\w+$", out, re.M)
    check(order == ["g0-0", "g0-1", "g0-2", "g0-3", "g1-1", "g1-2", "g1-3", "g1-0"],
          f"set up one at a time, the order turned by one each generation: {order}")
    check(re.findall(r"^warm-up (gwarm-9-\w+):", out, re.M) ==
          ["gwarm-9-bare", "gwarm-9-light"], "the two warm-up children")
    cost = re.search(r"^bench: reallock fake light/bare step n (\d+) median ([0-9.]+) .* "
                     r"children 2/2 target 1.01 refuted$", out, re.M)
    check(cost is not None and 2.0 < float(cost.group(2)) < 4.0,
          f"the 3x per-iteration cost found and refuted: {cost.group(0) if cost else out[-300:]}")
    for phase in ("init", "setup", "first", "rest", "teardown", "exit", "once", "natural"):
        check(re.search(rf"^bench: reallock fake once {phase} light-bare n 4 added_ms -?[0-9.]+ "
                        r"ci95 -?[0-9.]+ -?[0-9.]+ bare_ms [0-9.]+ light_ms [0-9.]+$", out, re.M)
              is not None, f"the once line of {phase}, n 4 (two pairs a generation)")
        check(re.search(rf"^bench: reallock fake once {phase} bare-bare n 2 ", out, re.M)
              is not None, f"the control line of {phase}, n 2")
    check(re.search(r"^bench: reallock fake finisher light n 4 median_ms 12\.5 ci95 12\.5 12\.5 "
                    r"min 12\.5 max 12\.5$", out, re.M) is not None,
          "--timing: each light child's exit timing line read (the fake's 12.5 ms)")
    calls = re.search(r"^bench: reallock fake callbacks light n 4 per_iteration callbacks "
                      r"([0-9.]+) own_us ([0-9.]+) stacks ([0-9.]+) unwound ([0-9.]+) unwind_us "
                      r"([0-9.]+) python_us ([0-9.]+) kinds_us ([0-9.]+) probes_us ([0-9.]+) "
                      r"iterations (\d+)$", out, re.M)
    if calls is None:
        check(False, f"--timing: the callbacks line: {out[-400:]}")
    else:  # the fake's 200 callbacks, 4 ms, 100 stacks, 2 and 1 ms, its light line's 0.5 and
        # 1.5 ms, over each child's iterations (printed to 0.01 us: probes x 8 against own x 3
        # may differ by 0.04 + 0.015 from the rounding alone)
        per, own, stacks, unwound, unwind, python, kinds, probes, iterations = (
            float(x) for x in calls.groups())
        check(iterations > 0 and abs(own / per - 20) < 0.05 and abs(stacks * 2 - per) < 2e-4 and
              abs(unwound * 4 - stacks) < 4e-4 and
              abs(unwind * 2 - own) < 0.02 and abs(python * 4 - own) < 0.03 and
              abs(kinds * 8 - own) < 0.05 and abs(probes * 8 - own * 3) < 0.06,
              f"the callbacks per iteration (20 us each, half with stacks, a quarter of those "
              f"unwound whole; the driver's questions an eighth and three eighths): "
              f"{calls.group(0)}")
    terms = re.search(r"^bench: reallock fake terms bare_whole_s ([0-9.]+) once_added_ms "
                      r"(-?[0-9.]+) per_iteration ([0-9.]+) rest_bare_ms ([0-9.]+) "
                      r"natural_added_ms (-?[0-9.]+)$", out, re.M)
    figure = re.search(r"^bench: reallock fake figure per_iteration ([0-9.]+) ci95 ([0-9.]+) "
                       r"([0-9.]+) target 1.01 (shown|refuted|not resolved)$", out, re.M)
    natural = re.search(r"^bench: reallock fake figure natural ([0-9.]+) ci95 ", out, re.M)
    check(terms is not None and figure is not None and natural is not None,
          f"the terms and figure lines: {out[-600:]}")
    if terms and figure and natural:
        w, d, r, rest, dn = (float(x) for x in terms.groups())
        check(abs((w + d / 1e3 + (r - 1) * rest / 1e3) / w - float(figure.group(1))) < 2e-3,
              f"figure = (W + D_once + (r - 1) L_rest) / W: {terms.group(0)} {figure.group(0)}")
        check(abs((w + dn / 1e3) / w - float(natural.group(1))) < 2e-3,
              f"figure natural = (W + D_natural) / W: {natural.group(0)}")
        check(float(figure.group(2)) <= float(figure.group(1)) <= float(figure.group(3)),
              f"the figure inside its interval: {figure.group(0)}")
    # probe children beside bare and light, and a pair of them
    proc = run([sys.executable, script, "unused.so", os.path.join(work, "real2"), "--workload",
                "fake", "--seconds", "2", "--generations", "1", "--variants", "bare noop light",
                "--pairs", "light/noop", "--fake-cost", "2"])
    check(proc.returncode == 0, f"real_lockstep probes exit {proc.returncode}: "
          f"{proc.stderr[-500:]}")
    for name in ("noop/bare", "light/bare", "light/noop"):
        check(len(re.findall(rf"^bench: reallock fake {name} (?:block|step|cpu) n \d+ ",
                             proc.stdout, re.M)) == 3, f"three lines of {name}")
    pair = re.search(r"^bench: reallock fake light/noop step n \d+ median ([0-9.]+) ",
                     proc.stdout, re.M)
    check(pair is not None and 0.8 < float(pair.group(1)) < 1.25,
          f"light/noop: both 2x, about 1: {pair.group(0) if pair else proc.stdout[-300:]}")
    check(re.search(r"^bench: reallock fake once init noop-bare n 1 ", proc.stdout, re.M)
          is not None, "the once lines of a probe")
    for args, message in (
            (["--variants", "bare full"], "--variants: bare and light children, at least one of "
             "each, and SYNCSCOPE_LIGHT_PROBE's (load, subscribe, noop, noop_runtime, "
             "noop_driver)"),
            (["--variants", "bare noop light", "--pairs", "light/bare"], "--pairs: A/B words, "
             "two other variants of --variants than bare"),
            (["--generations", "0"], "--seconds, --generations and --fake-cost must be "
             "positive, --block, --whole-runs and --whole-bare not negative")):
        proc = run([sys.executable, script, "unused.so", work, "--workload", "fake"] + args)
        check(proc.returncode == 2 and proc.stderr.strip() == f"real_lockstep.py: {message}",
              f"usage {args}: {proc.returncode} {proc.stderr.strip()!r}")


def main(argv):
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    source, build, work = (os.path.abspath(a) for a in argv[1:])
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    check_pairstats(source)
    check_lockstep(source, build, work)
    check_switch(source, work)
    check_whole(source, build, work)
    check_overhead(source, work)
    check_forked(source, build, work)
    check_window_cost(source)
    check_real_lockstep(source, work)
    check_real_switch(source, work)
    if FAILURES:
        print(f"check_bench_stats.py: {len(FAILURES)} check(s) failed", file=sys.stderr)
        return 1
    print("check_bench_stats.py: all checks hold")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
