#!/usr/bin/env python3
"""same_answers.py: the light mode gives the full mode's answers for its rules.

  same_answers.py --syncscope SYNCSCOPE --root ROOT --workdir DIR [--probe GPU_PROBE]
                  [--report FILE] [--] PROGRAM [ARGS...] [:: PROGRAM [ARGS...]]...
      Runs each PROGRAM bare, under `syncscope run` (the full mode) and under `syncscope run
      --mode light`, and requires, for the rules the light mode reports (SYNC201, SYNC202,
      SYNC301, SYNC401, SYNC402): the same findings, as (rule, file, line, count, latent),
      file paths relative to ROOT; every finding of the light run marked "mode": "light";
      the light run's note that says what it cannot report; the bare run's stdout and exit
      status in both runs. Programs are separated by '::'. --report FILE appends one line per
      program with the findings and each finding's blocked time in both modes.
Exit status: 0 all equal, 1 a difference, 2 a usage error, 77 skipped (no GPU visible).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import gpu_expect  # noqa: E402  (tests/gpu/gpu_expect.py: the JSON result's fields)

LIGHT_RULES = ("SYNC201", "SYNC202", "SYNC301", "SYNC401", "SYNC402")
LIGHT_NOTE = "light mode: only SYNC201, SYNC202, SYNC301, SYNC401 and SYNC402 are reported"
TIMEOUT_S = 120


def clean_env():
    """The environment without anything that would observe the program."""
    return {k: v for k, v in os.environ.items()
            if not k.startswith("SYNCSCOPE_") and k not in ("LD_PRELOAD", "CUDA_INJECTION64_PATH")}


def execute(cmd, cwd):
    """(status, stdout, stderr) of 'cmd'; status None when it outlived TIMEOUT_S."""
    try:
        done = subprocess.run(cmd, cwd=cwd, env=clean_env(), capture_output=True,
                              timeout=TIMEOUT_S, check=False)
    except subprocess.TimeoutExpired:
        return None, "", ""
    return (done.returncode, done.stdout.decode("utf-8", "replace"),
            done.stderr.decode("utf-8", "replace"))


def light_findings(root, path):
    """The findings of the light rules in the JSON result 'path': a sorted list of
    (rule, file, line, count, latent), a dict of the same key to blocked ns, the modes the
    findings name, and the result's diagnostics' messages."""
    with open(path, encoding="utf-8") as handle:
        document = json.load(handle)
    bases = [document.get(gpu_expect.FIELD_ROOT)
             if isinstance(document.get(gpu_expect.FIELD_ROOT), str) else None,
             os.getcwd(), root]
    rows, blocked, modes = [], {}, set()
    for finding in document.get(gpu_expect.FIELD_FINDINGS, []):
        rule = finding.get(gpu_expect.FIELD_RULE)
        if isinstance(rule, dict):
            rule = rule.get(gpu_expect.FIELD_RULE_ID)
        if rule not in LIGHT_RULES:
            continue
        evidence = finding.get(gpu_expect.FIELD_EVIDENCE) or {}
        key = (rule, gpu_expect.relative(root, finding.get(gpu_expect.FIELD_FILE) or "", bases),
               int(finding.get(gpu_expect.FIELD_LINE) or 0),
               int(evidence.get(gpu_expect.FIELD_COUNT) or 0),
               bool(finding.get(gpu_expect.FIELD_LATENT)))
        rows.append(key)
        blocked[key] = int(evidence.get("totalNs") or 0)
        modes.add((finding.get("extra") or {}).get("mode"))
    diags = [d.get("message", "") for d in document.get("diagnostics", []) if isinstance(d, dict)]
    return sorted(rows), blocked, modes, diags


def text(rows):
    return "; ".join(f"{r} {f}:{l} x{c}{' latent' if lat else ''}"
                     for r, f, l, c, lat in rows) or "none"


def compare(opts, program, index, report):
    """Runs one program three ways; returns the list of differences."""
    name = f"{index:02d}-{os.path.basename(program[0])}"
    workdir = os.path.join(opts.workdir, name)
    shutil.rmtree(workdir, ignore_errors=True)
    os.makedirs(workdir)
    problems = []
    bare = execute(program, workdir)
    results = {}
    for mode in ("full", "light"):
        out = os.path.join(workdir, f"{mode}.json")
        cmd = [opts.syncscope, "run", "--format", "json", "--fail-on", "none", "-o", out,
               "--trace", os.path.join(workdir, f"{mode}.sstrace")]
        if mode == "light":
            cmd += ["--mode", "light"]
        status, stdout, stderr = execute(cmd + ["--"] + program, workdir)
        with open(os.path.join(workdir, f"{mode}.stderr"), "w", encoding="utf-8") as handle:
            handle.write(stderr)
        if status != bare[0]:
            problems.append(f"{mode}: exit status {status}, bare {bare[0]}")
        if stdout != bare[1]:
            problems.append(f"{mode}: stdout differs from the bare run")
        if not os.path.isfile(out):
            problems.append(f"{mode}: no result {out}")
            return problems
        results[mode] = light_findings(opts.root, out)
    full_rows, full_ns, _, _ = results["full"]
    light_rows, light_ns, light_modes, light_diags = results["light"]
    if light_rows != full_rows:
        problems.append(f"findings differ: full {text(full_rows)}; light {text(light_rows)}")
    if light_rows and light_modes != {"light"}:
        problems.append(f"light findings name the modes {sorted(map(str, light_modes))}")
    if not any(d.startswith(LIGHT_NOTE) for d in light_diags):
        problems.append("the light run's result lacks the note of what it cannot report")
    if report is not None:
        times = ", ".join(f"{r} {f}:{l} full {full_ns.get(k, 0)} ns light {light_ns.get(k, 0)} ns"
                          for k in sorted(set(full_rows) | set(light_rows))
                          for r, f, l, _c, _lat in [k])
        report.write(f"{name}: {'ok' if not problems else 'DIFF'}: {times or 'no findings'}\n")
        for p in problems:
            report.write(f"  {p}\n")
    return problems


def gpu_visible(probe):
    if shutil.which("nvidia-smi") is None:
        return False
    listed = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, check=False)
    if listed.returncode != 0 or not listed.stdout.strip():
        return False
    if probe:
        counted = subprocess.run([probe], capture_output=True, text=True, check=False)
        return counted.returncode == 0 and counted.stdout.strip() not in ("", "0")
    return True


def main(argv):
    parser = argparse.ArgumentParser(prog="same_answers.py")
    for name in ("syncscope", "root", "workdir"):
        parser.add_argument(f"--{name}", required=True)
    parser.add_argument("--probe", default="")
    parser.add_argument("--report", default="")
    parser.add_argument("programs", nargs=argparse.REMAINDER)
    try:
        opts = parser.parse_args(argv[1:])
    except SystemExit:
        return 2
    words = opts.programs[1:] if opts.programs[:1] == ["--"] else opts.programs
    programs, current = [], []
    for word in words + ["::"]:
        if word == "::":
            if current:
                programs.append(current)
            current = []
        else:
            current.append(word)
    if not programs:
        print(__doc__, file=sys.stderr)
        return 2
    if not gpu_visible(opts.probe):
        print("skipped: no GPU visible")
        return 77
    opts.root = os.path.abspath(opts.root)
    opts.workdir = os.path.abspath(opts.workdir)
    failed = 0
    report = open(opts.report, "a", encoding="utf-8") if opts.report else None
    try:
        for index, program in enumerate(programs):
            problems = compare(opts, program, index, report)
            for p in problems:
                print(f"FAIL: {' '.join(program)}: {p}")
            failed += bool(problems)
    finally:
        if report is not None:
            report.close()
    print(f"same_answers: {len(programs) - failed} of {len(programs)} programs equal")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
