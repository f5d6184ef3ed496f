#!/usr/bin/env python3
"""same_answers.py: the light mode gives the full mode's answers for its rules.

  same_answers.py --syncscope SYNCSCOPE --root ROOT --workdir DIR [--probe GPU_PROBE]
                  [--report FILE] [--known FILE] [--light-wrap] [--] PROGRAM [ARGS...]
                  [:: PROGRAM [ARGS...]]...
      Runs each PROGRAM bare, under `syncscope run` (the full mode) and under `syncscope run
      --mode light`, and requires, for the rules the light mode reports (those `syncscope
      rules --format json` marks "lightMode"): the same findings, as (rule, file, line,
      count, latent), file paths relative to ROOT, except at the places the known
      differences list for the program (--known, default known_differences.txt next to this
      script: PROGRAM RULE FILE:LINE WHY); every finding of the light run marked "mode":
      "light"; the light run's note that says what it cannot report; the bare run's stdout
      and exit status in both runs. Programs are separated by '::'. --report FILE appends
      one line per program with the findings and each finding's blocked time in both modes,
      and one line per known difference met, with its reason. --light-wrap: the light run
      with SYNCSCOPE_LIGHT_PROBE=wrap, for which `syncscope run` preloads the wrappers
      (libsyncscope_cudart.so, beside the interposer in the build tree), its runtime calls
      taken by them instead of CUPTI's runtime callbacks (a program linked against the shared
      runtime).
  same_answers.py replay --syncscope SYNCSCOPE --root ROOT --workdir DIR [--known FILE]
                  PROGRAM FULL.sstrace LIGHT.sstrace [PROGRAM FULL.sstrace LIGHT.sstrace]...
      The same comparison of two recorded traces of PROGRAM (a file name, as in the known
      differences list), each analyzed with `syncscope analyze` (no program is run).
Exit status: 0 all equal but for known differences, 1 a difference, 2 a usage error, 77
skipped (no GPU visible).
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

TIMEOUT_S = 120
KNOWN_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "known_differences.txt")


def light_note(rules):
    """The start of the light mode's note (detect/detect.c, report_mode) for 'rules'."""
    listed = ", ".join(rules[:-1]) + " and " + rules[-1] if len(rules) > 1 else rules[0]
    return f"light mode: only {listed} are reported"


def read_known(path, rules):
    """The known differences list: {(program, rule, file, line): why}. Raises ValueError with
    the file's line for a malformed entry or a rule the light mode does not report."""
    known = {}
    with open(path, encoding="utf-8") as handle:
        for number, text in enumerate(handle, 1):
            text = text.strip()
            if not text or text.startswith("#"):
                continue
            words = text.split(None, 3)
            place = words[2].rpartition(":") if len(words) == 4 else ("", "", "")
            if len(words) < 4 or not place[1] or not place[2].isdigit():
                raise ValueError(f"{path}:{number}: expected 'PROGRAM RULE FILE:LINE WHY'")
            if words[1] not in rules:
                raise ValueError(f"{path}:{number}: {words[1]} is not a rule of the light mode")
            file = "" if place[0] == "-" else place[0]
            known[(words[0], words[1], file, int(place[2]))] = words[3]
    return known


def program_name(program):
    """The name a program has in the known differences list: its first argument ending in
    .py (the script an interpreter runs), else the executable's file name."""
    scripts = [w for w in program[1:] if w.endswith(".py")]
    return os.path.basename(scripts[0] if scripts else program[0])


def clean_env():
    """The environment without anything that would observe the program."""
    return {k: v for k, v in os.environ.items()
            if not k.startswith("SYNCSCOPE_") and k not in ("LD_PRELOAD", "CUDA_INJECTION64_PATH")}


def execute(cmd, cwd, extra=None):
    """(status, stdout, stderr) of 'cmd' (with the environment 'extra' adds); status None when
    it outlived TIMEOUT_S."""
    try:
        done = subprocess.run(cmd, cwd=cwd, env=dict(clean_env(), **(extra or {})),
                              capture_output=True,
                              timeout=TIMEOUT_S, check=False)
    except subprocess.TimeoutExpired:
        return None, "", ""
    return (done.returncode, done.stdout.decode("utf-8", "replace"),
            done.stderr.decode("utf-8", "replace"))


def light_findings(root, path, rules):
    """The findings of 'rules' in the JSON result 'path': a sorted list of (rule, file, line,
    count, latent), a dict of the same key to blocked ns, the modes the findings name, and
    the result's diagnostics' messages."""
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
        if rule not in rules:
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


def known_place(known, name, rule, file, line):
    """The reason the known differences list gives for 'rule' at 'file':'line' of program
    'name', or None. A file matches by its path from the repository root, or as the end of a
    path recorded elsewhere (a trace recorded in another checkout)."""
    for (program, k_rule, k_file, k_line), why in known.items():
        if (program == name and k_rule == rule and k_line == line and
                (k_file == file or (k_file and file.endswith("/" + k_file)))):
            return why
    return None


