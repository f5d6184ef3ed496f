"""versus.py: two syncscope builds' `lint` on the same units, side by side, in one run.

Usage: python3 bench/lint-real/versus.py BASE NEW PROJECT_DIR COMPILE_DB_DIR [-- LINT_OPTION...]
  BASE, NEW       syncscope build folders (their cli/syncscope is run) or the binaries
  PROJECT_DIR     where lint runs (paths in the findings are shown from it)
  COMPILE_DB_DIR  the folder holding compile_commands.json (a few units: the rounds run them all)
  LINT_OPTION     given to both, e.g. --cuda-path DIR, --extra-arg ARG
Environment: VERSUS_ROUNDS=3 (each round runs both, the first of them alternating).

Each run is `lint --no-cache -j 1 --fail-on none --keep-going --format json`; its CPU time
(user + system, os.wait4) is the measure. Both builds parse the same files with the same
clang, so the ratio NEW / BASE of one round is the change in what the analyzer adds, measured
under the same load; the median of the rounds is printed with their range. A change made for
speed must leave the findings as they were: the two builds' findings, diagnostics and counts
are compared byte for byte and any difference is printed. Exit status: 0 the findings are the
same; 1 they differ; 2 usage error or a run failed. Standard library only.
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

LINT = ["lint", "--no-cache", "-j", "1", "--fail-on", "none", "--keep-going", "--format", "json"]


class UsageError(Exception):
    pass


def binary(path):
    b = os.path.join(path, "cli", "syncscope") if os.path.isdir(path) else path
    if not (os.path.isfile(b) and os.access(b, os.X_OK)):
        raise UsageError(f"'{path}' is neither a syncscope build folder nor the binary")
    return os.path.abspath(b)


def run_lint(syncscope, project, database, options, out):
    """The CPU seconds of one lint run and its report (findings, diagnostics, summary)."""
    argv = [syncscope] + LINT + ["-p", database, "-o", out] + options
    start = time.monotonic()
    child = subprocess.Popen(argv, cwd=project, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE)
    err = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    wall = time.monotonic() - start
    try:
        with open(out) as f:
            report = json.load(f)
    except (OSError, ValueError):
        report = None
    if child.returncode != 0 or report is None:
        tail = err.decode(errors="replace").strip().splitlines()[-3:]
        raise RuntimeError(f"{' '.join(argv)}: exit status {child.returncode}: " + " | ".join(tail))
    kept = {k: report.get(k) for k in ("summary", "findings", "diagnostics")}
    return usage.ru_utime + usage.ru_stime, wall, kept


def differences(base, new):
    """Lines saying where two reports' findings differ (empty: the same)."""
    if base == new:
        return []
    lines = []
    for key in ("summary", "diagnostics", "findings"):
        a, b = base.get(key), new.get(key)
        if a == b:
            continue
        if isinstance(a, list) and isinstance(b, list):
            sa = {json.dumps(x, sort_keys=True) for x in a}
            sb = {json.dumps(x, sort_keys=True) for x in b}
            lines += [f"  {key} only in BASE: {x[:200]}" for x in sorted(sa - sb)]
            lines += [f"  {key} only in NEW:  {x[:200]}" for x in sorted(sb - sa)]
            if sa == sb:
                lines.append(f"  {key}: the same entries in another order")
        else:
            lines.append(f"  {key}: BASE {json.dumps(a)[:200]} / NEW {json.dumps(b)[:200]}")
    return lines


def main(argv):
    options = []
    if "--" in argv:
        at = argv.index("--")
        argv, options = argv[:at], argv[at + 1:]
    if len(argv) != 4:
        raise UsageError(__doc__.split("\n\n")[1])
    base, new = binary(argv[0]), binary(argv[1])
    project, database = os.path.abspath(argv[2]), os.path.abspath(argv[3])
    if not os.path.isfile(os.path.join(database, "compile_commands.json")):
        raise UsageError(f"'{database}/compile_commands.json' does not exist")
    rounds = int(os.environ.get("VERSUS_ROUNDS", "3"))
    print(f"lint side by side, {rounds} rounds, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}"
          f", load {os.getloadavg()[0]:.1f}")
    print(f"  BASE {base}\n  NEW  {new}\n  units {database}/compile_commands.json")
    ratios, reports = [], {}
    with tempfile.TemporaryDirectory(prefix="versus-") as scratch:
        for r in range(rounds):
            order = [("BASE", base), ("NEW", new)]
            if r % 2:
                order.reverse()
            cpu = {}
            for tag, syncscope in order:
                out = os.path.join(scratch, f"{tag}-{r}.json")
                cpu[tag], wall, reports[tag] = run_lint(syncscope, project, database, options,
                                                        out)
            ratios.append(cpu["NEW"] / cpu["BASE"])
            print(f"round {r + 1}: BASE {cpu['BASE']:8.2f} s  NEW {cpu['NEW']:8.2f} s of CPU"
                  f"  NEW/BASE {ratios[-1]:.3f}")
    print(f"NEW/BASE, median of {rounds}: {statistics.median(ratios):.3f}"
          f" (range {min(ratios):.3f}-{max(ratios):.3f})")
    diff = differences(reports["BASE"], reports["NEW"])
    print("findings: the same" if not diff else "findings DIFFER:\n" + "\n".join(diff))
    return 1 if diff else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except UsageError as e:
        print(f"versus.py: {e}", file=sys.stderr)
        sys.exit(2)
    except (RuntimeError, OSError, ValueError) as e:
        print(f"versus.py: {e}", file=sys.stderr)
        sys.exit(2)
