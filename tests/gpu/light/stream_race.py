#!/usr/bin/env python3
"""stream_race.py: streams destroyed while the light mode asks about them (docs/run.md, "Modes").

  stream_race.py --syncscope SYNCSCOPE --program STREAM_RACE --workdir DIR [--probe GPU_PROBE]
      Runs STREAM_RACE (tests/gpu/light/stream_race.cu: 3000 streams created, given a kernel
      and destroyed at once on one thread while the main thread alternates device-wide calls)
      bare, under `syncscope run` (the full mode, which asks the driver nothing) and under
      `syncscope run --mode light`, and requires: exit status 0 and the same stdout ("rounds
      3000", "result 3000") in all three; a light trace holding the 3000 stream creations and
      device-wide calls that the mode probed (flags bit 0x40000000) while the streams came and
      went. Prints how many device-wide calls were probed and how many were seen waiting.
Exit status: 0 pass, 1 fail, 2 usage error, 77 skipped (no GPU visible).
"""
import argparse
import os
import re
import shutil
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import same_answers  # noqa: E402  (gpu_visible: nvidia-smi and the GPU probe)

ROUNDS = 3000
EXPECTED_STDOUT = f"rounds {ROUNDS}\nresult {ROUNDS}\n"
PROBED, WAITED = 0x40000000, 0x20000000
# The api record's fields after the keyword (docs/trace-format.md).
API_NAME, API_FLAGS = 4, 10
DEVICE_WIDE = ("cudaDeviceSynchronize", "cudaMemcpy")
# CUPTI's version and per-thread suffixes, should a trace name a call by its callback's name.
SUFFIXES = re.compile(r"(_v[0-9]+)?(_pt(sz|ds))?(_v[0-9]+)?$")


# The runner of same_answers.py: the program's environment without syncscope's variables,
# and (status, stdout, stderr) with a time bound.
execute = same_answers.execute


def options(argv, doc):
    """The options of this script and of graph_calls.py (--syncscope, --program, --workdir,
    --probe), paths made absolute and the work folder emptied; None when no GPU is visible."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--syncscope", required=True)
    parser.add_argument("--program", required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--probe")
    opts = parser.parse_args(argv)
    opts.syncscope, opts.program = os.path.abspath(opts.syncscope), os.path.abspath(opts.program)
    if not same_answers.gpu_visible(opts.probe):
        print("skipped: no GPU visible")
        return None
    shutil.rmtree(opts.workdir, ignore_errors=True)
    os.makedirs(opts.workdir)
    return opts


def read_trace(path):
    """(meta dict, list of (API name without CUPTI's suffixes, flags)) of a text trace."""
    meta, strings, calls = {}, {}, []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            words = line.rstrip("\n").split(" ")
            if words[0] == "meta" and len(words) >= 3:
                meta[words[1]] = words[2]
            elif words[0] == "str" and len(words) >= 3:
                strings[words[1]] = words[2]
            elif words[0] == "api" and len(words) > 1 + API_FLAGS:
                calls.append((words[1 + API_NAME], int(words[1 + API_FLAGS])))
    return meta, [(SUFFIXES.sub("", strings.get(name, name)), flags) for name, flags in calls]


def main(argv):
    opts = options(argv, __doc__)
    if opts is None:
        return 77
    failures = []

    def check(ok, what):
        if not ok:
            failures.append(what)
            print(f"FAIL: {what}")

    status, out, err = execute([opts.program], opts.workdir)
    check(status == 0 and out == EXPECTED_STDOUT, f"bare: status {status}, stdout {out!r}: {err}")
    status, out, err = execute([opts.syncscope, "run", "--fail-on", "none", "-o",
                                os.path.join(opts.workdir, "full.json"), "--", opts.program],
                               opts.workdir)
    check(status == 0 and out == EXPECTED_STDOUT,
          f"full: status {status}, stdout {out!r}: {err[-2000:]}")
    result = os.path.join(opts.workdir, "light.json")
    trace = os.path.join(opts.workdir, "light.sstrace")
    status, out, err = execute([opts.syncscope, "run", "--mode", "light", "--fail-on", "none",
                                "-o", result, "--trace", trace, "--", opts.program],
                               opts.workdir)
    check(status == 0 and out == EXPECTED_STDOUT,
          f"light: status {status}, stdout {out!r}: {err[-2000:]}")
    if os.path.exists(trace):
        meta, calls = read_trace(trace)
        check(meta.get("mode") == "light", f"trace mode {meta.get('mode')!r}")
        created = sum(name == "cudaStreamCreateWithFlags" for name, _ in calls)
        check(created == ROUNDS, f"{created} stream creations in the trace, expected {ROUNDS}")
        wide = [flags for name, flags in calls if name in DEVICE_WIDE]
        probed = sum(1 for flags in wide if flags & PROBED)
        waited = sum(1 for flags in wide if flags & WAITED)
        check(probed > 0, f"no device-wide call probed among {len(wide)}")
        print(f"light: {len(wide)} device-wide calls, {probed} probed, {waited} seen waiting, "
              f"{created} streams created and destroyed meanwhile")
    else:
        check(False, "no light trace written")
    if failures:
        print(f"{len(failures)} failed")
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
