#!/usr/bin/env python3
"""compare.py: two study.sh OUT_DIRs' findings (NAME.json) compared, project by project.

Usage: python3 bench/lint-real/compare.py A B

For each project with a NAME.json in A or B, prints the findings that appeared (in B only),
disappeared (in A only), or whose severity or message changed; a finding is keyed by (rule, file,
line, column), duplicates of a key in one report by their order. Ends with one line of totals.
Exit status 0 when identical, 1 when anything differs, 2 on usage error."""
import glob
import json
import os
import sys


def findings(path):
    """{(rule, file, line, column, n): finding} of a lint JSON report, or None when absent."""
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        report = json.load(f)
    out, seen = {}, {}
    for f in report["findings"]:
        key = (f["ruleId"], f["file"], f["line"], f["column"])
        n = seen.get(key, 0)
        seen[key] = n + 1
        out[key + (n,)] = f
    return out


def parse_errors(folder, name):
    path = os.path.join(folder, name + ".summary.json")
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        return set(json.load(f).get("withErrors") or [])


def show(k, f):
    dup = f" #{k[4] + 1}" if k[4] else ""
    return f"{k[1]}:{k[2]}:{k[3]} {k[0]}{dup} [{f['severity']}] {f['message']}"


def names(folder):
    return {os.path.basename(p)[:-5] for p in glob.glob(os.path.join(folder, "*.json"))
            if not p.endswith(".summary.json")}


def main(argv):
    if len(argv) != 2:
        sys.stderr.write(__doc__.split("\n\n")[0] + "\n")
        return 2
    a_dir, b_dir = argv
    totals = {"appeared": 0, "disappeared": 0, "severity": 0, "message": 0, "parse": 0}
    for name in sorted(names(a_dir) | names(b_dir)):
        a = findings(os.path.join(a_dir, name + ".json"))
        b = findings(os.path.join(b_dir, name + ".json"))
        if a is None or b is None:
            print(f"== {name}: only in {'B' if a is None else 'A'}")
            continue
        lines = []
        for k in sorted(b.keys() - a.keys(), key=str):
            lines.append("  + " + show(k, b[k]))
            totals["appeared"] += 1
        for k in sorted(a.keys() - b.keys(), key=str):
            lines.append("  - " + show(k, a[k]))
            totals["disappeared"] += 1
        for k in sorted(a.keys() & b.keys(), key=str):
            fa, fb = a[k], b[k]
            if fa["severity"] != fb["severity"]:
                lines.append(f"  ~ severity {fa['severity']} -> {fb['severity']}: " + show(k, fb))
                totals["severity"] += 1
            if fa["message"] != fb["message"]:
                lines.append(f"  ~ message of {k[1]}:{k[2]}:{k[3]} {k[0]}\n"
                             f"      was: {fa['message']}\n      now: {fb['message']}")
                totals["message"] += 1
        ea, eb = parse_errors(a_dir, name), parse_errors(b_dir, name)
        if ea is not None and eb is not None:
            for u in sorted(eb - ea):
                lines.append(f"  ! parse errors now in {u}")
            for u in sorted(ea - eb):
                lines.append(f"  ! parse errors gone from {u}")
            totals["parse"] += len(ea ^ eb)
        warn = lambda d: sum(1 for f in d.values() if f["severity"] == "warning")  # noqa: E731
        head = (f"== {name}: A {len(a)} findings ({warn(a)} warnings), "
                f"B {len(b)} ({warn(b)} warnings)")
        print(head + (": identical" if not lines else ""))
        for line in lines:
            print(line)
    print("totals: " + ", ".join(f"{v} {k}" for k, v in totals.items()))
    return 1 if any(totals.values()) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
