"""unit_db.py: what the one-unit generators of bench/lint share (gen_key_guards.py,
gen_frees.py): the command line's OUT_DIR [N], and writing the unit with its compile database
(plain clang flags, the unit compiled as CUDA for the host only)."""
import json
import os
import sys


def out_and_count(doc, default):
    """OUT_DIR and N from the command line (N defaulting to 'default'); the usage 'doc' and exit
    status 1 where OUT_DIR is missing."""
    if len(sys.argv) < 2:
        sys.exit(doc)
    return sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else default


def write_unit(out, name, text):
    """OUT/NAME holding 'text', and OUT/compile_commands.json with its one entry."""
    os.makedirs(out, exist_ok=True)
    path = os.path.abspath(os.path.join(out, name))
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    db = [{"directory": os.path.abspath(out), "file": path,
           "arguments": ["clang++", "-x", "cuda", "--cuda-host-only", "-std=c++17", "-c", path]}]
    with open(os.path.join(out, "compile_commands.json"), "w", encoding="utf-8") as f:
        json.dump(db, f, indent=1)
