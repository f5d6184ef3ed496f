#!/usr/bin/env python3
"""py_expect.py: expectations of the Python samples (samples/python/*.py).

Each line of a sample that makes the host wait for the GPU ends with a marker
"# syncscope: RULE"; the markers are the expectation: syncscope must report exactly that set of
(rule, file, line), at the Python line. A line that synchronizes by design when nothing is
pending (a fixed sample's one read at the end, after the GPU drained) ends with
"# syncscope: idle": syncscope reports nothing there (no finding is allowed at that line),
while PyTorch's sync debug mode, which warns about the call whatever it waited for, may warn.

  py_expect.py check ROOT
      Every marker names a known rule form (SYNCnnn or idle), every sample but the fixed ones
      has a rule marker, and every *_fixed.py sample has none (idle markers only).
  py_expect.py compare ROOT SCRIPT JSON
      Compares the (rule, file, line) set of a `syncscope run --format json` result with the
      markers of SCRIPT (a path relative to ROOT), exactly.
  py_expect.py warned ROOT SCRIPT JSON WARNINGS
      Every line that torch.cuda.set_sync_debug_mode("warn") warned about (WARNINGS, written
      by sync_debug.py) is a line syncscope reported in JSON; prints both sets.
Exit status: 0 when everything matches, 1 on a mismatch, 2 on a usage or input error.
"""
import json
import os
import re
import sys

SAMPLES = "samples/python"
MARKER = re.compile(r"#\s*syncscope:\s*(SYNC[0-9]{3}|idle)\b")
ANY_MARKER = re.compile(r"#\s*syncscope:\s*(\S*)")


def all_markers(root, script):
    """The sorted (rule or "idle", file, line) set of the markers of 'script'; raises
    ValueError for a marker of an unknown form."""
    rows = set()
    with open(os.path.join(root, script), encoding="utf-8") as handle:
        for number, text in enumerate(handle, 1):
            for word in ANY_MARKER.findall(text):
                if not MARKER.search("# syncscope: " + word):
                    raise ValueError(f"{script}:{number}: unknown marker '{word}'")
                rows.add((word, script, number))
    return sorted(rows)


def markers(root, script):
    """The sorted (rule, file, line) set that the rule markers of 'script' promise."""
    return [row for row in all_markers(root, script) if row[0] != "idle"]


def idle_lines(root, script):
    """The lines marked "idle": synchronizing calls made when nothing is pending."""
    return sorted(line for word, _, line in all_markers(root, script) if word == "idle")


def relative(root, path, base):
    if not path:
        return ""
    full = path if os.path.isabs(path) else os.path.join(base, path)
    real, real_root = os.path.realpath(full), os.path.realpath(root)
    if real.startswith(real_root + os.sep):
        return os.path.relpath(real, real_root)
    return path


def reported(root, json_path):
    """The sorted (rule, file, line) set of a JSON result, files relative to 'root'."""
    with open(json_path, encoding="utf-8") as handle:
        document = json.load(handle)
    base = document.get("root") if isinstance(document.get("root"), str) else root
    rows = set()
    for finding in document.get("findings", []):
        # A latent note (the call synchronized, the GPU was idle) is what an 'idle' line may
        # have; markers are about calls that blocked.
        if finding.get("latent") is True:
            continue
        rule = finding.get("ruleId")
        if isinstance(rule, dict):
            rule = rule.get("id")
        rows.add((str(rule), relative(root, finding.get("file") or "", base),
                  int(finding.get("line") or 0)))
    return sorted(rows)


def show(rows):
    return "\n".join("  " + " ".join(str(x) for x in row) for row in rows) or "  (none)"


def check(root):
    errors = []
    folder = os.path.join(root, SAMPLES)
    scripts = sorted(f for f in os.listdir(folder) if f.endswith(".py"))
    for name in scripts:
        rows = markers(root, f"{SAMPLES}/{name}")
        if name.endswith("_fixed.py") and rows:
            errors.append(f"{SAMPLES}/{name}: a fixed sample has markers: {rows}")
        if not name.endswith("_fixed.py") and not rows:
            errors.append(f"{SAMPLES}/{name}: no markers")
        base = name[:-len("_fixed.py")] + ".py" if name.endswith("_fixed.py") else None
        if base and base not in scripts:
            errors.append(f"{SAMPLES}/{name}: no {base}")
    for message in errors:
        print(f"py_expect: {message}", file=sys.stderr)
    if not errors:
        print(f"py_expect: {len(scripts)} samples, markers consistent")
    return 1 if errors else 0


def compare(root, script, json_path):
    expected = markers(root, script)
    observed = reported(root, json_path)
    if expected == observed:
        print(f"py_expect: {len(observed)} finding(s) at the marked lines")
        return 0
    print(f"py_expect: findings differ from the markers of {script}\nexpected:\n{show(expected)}"
          f"\nobserved:\n{show(observed)}", file=sys.stderr)
    return 1


def warned(root, script, json_path, warnings_path):
    with open(warnings_path, encoding="utf-8") as handle:
        warnings = json.load(handle)
    lines = sorted({w["line"] for w in warnings if w.get("line")})
    ours = reported(root, json_path)
    our_lines = sorted({line for _, file, line in ours if file == script})
    idle = idle_lines(root, script)
    missing = [line for line in lines if line not in our_lines and line not in idle]
    print(f"py_expect: set_sync_debug_mode('warn') warned at {script} lines {lines}; "
          f"syncscope reported lines {our_lines}; idle by design: {idle}")
    if missing:
        print(f"py_expect: syncscope did not report lines {missing}", file=sys.stderr)
        return 1
    return 0


def main(argv):
    try:
        if len(argv) == 3 and argv[1] == "check":
            return check(argv[2])
        if len(argv) == 5 and argv[1] == "compare":
            return compare(argv[2], argv[3], argv[4])
        if len(argv) == 6 and argv[1] == "warned":
            return warned(argv[2], argv[3], argv[4], argv[5])
    except (OSError, ValueError, KeyError, TypeError) as err:
        print(f"py_expect: {err}", file=sys.stderr)
        return 2
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