def judge(opts, name, full, light):
    """Compares the light rules' findings of the full and the light result of program 'name';
    returns (problems, known differences met as text, the report's times)."""
    full_rows, full_ns, _, _ = full
    light_rows, light_ns, light_modes, light_diags = light
    problems, met = [], []
    places = sorted({row[:3] for row in full_rows + light_rows})
    for rule, file, line in places:
        a = [r for r in full_rows if r[:3] == (rule, file, line)]
        b = [r for r in light_rows if r[:3] == (rule, file, line)]
        if a == b:
            continue
        why = known_place(opts.known, name, rule, file, line)
        if why is None:
            problems.append(f"findings differ at {rule} {file or '-'}:{line}: full {text(a)}; "
                            f"light {text(b)}")
        else:
            met.append(f"known: {rule} {file or '-'}:{line}: full {text(a)}; light {text(b)} "
                       f"({why})")
    if light_rows and light_modes != {"light"}:
        problems.append(f"light findings name the modes {sorted(map(str, light_modes))}")
    if not any(d.startswith(light_note(opts.rules)) for d in light_diags):
        problems.append("the light run's result lacks the note of what it cannot report")
    times = ", ".join(f"{r} {f}:{l} full {full_ns.get(k, 0)} ns light {light_ns.get(k, 0)} ns"
                      for k in sorted(set(full_rows) | set(light_rows))
                      for r, f, l, _c, _lat in [k])
    return problems, met, times


def write_report(report, label, problems, met, times):
    if report is None:
        return
    report.write(f"{label}: {'ok' if not problems else 'DIFF'}: {times or 'no findings'}\n")
    for line in met + problems:
        report.write(f"  {line}\n")


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
        extra = None
        if mode == "light":
            cmd += ["--mode", "light"]
            if opts.light_wrap:  # `run` preloads the wrappers for the program (cli/run.c)
                extra = {"SYNCSCOPE_LIGHT_PROBE": "wrap"}
        status, stdout, stderr = execute(cmd + ["--"] + program, workdir, extra)
        with open(os.path.join(workdir, f"{mode}.stderr"), "w", encoding="utf-8") as handle:
            handle.write(stderr)
        if status != bare[0]:
            problems.append(f"{mode}: exit status {status}, bare {bare[0]}")
        if stdout != bare[1]:
            problems.append(f"{mode}: stdout differs from the bare run")
        if not os.path.isfile(out):
            problems.append(f"{mode}: no result {out}")
            return problems
        results[mode] = light_findings(opts.root, out, opts.rules)
    found, met, times = judge(opts, program_name(program), results["full"], results["light"])
    problems += found
    for line in met:
        print(f"{' '.join(program)}: {line}")
    write_report(report, name, problems, met, times)
    return problems


def replay(opts, name, full_trace, light_trace, index, report):
    """Analyzes the two recorded traces of program 'name'; returns the list of differences."""
    workdir = os.path.join(opts.workdir, f"{index:02d}-{name}")
    shutil.rmtree(workdir, ignore_errors=True)
    os.makedirs(workdir)
    results = {}
    for mode, trace in (("full", full_trace), ("light", light_trace)):
        out = os.path.join(workdir, f"{mode}.json")
        done = subprocess.run([opts.syncscope, "analyze", "--format", "json", "--fail-on",
                               "none", "-o", out, trace], capture_output=True, text=True,
                              timeout=TIMEOUT_S, check=False)
        if done.returncode != 0 or not os.path.isfile(out):
            return [f"{mode}: syncscope analyze {trace}: exit {done.returncode}: {done.stderr}"]
        results[mode] = light_findings(opts.root, out, opts.rules)
    problems, met, times = judge(opts, name, results["full"], results["light"])
    for line in met:
        print(f"{name}: {line}")
    write_report(report, f"{index:02d}-{name}", problems, met, times)
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


def split_programs(words):
    """The programs of a command line, separated by '::'."""
    programs, current = [], []
    for word in words + ["::"]:
        if word == "::":
            if current:
                programs.append(current)
            current = []
        else:
            current.append(word)
    return programs


def main(argv):
    replaying = argv[1:2] == ["replay"]
    parser = argparse.ArgumentParser(prog="same_answers.py")
    for name in ("syncscope", "root", "workdir"):
        parser.add_argument(f"--{name}", required=True)
    parser.add_argument("--probe", default="")
    parser.add_argument("--light-wrap", action="store_true")
    parser.add_argument("--report", default="")
    parser.add_argument("--known", default=KNOWN_FILE)
    parser.add_argument("programs", nargs=argparse.REMAINDER)
    try:
        opts = parser.parse_args(argv[2:] if replaying else argv[1:])
    except SystemExit:
        return 2
    words = opts.programs[1:] if opts.programs[:1] == ["--"] else opts.programs
    if replaying:
        jobs = [words[i:i + 3] for i in range(0, len(words), 3)]
        if not jobs or len(words) % 3 != 0:
            print(__doc__, file=sys.stderr)
            return 2
    else:
        jobs = split_programs(words)
        if not jobs:
            print(__doc__, file=sys.stderr)
            return 2
        if not gpu_visible(opts.probe):
            print("skipped: no GPU visible")
            return 77
    try:
        opts.rules = gpu_expect.light_rules(opts.syncscope)
        opts.known = read_known(opts.known, opts.rules)
    except (OSError, ValueError, subprocess.CalledProcessError) as err:
        print(f"same_answers.py: {err}", file=sys.stderr)
        return 2
    if not opts.rules:
        print(f"same_answers.py: {opts.syncscope} marks no rule of the light mode",
              file=sys.stderr)
        return 2
    opts.root = os.path.abspath(opts.root)
    opts.workdir = os.path.abspath(opts.workdir)
    failed = 0
    report = open(opts.report, "a", encoding="utf-8") if opts.report else None
    try:
        for index, job in enumerate(jobs):
            problems = (replay(opts, job[0], job[1], job[2], index, report) if replaying
                        else compare(opts, job, index, report))
            for p in problems:
                print(f"FAIL: {' '.join(job)}: {p}")
            failed += bool(problems)
    finally:
        if report is not None:
            report.close()
    what = "trace pairs" if replaying else "programs"
    print(f"same_answers: {len(jobs) - failed} of {len(jobs)} {what} equal but for known "
          "differences")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
