"""draw_units.py: a compile database of a drawn sample of a project's sources.

Usage: python3 bench/lint-real/draw_units.py DB_DIR OUT_DIR SEED COUNT REGEX [NAME...]

Reads DB_DIR/compile_commands.json, takes the source files whose path matches REGEX (Python
re.search), draws COUNT of them with random.Random(SEED).sample over their sorted paths,
adds every candidate whose path ends with one of the NAMEs, and writes the first command of
each chosen file to OUT_DIR/compile_commands.json (docs/studies/lint-realworld.md, "2026-12-02
re-run"). Prints how many candidates there were and the files kept. Standard library only.
"""
import json
import os
import random
import re
import sys


def main(argv):
    if len(argv) < 5:
        sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
        return 2
    db_dir, out_dir, seed, count, pattern = argv[:5]
    names = argv[5:]
    with open(os.path.join(db_dir, "compile_commands.json")) as f:
        commands = json.load(f)
    files = sorted({c["file"] for c in commands if re.search(pattern, c["file"])})
    chosen = set(random.Random(int(seed)).sample(files, min(int(count), len(files))))
    chosen.update(f for f in files for n in names if f.endswith(n))
    kept, seen = [], set()
    for c in commands:
        if c["file"] in chosen and c["file"] not in seen:
            seen.add(c["file"])
            kept.append(c)
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "compile_commands.json"), "w") as f:
        json.dump(kept, f, indent=1)
    print(f"{len(files)} candidates; {len(kept)} kept")
    for c in kept:
        print(" ", c["file"])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
