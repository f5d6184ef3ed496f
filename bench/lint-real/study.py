"""study.py: the table of docs/studies/lint-realworld.md ("Final re-run") from study.sh's runs.

Usage: python3 bench/lint-real/study.py OUT_DIR --projects FILE [--verdicts FILE]
                                        [--floor-from DIR] [--compare DIR]

Reads OUT_DIR/NAME.json (lint's findings) and OUT_DIR/NAME.summary.json (run.py's counts and
times) of every project of the list (study-projects.txt). Prints, as Markdown:
- one row a project: units, units with parse errors under lint / under the floor (clang-16
  alone), warnings, notes, warnings judged true (of those judged), the floor's and lint's cold
  CPU seconds and their ratio; then one row a sample and one for all, where a place (file, line,
  column, rule) that two projects report (a shared header) counts once;
- the warnings without a verdict (to judge), and the warnings judged false, with the reason;
- with --compare DIR (an earlier OUT_DIR): every finding added, lost or whose severity changed.
--floor-from DIR takes the floor (its CPU time and its files with errors) from an earlier
OUT_DIR for a project run without one. The verdicts file has one warning a line, tab-separated:
PLACE LINE RULE VERDICT REASON, PLACE being SOURCE/FILE as study-projects.txt and lint's report
name them, VERDICT 'true' or 'false'; '#' starts a comment line. Standard library only.
"""
import argparse
import collections
import json
import os
import sys


