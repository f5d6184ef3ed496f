"""sync_debug.py: runs a Python script with torch.cuda.set_sync_debug_mode("warn") and writes
where PyTorch warned, as JSON: one {"line", "message"} per warning, the line being the
innermost line of SCRIPT on the stack when the warning was shown.

Usage: python3 sync_debug.py SCRIPT OUT.json
"""
import json
import os
import runpy
import sys
import traceback
import warnings


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    script, out = os.path.abspath(sys.argv[1]), sys.argv[2]
    import torch

    records = []

    def show(message, category, filename, lineno, file=None, line=None):
        del category, file, line
        ours = [f for f in traceback.extract_stack()
                if os.path.abspath(f.filename) == script]
        records.append({"line": ours[-1].lineno if ours else 0, "message": str(message),
                        "where": f"{filename}:{lineno}"})

    warnings.showwarning = show
    warnings.simplefilter("always")
    torch.cuda.set_sync_debug_mode("warn")
    sys.argv = [sys.argv[1]]
    runpy.run_path(script, run_name="__main__")
    torch.cuda.set_sync_debug_mode("default")
    with open(out, "w", encoding="utf-8") as handle:
        json.dump(records, handle, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
