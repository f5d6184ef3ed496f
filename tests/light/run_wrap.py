#!/usr/bin/env python3
"""run_wrap.py: the runtime's wrappers (libsyncscope_cudart.so, interpose/wrap_cudart.c)
without a GPU.

  run_wrap.py APP WRAPPERS FAKE_CUPTI WORKDIR

Runs APP (tests/light/wrap_app.c, linked against the fake runtime libcudart.so.13 of
fake_cudart.c) with LD_PRELOAD=WRAPPERS, the light mode under SYNCSCOPE_LIGHT_PROBE=switch and
the fake CUPTI of tests/signal, at level 0 (CUPTI's runtime callbacks), 4 (the wrappers, the
driver's callbacks kept) and 5 (the wrappers alone), and checks:
  - the program's line: at level 0 CUPTI called back for its 6 calls, at 4 and 5 for none (the
    runtime's rows disabled in CUPTI), every call made and returning cudaSuccess;
  - the findings, exactly: rule, line of the '/* expect: */' marker, latent or not, count 1,
    the same at every level;
  - the trace's calls, the same at every level, and its mode light;
  - without the switch to a wrappers' level the wrappers only forward: the findings are level
    0's;
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
CALLS = ["cudaMemcpyAsync", "cudaMemcpyAsync", "cudaStreamSynchronize", "cudaDeviceSynchronize",
         "cudaFree", "cudaFree"]


def expected_rows():
    with open(os.path.join(HERE, "wrap_app.c"), encoding="utf-8") as handle:
        return sorted((m.group(1), n, bool(m.group(2)), 1) for n, text in enumerate(handle, 1)
                      for m in [MARKER.search(text)] if m)


def rows_of(findings):
    return sorted((f["ruleId"], int(f["line"]), bool(f.get("latent")), int(f["evidence"]["count"]))
                  for f in findings if os.path.basename(f.get("file") or "") == "wrap_app.c")


def trace_calls(path):
    """(the trace's mode, the names of its calls in order)."""
    mode, calls, strings = None, [], {}
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            words = line.rstrip("\n").split(" ")
            if words[0] == "str":
                strings[words[1]] = words[2]
            elif words[0] == "api":
                calls.append(strings.get(words[5], ""))
            elif words[0] == "meta" and words[1] == "mode":
                mode = words[2]
    return mode, calls


def run_level(opts, level, name, probe="switch"):
    workdir = os.path.join(opts["workdir"], name)
    os.makedirs(workdir, exist_ok=True)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("SYNCSCOPE_", "FAKE_CUPTI_")) and k != "LD_PRELOAD"}
    env.update({"LD_PRELOAD": opts["wrappers"], "SYNCSCOPE_CUPTI_PATH": opts["fake"],
                "SYNCSCOPE_MODE": "light", "SYNCSCOPE_LIGHT_PROBE": probe,
                "SYNCSCOPE_QUIET": "1", "SYNCSCOPE_SYMBOL_CACHE": "0",
                "SYNCSCOPE_OUTPUT": os.path.join(workdir, "out.json"),
                "SYNCSCOPE_TRACE": os.path.join(workdir, "out.sstrace")})
    done = subprocess.run([opts["app"], str(level)], env=env, cwd=workdir, capture_output=True,
                          text=True, timeout=TIMEOUT_S, check=False)
    with open(os.path.join(workdir, "out.json"), encoding="utf-8") as handle:
        findings = json.load(handle)["findings"]
    return done, rows_of(findings), trace_calls(os.path.join(workdir, "out.sstrace"))


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

    expected = expected_rows()
    lines = {0: "wrap_app: called back 6, made without 0, failed 0\n",
             # SYNCSCOPE_LIGHT_PROBE=wrap: the wrappers from the start (the switch refused)
             "wrap": "wrap_app: called back 0, made without 6, failed 0\n",
             4: "wrap_app: called back 0, made without 6, failed 0\n",
             5: "wrap_app: called back 0, made without 6, failed 0\n",
             # a level the switch refuses (none of its own): the capture stays at level 0
             9: "wrap_app: called back 6, made without 0, failed 0\n"}
    for level, line in lines.items():
        try:
            probe = "wrap" if level == "wrap" else "switch"
            done, rows, (mode, calls) = run_level(opts, 0 if level == "wrap" else level,
                                                  f"level{level}", probe)
        except (OSError, ValueError, KeyError, subprocess.TimeoutExpired) as err:
            failures.append(f"level {level}: {type(err).__name__}: {err}")
            continue
        check(done.returncode == 0 and done.stdout == line,
              f"level {level}: exit {done.returncode}: {done.stdout!r} {done.stderr[-800:]}")
        check(rows == expected, f"level {level}: findings {rows}, expected {expected}")
        check(mode == "light" and calls == CALLS, f"level {level}: trace {mode} {calls}")
    for failure in failures:
        print(f"FAIL: {failure}")
    if not failures:
        print(f"ok: {len(lines)} levels")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
