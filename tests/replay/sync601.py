#!/usr/bin/env python3
"""sync601.py: pins the over-wide wait findings (SYNC601) of a trace exactly.

  sync601.py SYNCSCOPE TRACE PINNED

Runs `SYNCSCOPE analyze --format json TRACE` and compares its SYNC601 findings with PINNED,
one line per finding: `FILE LINE COUNT SAVING_NS MESSAGE` (the file as reported, the evidence
count, the saving in nanoseconds: evidence.totalNs, and the whole message). Lines starting with
'#' and blank lines are ignored. Exit status: 0 when they are the same, 1 when not, 2 on a
usage or input error.
"""
import json
import subprocess
import sys


def pinned(path):
    rows = []
    with open(path, encoding="utf-8") as handle:
        for number, text in enumerate(handle, 1):
            text = text.rstrip("\n")
            if not text.strip() or text.startswith("#"):
                continue
            parts = text.split(" ", 4)
            if len(parts) != 5 or not all(p.isdigit() for p in parts[1:4]):
                raise ValueError(f"{path}:{number}: expected 'FILE LINE COUNT SAVING_NS MESSAGE'")
            rows.append((parts[0], int(parts[1]), int(parts[2]), int(parts[3]), parts[4]))
    return sorted(rows)


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    syncscope, trace, path = sys.argv[1:]
    try:
        want = pinned(path)
    except (OSError, ValueError) as err:
        print(f"sync601: {err}", file=sys.stderr)
        return 2
    proc = subprocess.run([syncscope, "analyze", "--format", "json", trace],
                          capture_output=True, text=True)
    if proc.returncode not in (0, 1):
        print(f"sync601: analyze exited {proc.returncode}: {proc.stderr}", file=sys.stderr)
        return 1
    got = sorted((f.get("file") or "-", f["line"], f["evidence"]["count"],
                  f["evidence"]["totalNs"], f["message"])
                 for f in json.loads(proc.stdout)["findings"] if f["ruleId"] == "SYNC601")
    if got != want:
        print("sync601: the SYNC601 findings differ\n  got:\n    " +
              "\n    ".join(" ".join(map(str, g)) for g in got) + "\n  pinned:\n    " +
              "\n    ".join(" ".join(map(str, w)) for w in want), file=sys.stderr)
        return 1
    print(f"sync601: {len(got)} SYNC601 findings as pinned")
    return 0


if __name__ == "__main__":
    sys.exit(main())
