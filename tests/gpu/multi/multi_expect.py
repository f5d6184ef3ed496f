#!/usr/bin/env python3
"""multi_expect.py: expectations of the multi-GPU test programs (tests/gpu/multi/).

The CUDA programs use the tests/gpu format (<name>.expect: "RULE FILE LINE COUNT", compared by
tests/gpu/gpu_expect.py) with markers that also name the device: /* syncscope: RULE device N */.
The PyTorch DDP script marks its lines with "# syncscope: RULE rank R count C".

  multi_expect.py check ROOT
      Markers and .expect lines of every tests/gpu/multi/*.cu agree, and every DDP marker is
      well formed.
  multi_expect.py devices ROOT SOURCE JSON
      Every finding of a run of SOURCE is on the device its marker names, its message starts
      with "device N: ", and a finding on a device other than 0 waited for no kernel named
      device0_* (those run on device 0 only).
  multi_expect.py ranks ROOT SCRIPT JSON0 JSON1 HTML
      The outputs of rank 0 and rank 1 carry their rank; each marked finding of SCRIPT is in the
      marked rank's JSON with the marked count, and the other rank has no finding at that line;
      the merged HTML page lists both ranks and puts each marked finding on its rank only.
Exit status: 0 when everything matches, 1 on a mismatch, 2 on a usage or input error.
"""
import json
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import gpu_expect  # noqa: E402  (tests/gpu/gpu_expect.py: read_expect, findings_of, relative)

MULTI_DIR = "tests/gpu/multi"
DEVICE_MARKER = re.compile(r"/\* syncscope: (SYNC[0-9]{3}) device ([0-9]+) \*/")
RANK_MARKER = re.compile(r"#\s*syncscope:\s*(SYNC[0-9]{3}) rank ([0-9]+) count ([0-9]+)\s*$")
ANY_MARKER = re.compile(r"syncscope: SYNC[0-9]{3}")
DEVICE0_ONLY = "device0_"
HTML_DATA = re.compile(r'<script type="application/json" id="ss-data">(.*?)</script>', re.S)


def device_markers(path):
    """{(rule, line): device} of a CUDA source, and the lines with malformed markers."""
    marks, bad = {}, []
    with open(path, encoding="utf-8") as handle:
        for number, text in enumerate(handle, 1):
            found = DEVICE_MARKER.findall(text)
            for rule, device in found:
                marks[(rule, number)] = int(device)
            if ANY_MARKER.search(text) and not found:
                bad.append(number)
    return marks, bad


def rank_markers(path):
    """[(rule, line, rank, count)] of a Python script, and the lines with malformed markers."""
    marks, bad = [], []
    with open(path, encoding="utf-8") as handle:
        for number, text in enumerate(handle, 1):
            match = RANK_MARKER.search(text)
            if match:
                marks.append((match.group(1), number, int(match.group(2)), int(match.group(3))))
            elif ANY_MARKER.search(text) and "#" in text:
                bad.append(number)
    return marks, bad


def check(root):
    errors = []
    folder = os.path.join(root, MULTI_DIR)
    programs = sorted(f[:-3] for f in os.listdir(folder) if f.endswith(".cu"))
    scripts = sorted(f for f in os.listdir(folder) if f.endswith(".py") and f != "multi_expect.py")
    if not programs:
        errors.append(f"no programs in {folder}")
    for program in programs:
        source_rel = f"{MULTI_DIR}/{program}.cu"
        marks, bad = device_markers(os.path.join(root, source_rel))
        errors += [f"{source_rel}:{n}: marker without 'device N'" for n in bad]
        expect_path = os.path.join(folder, program + ".expect")
        if not os.path.exists(expect_path):
            errors.append(f"{source_rel}: no {program}.expect")
            continue
        try:
            rows = gpu_expect.read_expect(expect_path)
        except ValueError as err:
            errors.append(str(err))
            continue
        seen = set()
        for rule, file, line, _count in rows:
            if file != source_rel:
                errors.append(f"{expect_path}: {rule} names {file}, not {source_rel}")
            elif (rule, line) not in marks:
                errors.append(f"{expect_path}: {rule} at {file}:{line} has no marker")
            seen.add((rule, line))
        for rule, line in sorted(set(marks) - seen):
            errors.append(f"{source_rel}:{line}: marker {rule} has no line in {program}.expect")
    for script in scripts:
        marks, bad = rank_markers(os.path.join(folder, script))
        errors += [f"{MULTI_DIR}/{script}:{n}: marker without 'rank R count C'" for n in bad]
        if not marks:
            errors.append(f"{MULTI_DIR}/{script}: no marker")
    for message in errors:
        print(f"multi_expect: {message}", file=sys.stderr)
    if not errors:
        print(f"multi_expect: {len(programs)} programs, {len(scripts)} scripts, markers consistent")
    return 1 if errors else 0


