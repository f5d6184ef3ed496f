"""sample.py: a seeded random sample of the findings of lint results, for judging by hand.

Usage: python3 bench/lint-real/sample.py [--seed N] [--count N] REPORT.json...
  REPORT.json  lint results in JSON (syncscope lint --format json, or run.sh's BENCH_REPORT);
               a finding is named by the file's name less .json (the project) and its place
  --seed 16    the random seed; --count 40: how many findings (all of them when fewer)
The findings of all reports are put in one order (project, file, line, column, rule) before
sampling, so the same reports and seed give the same sample. Standard library only.
"""
import argparse
import json
import os
import random
import sys


def main():
    parser = argparse.ArgumentParser(description="a seeded random sample of lint findings")
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("reports", nargs="+")
    args = parser.parse_args()
    findings = []
    for path in args.reports:
        project = os.path.splitext(os.path.basename(path))[0]
        try:
            with open(path, encoding="utf-8") as f:
                report = json.load(f)
            for x in report["findings"]:
                findings.append((project, x["file"], x["line"], x["column"], x["ruleId"],
                                 x["severity"], x["message"]))
        except (OSError, ValueError, KeyError, TypeError) as e:
            sys.exit(f"bench/lint-real: {path}: not a lint result ({e})")
    findings.sort()
    chosen = random.Random(args.seed).sample(findings, min(args.count, len(findings)))
    print(f"{len(chosen)} of {len(findings)} findings, seed {args.seed}")
    for n, (project, file, line, column, rule, severity, message) in enumerate(chosen, 1):
        print(f"{n}. {project} {file}:{line}:{column} {rule} {severity}: {message}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
