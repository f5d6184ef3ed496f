"""compare_real.py: what syncscope found on one real workload against PyTorch's own sync debug
mode, and the files that replay the recorded trace in CI.

  compare_real.py workload NAME SYNCSCOPE TRACE RESULT ORACLE TIMES OUTDIR
      RESULT: the run's JSON result; ORACLE: sync_oracle.py's JSON ("-" for none); TIMES: a
      JSON object with the wall times and the finisher's timing line. Writes OUTDIR/NAME.json
      (the comparison) and, in OUTDIR/tests-data/, real_NAME.sstrace (a copy of TRACE),
      real_NAME.expect (the findings `syncscope analyze` replays from it, for tests/replay) and
      real_NAME.oracle (the warned lines, each of which a finding must be at or go through).
  compare_real.py table OUTDIR
      Writes OUTDIR/results.md: one row per workload (recall against the oracle, what syncscope
      found beyond it, wall times bare and under syncscope, the finisher's time).
Exit status: 0, or 1 when a workload's recall is below 1.0 (table), 2 on a usage error.
"""
import datetime
import glob
import json
import os
import shutil
import subprocess
import sys


def located(finding):
    """The (file, line) places a finding stands for: its own and its via frame's."""
    places = set()
    if finding.get("file"):
        places.add((finding["file"], int(finding.get("line") or 0)))
    via = finding.get("via") or {}
    if via.get("file"):
        places.add((via["file"], int(via.get("line") or 0)))
    return places


def workload(name, syncscope, trace, result_path, oracle_path, times_path, outdir):
    with open(result_path, encoding="utf-8") as handle:
        result = json.load(handle)
    findings = result.get("findings", [])
    warned = []
    if oracle_path != "-" and os.path.exists(oracle_path):
        with open(oracle_path, encoding="utf-8") as handle:
            warned = sorted({(w["file"], int(w["line"])) for w in json.load(handle)})
    covered_by = {}
    for f in findings:
        for place in located(f):
            covered_by.setdefault(place, []).append(f["ruleId"])
    missed = [w for w in warned if w not in covered_by]
    warned_set = set(warned)
    beyond = [f for f in findings if not (located(f) & warned_set)]
    with open(times_path, encoding="utf-8") as handle:
        times = json.load(handle)
    row = {
        "name": name,
        "warned": len(warned),
        "covered": len(warned) - len(missed),
        "recall": (len(warned) - len(missed)) / len(warned) if warned else None,
        "missed": [f"{f}:{l}" for f, l in missed],
        "findings": len(findings),
        "blocking": sum(1 for f in findings if not f.get("latent")),
        "latent": sum(1 for f in findings if f.get("latent")),
        "startup": sum(1 for f in findings if f.get("startup")),
        "beyond": sorted({f"{f['ruleId']} {f.get('file')}:{f.get('line')}"
                          + (f" via {f['via']['text']}" if f.get("via") else "")
                          for f in beyond}),
        "rules": sorted({f["ruleId"] for f in findings}),
        **times,
    }
    with open(os.path.join(outdir, f"{name}.json"), "w", encoding="utf-8") as handle:
        json.dump(row, handle, indent=1)

    data = os.path.join(outdir, "tests-data")
    os.makedirs(data, exist_ok=True)
    base = os.path.join(data, f"real_{name}")
    shutil.copyfile(trace, base + ".sstrace")
    replay = subprocess.run([syncscope, "analyze", "--format", "json", trace],
                            capture_output=True, text=True)
    replayed = json.loads(replay.stdout) if replay.stdout else {"findings": []}
    gpu = (replayed.get("run") or {}).get("gpu") or "a GPU"
    when = datetime.date.today().isoformat()
    with open(base + ".expect", "w", encoding="utf-8") as handle:
        handle.write(f"# real_{name}.sstrace: tests/gpu/real/{name}.py under syncscope run on "
                     f"{gpu}, recorded by\n# tests/gpu/real/run_real.sh on {when}; the findings "
                     "`syncscope analyze` made of it then.\n")
        handle.write(f"exit {replay.returncode}\n")
        for f in replayed.get("findings", []):
            via = f" via {f['via']['text']}" if f.get("via") else ""
            tags = ", ".join(t for t in ("latent" if f.get("latent") else "",
                                         "startup" if f.get("startup") else "") if t)
            note = f"  # {f['evidence'].get('api')}{via}" + (f"; {tags}" if tags else "")
            handle.write(f"{f['ruleId']} {f.get('file') or '-'} {f.get('line') or 0} "
                         f"{f['evidence']['count']}{note}\n")
    if warned:
        with open(base + ".oracle", "w", encoding="utf-8") as handle:
            handle.write(f"# real_{name}: lines torch.cuda.set_sync_debug_mode('warn') warned "
                         "about (tests/gpu/real/sync_oracle.py)\n")
            for file, line in warned:
                handle.write(f"{file} {line}\n")
    print(f"{name}: {row['covered']}/{row['warned']} warned lines covered, "
          f"{row['findings']} findings ({row['latent']} latent, {row['startup']} startup)")
    return 0


def table(outdir):
    rows = []
    for path in sorted(glob.glob(os.path.join(outdir, "*.json"))):
        with open(path, encoding="utf-8") as handle:
            row = json.load(handle)
        if isinstance(row, dict) and "warned" in row:
            rows.append(row)
    lines = ["| workload | warned lines | covered (recall) | findings (latent, startup) | "
             "beyond the oracle | rules | bare s | syncscope s | ratio | finisher |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    failed = 0
    for r in rows:
        recall = "n/a" if r["recall"] is None else f"{r['covered']} ({r['recall']:.2f})"
        if r["recall"] is not None and r["recall"] < 1.0:
            failed = 1
        ratio = (f"{r['run_s'] / r['bare_s']:.2f}x" if r.get("bare_s") and r.get("run_s")
                 else "n/a")
        lines.append(f"| {r['name']} | {r['warned']} | {recall} | {r['findings']} "
                     f"({r['latent']}, {r['startup']}) | {len(r['beyond'])} | "
                     f"{' '.join(r['rules'])} | {r.get('bare_s', 'n/a')} | "
                     f"{r.get('run_s', 'n/a')} | {ratio} | {r.get('exit_timing', '')} |")
    text = "\n".join(lines) + "\n"
    for r in rows:
        if r["missed"]:
            text += f"\n{r['name']}: warned lines without a finding: {', '.join(r['missed'])}\n"
        if r["beyond"]:
            text += f"\n{r['name']}: found beyond the oracle:\n" + \
                "".join(f"- {b}\n" for b in r["beyond"])
    with open(os.path.join(outdir, "results.md"), "w", encoding="utf-8") as handle:
        handle.write(text)
    print(text)
    return failed


def main(argv):
    if len(argv) == 9 and argv[1] == "workload":
        return workload(*argv[2:])
    if len(argv) == 3 and argv[1] == "table":
        return table(argv[2])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
