#!/usr/bin/env python3
"""warnings.py: every warning of study.sh's OUT_DIRs (NAME.json) with its verdict.

Usage: python3 bench/lint-real/warnings.py OUT_DIR...

A warning's place is SOURCE/FILE as study-projects.txt names the project's SOURCE (as study.py
and verdicts.tsv do); its verdict is verdicts.tsv's row for (place, line, rule), or 'unjudged'.
Prints one line a warning, then totals: warnings, notes, true, false, unjudged, counting each
(place, line, column, rule) once over all the folders (study.py's "each place once"), and the
plain sum over the projects when it differs.
Env: PROJECTS, VERDICTS (other lists than study-projects.txt and verdicts.tsv beside this
script)."""
import glob
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECTS = os.environ.get("PROJECTS", os.path.join(HERE, "study-projects.txt"))
VERDICTS = os.environ.get("VERDICTS", os.path.join(HERE, "verdicts.tsv"))


def sources():
    out = {}
    with open(PROJECTS, encoding="utf-8") as f:
        for line in f:
            w = line.split()
            if w and not w[0].startswith("#"):
                out[w[0]] = w[2]
    return out


def verdicts():
    out = {}
    with open(VERDICTS, encoding="utf-8") as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            c = line.rstrip("\n").split("\t")
            out[(c[0], int(c[1]), c[2])] = (c[3], c[4] if len(c) > 4 else "")
    return out


def main(argv):
    if not argv:
        sys.stderr.write(__doc__.split("\n\n")[0] + "\n")
        return 2
    src, judged = sources(), verdicts()
    places, plain = {}, {"warnings": 0, "notes": 0}
    for folder in argv:
        for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
            name = os.path.basename(path)[:-5]
            if name.endswith(".summary"):
                continue
            if name not in src:
                sys.stderr.write(f"warnings.py: {name} not in {PROJECTS}, skipped\n")
                continue
            with open(path, encoding="utf-8") as f:
                report = json.load(f)
            for fd in report["findings"]:
                place = os.path.normpath(os.path.join(src[name], fd["file"]))
                key = (place, fd["line"], fd["column"], fd["ruleId"])
                kind = "warnings" if fd["severity"] == "warning" else "notes"
                plain[kind] += fd["severity"] in ("warning", "note")
                old = places.get(key)  # a place two projects report (a shared header): once
                if old is None or (old[1]["severity"] != "warning" and fd["severity"] == "warning"):
                    places[key] = (name, fd)
    totals = {"warnings": 0, "notes": 0, "true": 0, "false": 0, "unjudged": 0}
    for key in sorted(places, key=lambda k: (places[k][0], k)):
        name, fd = places[key]
        if fd["severity"] == "note":
            totals["notes"] += 1
        if fd["severity"] != "warning":
            continue
        totals["warnings"] += 1
        verdict, reason = judged.get((key[0], key[1], key[3]), ("unjudged", ""))
        totals[verdict] += 1
        print(f"{name:14} {key[0]}:{key[1]}:{key[2]} {key[3]} {verdict}"
              + (f"  ({reason[:100]})" if verdict == "false" else ""))
    share = (f" ({100 * totals['true'] / (totals['true'] + totals['false']):.1f}% of judged)"
             if totals["true"] + totals["false"] else "")
    print("totals: " + ", ".join(f"{v} {k}" for k, v in totals.items()) + share)
    if (plain["warnings"], plain["notes"]) != (totals["warnings"], totals["notes"]):
        print(f"summed over projects (shared places counted again): {plain['warnings']} warnings, "
              f"{plain['notes']} notes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
