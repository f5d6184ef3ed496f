"""sync_oracle.py: runs a Python script under PyTorch's torch.cuda.set_sync_debug_mode("warn")
and writes every synchronization PyTorch warned about, as JSON: one {"file", "line", "message"}
per warning, (file, line) being where the warning points (the innermost Python frame: inside a
library when the library made the call).

Usage: python3 sync_oracle.py SCRIPT OUT.json
"""
import json
import os
import runpy
import sys
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
        text = str(message)
        # Only the per-operation warning; setting the mode itself warns that it is a
        # "prototype feature [that] does not yet detect all synchronizing operations".
        if "called a synchronizing CUDA operation" in text:
            records.append({"file": filename, "line": lineno, "message": text})

    warnings.showwarning = show
    warnings.simplefilter("always")
    torch.cuda.set_sync_debug_mode("warn")
    sys.argv = [script]
    status = 0
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit as done:
        status = done.code if isinstance(done.code, int) else 0
    torch.cuda.set_sync_debug_mode("default")
    with open(out, "w", encoding="utf-8") as handle:
        json.dump(records, handle, indent=1)
    return status


if __name__ == "__main__":
    sys.exit(main())