def read_projects(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            words = line.split()
            if not words or words[0].startswith("#"):
                continue
            rows.append({"name": words[0], "sample": words[1], "source": words[2]})
    return rows


def read_verdicts(path):
    verdicts = {}
    if not path or not os.path.exists(path):
        return verdicts
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            cols = line.rstrip("\n").split("\t")
            if len(cols) < 5 or cols[3] not in ("true", "false") or not cols[1].isdigit():
                sys.exit(f"study.py: {path}:{n}: want PLACE LINE RULE true|false REASON")
            verdicts[(cols[0], int(cols[1]), cols[2])] = (cols[3] == "true", cols[4])
    return verdicts


def load(folder, name):
    def read(path):
        try:
            with open(path, encoding="utf-8") as f:
                return json.load(f)
        except (OSError, ValueError):
            return None
    return (read(os.path.join(folder, name + ".json")),
            read(os.path.join(folder, name + ".summary.json")))


def places(report, source):
    """{(SOURCE/file, line, column, rule): finding} of a lint report."""
    out = {}
    for f in report["findings"]:
        out[(os.path.normpath(os.path.join(source, f["file"])), f["line"], f["column"],
             f["ruleId"])] = f
    return out


def fmt(x, digits=1):
    return "" if x is None else f"{x:.{digits}f}"


def row(label, units, errs, ferrs, warn, notes, judged, true, fcpu, lcpu, bold=False):
    b = "**" if bold else ""
    share = f"{true} of {judged} ({100 * true / judged:.0f}%)" if judged else "–"
    if judged and judged < warn:
        share += f", {warn - judged} not judged"
    ratio = f"{lcpu / fcpu:.2f}×" if fcpu and lcpu is not None else ""
    cells = [label, units, f"{errs} / {'–' if ferrs is None else ferrs}", warn, notes, share,
             fmt(fcpu), fmt(lcpu), ratio]
    return "| " + " | ".join(f"{b}{c}{b}" if c != "" else "" for c in cells) + " |"


def main(argv):
    ap = argparse.ArgumentParser(description="the study's table from study.sh's runs")
    ap.add_argument("out")
    ap.add_argument("--projects", required=True)
    ap.add_argument("--verdicts")
    ap.add_argument("--floor-from")
    ap.add_argument("--compare")
    a = ap.parse_args(argv)
    verdicts = read_verdicts(a.verdicts)
    projects = read_projects(a.projects)

    print("| Project | Units | Parse errors: lint / floor | Warnings | Notes | True warnings "
          "(of judged) | Floor CPU s | Lint CPU s | Lint / floor, CPU |")
    print("|---|---|---|---|---|---|---|---|---|")
    samples = collections.OrderedDict()
    unjudged, false_ones, changes, missing = [], [], [], []
    for p in projects:
        report, summary = load(a.out, p["name"])
        if report is None or summary is None:
            missing.append(p["name"])
            continue
        floor_cpu = summary["time"]["floor"]["cpu"]
        floor_errs = summary["floorWithErrors"]
        if floor_errs is None and a.floor_from:
            _, earlier = load(a.floor_from, p["name"])
            if earlier and earlier["floorWithErrors"] is not None:
                floor_cpu = earlier["time"]["floor"]["cpu"]
                floor_errs = earlier["floorWithErrors"]
        lint_cpu = summary["time"]["cold"]["cpu"]
        found = places(report, p["source"])
        warn = {k: f for k, f in found.items() if f["severity"] == "warning"}
        notes = sum(1 for f in found.values() if f["severity"] == "note")
        judged = {k: verdicts[(k[0], k[1], k[3])] for k in warn if (k[0], k[1], k[3]) in verdicts}
        true = sum(1 for v in judged.values() if v[0])
        print(row(p["name"], summary["analyzed"], len(summary["withErrors"]),
                  None if floor_errs is None else len(floor_errs), len(warn), notes, len(judged),
                  true, floor_cpu, lint_cpu))
        s = samples.setdefault(p["sample"], {"units": 0, "errs": 0, "ferrs": 0, "found": {},
                                             "fcpu": 0.0, "lcpu": 0.0, "floor_all": True})
        s["units"] += summary["analyzed"]
        s["errs"] += len(summary["withErrors"])
        s["lcpu"] += lint_cpu or 0.0
        if floor_errs is None or floor_cpu is None:
            s["floor_all"] = False
        else:
            s["ferrs"] += len(floor_errs)
            s["fcpu"] += floor_cpu
        for k, f in found.items():
            old = s["found"].get(k)
            if old is None or (old["severity"] != "warning" and f["severity"] == "warning"):
                s["found"][k] = f
        for k, f in sorted(warn.items()):
            v = verdicts.get((k[0], k[1], k[3]))
            if v is None:
                unjudged.append((p["name"], k, f))
            elif not v[0]:
                false_ones.append((k, v[1]))
        if a.compare:
            before, _ = load(a.compare, p["name"])
            if before is not None:
                old = places(before, p["source"])
                for k in sorted(set(old) | set(found)):
                    sb = old[k]["severity"] if k in old else "-"
                    sa = found[k]["severity"] if k in found else "-"
                    if sb != sa:
                        changes.append((p["name"], k, sb, sa, (found.get(k) or old[k])["message"]))

    total = {"units": 0, "errs": 0, "ferrs": 0, "found": {}, "fcpu": 0.0, "lcpu": 0.0,
             "floor_all": True}
    for name, s in list(samples.items()) + [("all", None)]:
        if s is None:
            s = total
        else:
            for key in ("units", "errs", "ferrs", "fcpu", "lcpu"):
                total[key] += s[key]
            total["floor_all"] = total["floor_all"] and s["floor_all"]
            for k, f in s["found"].items():
                old = total["found"].get(k)
                if old is None or (old["severity"] != "warning" and f["severity"] == "warning"):
                    total["found"][k] = f
        warn = [k for k, f in s["found"].items() if f["severity"] == "warning"]
        judged = [verdicts[(k[0], k[1], k[3])] for k in warn if (k[0], k[1], k[3]) in verdicts]
        print(row(f"{name}, each place once", s["units"], s["errs"],
                  s["ferrs"] if s["floor_all"] else None, len(warn),
                  sum(1 for f in s["found"].values() if f["severity"] == "note"), len(judged),
                  sum(1 for v in judged if v[0]), s["fcpu"] if s["floor_all"] else None,
                  s["lcpu"], bold=True))
    if missing:
        print(f"\nNot run (no report): {', '.join(missing)}")
    print(f"\nWarnings not judged: {len(unjudged)}")
    for name, k, f in unjudged:
        print(f"  {name}\t{k[0]}\t{k[1]}\t{k[3]}\t{f.get('function') or ''}\t{f['message'][:160]}")
    print(f"\nWarnings judged false: {len(false_ones)}")
    for k, why in false_ones:
        print(f"  {k[0]}:{k[1]} {k[3]}: {why}")
    if a.compare:
        print(f"\nFindings changed against {a.compare}: {len(changes)}")
        for name, k, sb, sa, msg in changes:
            print(f"  {name} {k[3]} {k[0]}:{k[1]}:{k[2]} {sb} -> {sa}: {msg[:200]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