def load(path):
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def rule_of(finding):
    rule = finding.get("ruleId")
    return str(rule.get("id") if isinstance(rule, dict) else rule)


def devices(root, source, json_path):
    marks, _bad = device_markers(os.path.join(root, source))
    document = load(json_path)
    bases = [document.get("root") if isinstance(document.get("root"), str) else None,
             os.getcwd(), root]
    errors = []
    for finding in document.get("findings", []):
        if finding.get("latent") is True:
            continue  # latent notes: not what the device markers describe
        rule = rule_of(finding)
        file = gpu_expect.relative(root, finding.get("file") or "", bases)
        line = int(finding.get("line") or 0)
        evidence = finding.get("evidence") or {}
        where = f"{rule} {file}:{line}"
        if file != source or (rule, line) not in marks:
            errors.append(f"{where}: not marked in {source}")
            continue
        device = marks[(rule, line)]
        if evidence.get("device") != device:
            errors.append(f"{where}: on device {evidence.get('device')}, marked device {device}")
        message = finding.get("message") or ""
        if not message.startswith(f"device {device}: "):
            errors.append(f"{where}: message does not name device {device}: {message}")
        if device != 0 and DEVICE0_ONLY in (evidence.get("waitedFor") or
                                            evidence.get("waited_for") or ""):
            errors.append(f"{where}: waited for device 0's work: {evidence}")
    for message in errors:
        print(f"multi_expect: {message}", file=sys.stderr)
    if not errors:
        print(f"multi_expect: {len(document.get('findings', []))} finding(s) on their devices")
    return 1 if errors else 0


def ranks(root, script, json_paths, html_path):
    marks, _bad = rank_markers(os.path.join(root, script))
    errors = []
    documents = [load(path) for path in json_paths]
    for rank, document in enumerate(documents):
        run = document.get("run") or {}
        if run.get("rank") != rank:
            errors.append(f"{json_paths[rank]}: rank {run.get('rank')}, expected {rank}")
    for rule, line, marked_rank, count in marks:
        for rank, document in enumerate(documents):
            bases = [document.get("root") if isinstance(document.get("root"), str) else None,
                     root]
            at_line = [f for f in document.get("findings", [])
                       if gpu_expect.relative(root, f.get("file") or "", bases) == script
                       and int(f.get("line") or 0) == line]
            if rank != marked_rank:
                if at_line:
                    errors.append(f"rank {rank}: {script}:{line} reported "
                                  f"{[rule_of(f) for f in at_line]}, marked for rank "
                                  f"{marked_rank} only")
                continue
            hits = [f for f in at_line if rule_of(f) == rule]
            got = [int((f.get("evidence") or {}).get("count") or 0) for f in hits]
            if got != [count]:
                errors.append(f"rank {rank}: {rule} {script}:{line}: counts {got}, expected "
                              f"[{count}]")
    with open(html_path, encoding="utf-8") as handle:
        match = HTML_DATA.search(handle.read())
    if match is None:
        errors.append(f"{html_path}: no ss-data")
    else:
        data = json.loads(match.group(1))
        procs = data.get("procs", [])
        run_ranks = sorted(p.get("rank") for p in procs if p.get("kind") == "run")
        if run_ranks != [0, 1]:
            errors.append(f"{html_path}: run ranks {run_ranks}, expected [0, 1]")
        for rule, line, marked_rank, _count in marks:
            on = sorted(procs[f["p"]].get("rank") for f in data.get("findings", [])
                        if f.get("l") == line and str(f.get("f", "")).endswith(script)
                        and data["rules"][f["r"]].get("id", rule) == rule)
            if on != [marked_rank]:
                errors.append(f"{html_path}: {rule} at {script}:{line} on ranks {on}, expected "
                              f"[{marked_rank}]")
    for message in errors:
        print(f"multi_expect: {message}", file=sys.stderr)
    if not errors:
        print(f"multi_expect: {len(marks)} marked finding(s) on their ranks, page merged")
    return 1 if errors else 0


def main(argv):
    try:
        if len(argv) == 3 and argv[1] == "check":
            return check(argv[2])
        if len(argv) == 5 and argv[1] == "devices":
            return devices(argv[2], argv[3], argv[4])
        if len(argv) == 7 and argv[1] == "ranks":
            return ranks(argv[2], argv[3], argv[4:6], argv[6])
    except (OSError, ValueError, TypeError, KeyError, IndexError, AttributeError) as err:
        print(f"multi_expect: {err}", file=sys.stderr)
        return 2
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
