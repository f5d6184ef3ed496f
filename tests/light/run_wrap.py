#!/usr/bin/env python3
"""run_wrap.py: the runtime's wrappers (libsyncscope_cudart.so, interpose/wrap_cudart.c)
without a GPU.

  run_wrap.py APP WRAPPERS FAKE_CUPTI WORKDIR

Runs APP (tests/light/wrap_app.c, linked against the fake runtime libcudart.so.13 of
fake_cudart.c) with LD_PRELOAD=WRAPPERS, the light mode under SYNCSCOPE_LIGHT_PROBE=switch and
the fake CUPTI of tests/signal, at level 0 (CUPTI's runtime callbacks), 4 (the wrappers, the
driver's callbacks kept) and 5 (the wrappers alone), and after sequences of levels (43, 53:
off after a wrappers' level, nothing recorded; 34, 45, 54, 40, 50), and checks:
  - the program's line: CUPTI called back for its 7 calls, or for none (the wrapped rows
    disabled in CUPTI), every call made, the one that fails seen failing by the program;
  - the findings, exactly: rule, line of the '/* expect: */' marker, latent or not, count 1,
    the same at every level that records;
  - the trace's calls with their results (the failing one's cudaErrorInvalidResourceHandle),
    the same at every level that records, and its mode light;
  - a level the switch refuses leaves the wrappers forwarding: level 0's answers;
  - SYNCSCOPE_LIGHT_PROBE=wrap: the wrappers take the calls from the start, as at level 4.
"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MARKER = re.compile(r"/\* expect: (SYNC\d+)( latent)? \*/")
TIMEOUT_S = 60
# The calls and the results the runtime returned (cudaErrorInvalidResourceHandle, 400, for the
# synchronization of a stream the fake runtime does not know).
CALLS = [("cudaMemcpyAsync", 0), ("cudaMemcpyAsync", 0), ("cudaStreamSynchronize", 0),
         ("cudaDeviceSynchronize", 0), ("cudaFree", 0), ("cudaFree", 0),
         ("cudaStreamSynchronize", 400)]


def expected_rows():
    with open(os.path.join(HERE, "wrap_app.c"), encoding="utf-8") as handle:
        return sorted((m.group(1), n, bool(m.group(2)), 1) for n, text in enumerate(handle, 1)
                      for m in [MARKER.search(text)] if m)


def rows_of(findings):
    return sorted((f["ruleId"], int(f["line"]), bool(f.get("latent")), int(f["evidence"]["count"]))
                  for f in findings if os.path.basename(f.get("file") or "") == "wrap_app.c")


def trace_calls(path):
    """(the trace's mode, the (name, result) of its calls in order)."""
    mode, calls, strings = None, [], {}
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            words = line.rstrip("\n").split(" ")
            if words[0] == "str":
                strings[words[1]] = words[2]
            elif words[0] == "api":
                calls.append((strings.get(words[5], ""), int(words[12])))
            elif words[0] == "meta" and words[1] == "mode":
                mode = words[2]
    return mode, calls


def run_levels(opts, levels, probe):
    """Runs APP with the switch's 'levels' (a string of digits, set in order) under
    SYNCSCOPE_LIGHT_PROBE 'probe': (the run, its findings' rows, the trace's mode and calls)."""
    workdir = os.path.join(opts["workdir"], f"{probe}-{levels}")
    os.makedirs(workdir, exist_ok=True)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("SYNCSCOPE_", "FAKE_CUPTI_")) and k != "LD_PRELOAD"}
    env.update({"LD_PRELOAD": opts["wrappers"], "SYNCSCOPE_CUPTI_PATH": opts["fake"],
                "SYNCSCOPE_MODE": "light", "SYNCSCOPE_LIGHT_PROBE": probe,
                "SYNCSCOPE_QUIET": "1", "SYNCSCOPE_SYMBOL_CACHE": "0",
                "SYNCSCOPE_OUTPUT": os.path.join(workdir, "out.json"),
                "SYNCSCOPE_TRACE": os.path.join(workdir, "out.sstrace")})
    done = subprocess.run([opts["app"], levels], env=env, cwd=workdir, capture_output=True,
                          text=True, timeout=TIMEOUT_S, check=False)
    result, trace = os.path.join(workdir, "out.json"), os.path.join(workdir, "out.sstrace")
    if not os.path.exists(result) and not os.path.exists(trace):
        return done, None, (None, None)  # nothing recorded: no result, no trace
    with open(result, encoding="utf-8") as handle:
        findings = json.load(handle)["findings"]
    return done, rows_of(findings), trace_calls(trace)


def main(argv):
    if len(argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    opts = {"app": argv[1], "wrappers": argv[2], "fake": argv[3], "workdir": argv[4]}
    failures = []

    def check(ok, what):
        if not ok:
            failures.append(what)
        return ok

    # (levels, probe, CUPTI called back: 7 or 0, recorded: the findings and calls or nothing)
    cases = [("0", "switch", 7, True), ("4", "switch", 0, True), ("5", "switch", 0, True),
             ("9", "switch", 7, True),  # refused: the capture stays at level 0
             ("0", "wrap", 0, True),  # the wrappers from the start (the switch refused)
             ("43", "switch", 0, False), ("53", "switch", 0, False),  # off after the wrappers'
             ("34", "switch", 0, True), ("45", "switch", 0, True), ("54", "switch", 0, True),
             ("40", "switch", 7, True), ("50", "switch", 7, True)]
    for levels, probe, back, recorded in cases:
        name = f"{probe} {levels}"
        try:
            done, rows, (mode, calls) = run_levels(opts, levels, probe)
        except (OSError, ValueError, KeyError, IndexError, subprocess.TimeoutExpired) as err:
            failures.append(f"{name}: {type(err).__name__}: {err}")
            continue
        line = f"wrap_app: called back {back}, made without {7 - back}, failed 1\n"
        check(done.returncode == 0 and done.stdout == line,
              f"{name}: exit {done.returncode}: {done.stdout!r} {done.stderr[-800:]}")
        if not recorded:  # a process that recorded nothing writes neither result nor trace
            check(rows is None and calls is None, f"{name}: recorded {rows} {calls}")
            continue
        check(rows == expected_rows(), f"{name}: findings {rows}, expected {expected_rows()}")
        check(mode == "light" and calls == CALLS, f"{name}: trace {mode} {calls}")
    for failure in failures:
        print(f"FAIL: {failure}")
    if not failures:
        print(f"ok: {len(cases)} cases")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
