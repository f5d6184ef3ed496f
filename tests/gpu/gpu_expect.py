#!/usr/bin/env python3
"""gpu_expect.py: expectation files of the GPU test programs.

  gpu_expect.py check ROOT
      Every tests/gpu/<name>.expect line "RULE FILE LINE COUNT" points at a line of FILE that
      carries the marker /* syncscope: RULE */, every marker has exactly one expectation
      line, and every program has an expectation file (empty for clean programs).
  gpu_expect.py compare ROOT EXPECT JSON
      Extracts (rule, file, line, count) from a `syncscope run --format json` result, with
      file paths made relative to ROOT, and compares them with EXPECT exactly. Latent notes
      ("latent": true) are left out: the markers are about calls that blocked.
Exit status: 0 when everything matches, 1 on a mismatch, 2 on a usage or input error.
"""
import json
import os
import re
import subprocess
import sys

# The JSON result's field names (docs/output-formats.md), in one place.
FIELD_ROOT = "root"
FIELD_FINDINGS = "findings"
FIELD_RULE = "ruleId"        # "SYNC201"; an object with FIELD_RULE_ID is accepted too
FIELD_RULE_ID = "id"
FIELD_FILE = "file"
FIELD_LINE = "line"
FIELD_EVIDENCE = "evidence"
FIELD_COUNT = "count"
FIELD_LATENT = "latent"

GPU_DIR = "tests/gpu"
MARKER = re.compile(r"/\* syncscope: (SYNC[0-9]{3}) \*/")
HELPERS = {"gpu_common.h", "gpu_probe.cu"}


def light_rules(syncscope):
    """The rules the light mode reports, as `syncscope rules --format json` marks them
    ("lightMode"): a tuple of IDs."""
    listed = subprocess.run([syncscope, "rules", "--format", "json"], capture_output=True,
                            text=True, check=True)
    return tuple(rule["id"] for rule in json.loads(listed.stdout) if rule.get("lightMode") is True)


def read_expect(path):
    """Returns the sorted list of (rule, file, line, count) of an expectation file."""
    rows = []
    with open(path, encoding="utf-8") as handle:
        for number, text in enumerate(handle, 1):
            text = text.strip()
            if not text or text.startswith("#"):
                continue
            parts = text.split()
            if len(parts) != 4 or not re.fullmatch(r"SYNC[0-9]{3}", parts[0]) \
                    or not parts[2].isdigit() or not parts[3].isdigit() or int(parts[3]) < 1:
                raise ValueError(f"{path}:{number}: expected 'RULE FILE LINE COUNT': {text}")
            rows.append((parts[0], parts[1], int(parts[2]), int(parts[3])))
    return sorted(rows)


def check(root):
    """The consistency check between sources, markers and expectation files."""
    errors = []
    gpu_dir = os.path.join(root, GPU_DIR)
    programs = sorted(f[:-3] for f in os.listdir(gpu_dir)
                      if f.endswith(".cu") and f not in HELPERS)
    if not programs:
        errors.append(f"no programs in {gpu_dir}")
    for program in programs:
        source_rel = f"{GPU_DIR}/{program}.cu"
        expect_path = os.path.join(gpu_dir, program + ".expect")
        if not os.path.exists(expect_path):
            errors.append(f"{source_rel}: no {program}.expect")
            continue
        try:
            rows = read_expect(expect_path)
        except ValueError as err:
            errors.append(str(err))
            continue
        with open(os.path.join(root, source_rel), encoding="utf-8") as handle:
            lines = handle.read().split("\n")
        markers = {}
        for number, text in enumerate(lines, 1):
            for rule in MARKER.findall(text):
                markers[(rule, number)] = text.strip()
        seen = set()
        for rule, file, line, _count in rows:
            if file != source_rel:
                errors.append(f"{expect_path}: {rule} names {file}, not {source_rel}")
                continue
            if (rule, line) in seen:
                errors.append(f"{expect_path}: {rule} at line {line} listed twice")
            seen.add((rule, line))
            if (rule, line) not in markers:
                text = lines[line - 1].strip() if 0 < line <= len(lines) else "(no such line)"
                errors.append(f"{expect_path}: {rule} at {file}:{line}, which has no marker "
                              f"/* syncscope: {rule} */: {text}")
        for rule, line in sorted(set(markers) - seen):
            errors.append(f"{source_rel}:{line}: marker {rule} has no line in {program}.expect")
    for message in errors:
        print(f"gpu_expect: {message}", file=sys.stderr)
    if not errors:
        print(f"gpu_expect: {len(programs)} programs, expectation files consistent")
    return 1 if errors else 0


def relative(root, path, bases):
    """'path' relative to 'root' when it lies below it, else unchanged. A relative 'path' is
    tried against each folder of 'bases' (the result's own root, the current folder)."""
    if not path:
        return ""
    real_root = os.path.realpath(root)
    candidates = [path] if os.path.isabs(path) else [os.path.join(b, path) for b in bases if b]
    for candidate in candidates:
        real = os.path.realpath(candidate)
        if real.startswith(real_root + os.sep) and (os.path.isabs(path) or os.path.exists(real)):
            return os.path.relpath(real, real_root)
    return os.path.normpath(path)


def findings_of(root, json_path):
    """Returns the sorted (rule, file, line, count) of a JSON result."""
    with open(json_path, encoding="utf-8") as handle:
        document = json.load(handle)
    rows = []
    bases = [document.get(FIELD_ROOT) if isinstance(document.get(FIELD_ROOT), str) else None,
             os.getcwd(), root]
    for finding in document.get(FIELD_FINDINGS, []):
        # Latent notes (calls that synchronized but found the GPU idle) are not what the
        # markers describe; the replays of the recorded traces check them.
        if finding.get(FIELD_LATENT) is True:
            continue
        rule = finding.get(FIELD_RULE)
        if isinstance(rule, dict):
            rule = rule.get(FIELD_RULE_ID)
        evidence = finding.get(FIELD_EVIDENCE) or {}
        rows.append((str(rule), relative(root, finding.get(FIELD_FILE) or "", bases),
                     int(finding.get(FIELD_LINE) or 0), int(evidence.get(FIELD_COUNT) or 0)))
    return sorted(rows)


def compare(root, expect_path, json_path):
    """Exact comparison of the expectation with the findings of a run."""
    expected = read_expect(expect_path)
    observed = findings_of(root, json_path)
    if expected == observed:
        print(f"gpu_expect: {len(observed)} finding(s) as expected")
        return 0
    def show(rows):
        return "\n".join(f"  {r} {f} {l} {c}" for r, f, l, c in rows) or "  (none)"
    print(f"gpu_expect: findings differ from {expect_path}\nexpected:\n{show(expected)}\n"
          f"observed:\n{show(observed)}", file=sys.stderr)
    return 1


def main(argv):
    try:
        if len(argv) == 3 and argv[1] == "check":
            return check(argv[2])
        if len(argv) == 5 and argv[1] == "compare":
            return compare(argv[2], argv[3], argv[4])
    except (OSError, ValueError, TypeError, AttributeError) as err:
        print(f"gpu_expect: {err}", file=sys.stderr)
        return 2
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
