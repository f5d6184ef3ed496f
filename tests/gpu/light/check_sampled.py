#!/usr/bin/env python3
"""check_sampled.py: what a run of the sampled mode recorded (docs/run.md, "Modes").

  check_sampled.py TRACE RESULT.json [MIN_WINDOWS]
      Requires the trace's metadata "mode" sampled with at least MIN_WINDOWS (default 1)
      windows in "sample_windows", every kernel, copy and memset record and every launch call
      inside a window (the light mode records none), and every finding of the result marked
      "light" or "full window"; prints the windows, the records per window and the findings'
      modes, and how many calls the light mode took outside the windows.
Exit status: 0 as required, 1 not, 2 usage or input error.
"""
import json
import sys


def main(argv):
    if len(argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    least = int(argv[3]) if len(argv) == 4 else 1
    meta, strings, records, launches, calls = {}, {}, [], [], []
    with open(argv[1], encoding="utf-8") as handle:
        for line in handle:
            words = line.rstrip("\n").split(" ")
            if words[0] == "meta":
                meta[words[1]] = words[2]
            elif words[0] == "str":
                strings[words[1]] = words[2]
            elif words[0] in ("kernel", "memcpy", "memset"):
                records.append(int(words[1]))
            elif words[0] == "api" and strings.get(words[5], "").startswith(("cudaLaunch",
                                                                              "cuLaunch")):
                launches.append(int(words[1]))
            elif words[0] == "api":
                calls.append(int(words[1]))
    windows = [tuple(map(int, w.split("-"))) for w in meta.get("sample_windows", "").split(",")
               if w]
    problems = []
    if meta.get("mode") != "sampled":
        problems.append(f"mode {meta.get('mode')!r}")
    if len(windows) < least:
        problems.append(f"{len(windows)} windows, expected at least {least}")

    def inside(t):
        return any(a <= t <= b for a, b in windows)

    # A GPU record may end a little after its window closed; it starts inside one.
    outside = [t for t in records + launches if not inside(t)]
    if outside:
        problems.append(f"{len(outside)} GPU records or launches outside every window")
    for a, b in windows:
        n = sum(a <= t <= b for t in records)
        m = sum(a <= t <= b for t in launches)
        print(f"window {(b - a) / 1e6:.1f} ms: {n} GPU records, {m} launches")
    # What the light mode took outside the windows: its whole per-call cost.
    light_calls = [t for t in calls if not inside(t)]
    print(f"calls recorded outside the windows (the light mode's): {len(light_calls)} of "
          f"{len(calls) + len(launches)} in all")
    with open(argv[2], encoding="utf-8") as handle:
        findings = json.load(handle).get("findings", [])
    modes = {}
    for f in findings:
        mode = (f.get("extra") or {}).get("mode")
        modes[mode] = modes.get(mode, 0) + 1
    print(f"findings by mode: {modes}")
    if set(modes) - {"light", "full window"}:
        problems.append(f"findings with modes {sorted(map(str, modes))}")
    for p in problems:
        print(f"FAIL: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
