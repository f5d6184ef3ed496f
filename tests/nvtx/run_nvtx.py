#!/usr/bin/env python3
"""run_nvtx.py: syncscope as the program's NVTX tool, without a GPU.

  run_nvtx.py APP LIBSYNCSCOPE FAKE_CUPTI WORKDIR

Runs APP (tests/nvtx/nvtx_app.c) in four cases and checks its exact stdout (what each NVTX
call returned), the files written and the trace's scope marks (kind, source, id, name):
  observed   LD_PRELOAD=LIBSYNCSCOPE: syncscope names itself in NVTX_INJECTION64_PATH and
             records every range; pushes return their depth, start ids are distinct
  no_nvtx    SYNCSCOPE_NVTX=0: the variable is left unset, NVTX stays a no-op, no marks
  own_tool   the program names an NVTX tool of its own: left alone, no marks
  not_preloaded  NVTX_INJECTION64_PATH=LIBSYNCSCOPE inherited without LD_PRELOAD: NVTX loads
             the library, which declines: the process is not observed and writes nothing
Exit status: 0 pass, 1 fail, 2 usage error.
"""
import os
import subprocess
import sys
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "signal"))
from run_signal import run_all, start_case  # noqa: E402  (shared with the signal test)

TIMEOUT_S = 30
# What NVTX's calls return when no tool took them: NVTX_NO_PUSH_POP_TRACKING for push and pop,
# 0 for start ids, NULL handles.
NO_TOOL = ("push outer: -2\npush wide: -2\nregistered: NULL\npush step: -2\npop step: -2\n"
           "pop wide: -2\npop outer: -2\npop extra: -2\nstarted: no ids\nnvtx_app: end\n")
OBSERVED = ("injection: libsyncscope.so\npush outer: 0\npush wide: 1\nregistered: handle\n"
            "push step: 2\npop step: 2\npop wide: 1\npop outer: 0\npop extra: -1\n"
            "started: two ids\nnvtx_app: end\n")
# The marks of the observed case: (kind, source, name); start/end ids are checked apart.
# Kinds: 3 push, 4 pop, 5 start, 6 end; a wide message keeps its ASCII characters.
MARKS = [(3, 0, "outer"), (3, 0, "wide ?"), (3, 0, "step"), (4, 0, ""), (4, 0, ""), (4, 0, ""),
         (4, 0, ""), (5, 0, "whole"), (5, 0, "other"), (6, 0, ""), (6, 0, "")]


def read_trace(path):
    strings, marks = {0: ""}, []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            fields = line.rstrip("\n").split(" ")
            if fields[0] == "str":
                strings[int(fields[1])] = urllib.parse.unquote(fields[2])
            elif fields[0] == "scope":
                _, _, thread, kind, source, ident, name = fields
                marks.append((int(kind), int(source), int(ident), int(name), int(thread)))
    return [(k, s, i, strings.get(n, f"<str {n}>"), t) for k, s, i, n, t in marks]


def run_case(name, opts, failures):
    workdir, check, env = start_case(name, opts, failures, drop=("NVTX_INJECTION64_PATH",))
    env.update({"SYNCSCOPE_CUPTI_PATH": opts["fake"], "SYNCSCOPE_QUIET": "1",
                "SYNCSCOPE_OUTPUT": os.path.join(workdir, "out.json"),
                "SYNCSCOPE_TRACE": os.path.join(workdir, "out.sstrace")})
    args = [opts["app"]]
    if name == "not_preloaded":
        env["NVTX_INJECTION64_PATH"] = opts["preload"]
        args.append("nocuda")
        want_out, want_files = "injection: libsyncscope.so\n" + NO_TOOL, []
    else:
        env["LD_PRELOAD"] = opts["preload"]
        want_files = ["out.json", "out.sstrace"]
        if name == "observed":
            want_out = OBSERVED
        elif name == "no_nvtx":
            env["SYNCSCOPE_NVTX"] = "0"
            want_out = "injection: (unset)\n" + NO_TOOL
        else:  # own_tool
            env["NVTX_INJECTION64_PATH"] = os.path.join(workdir, "libowntool.so")
            want_out = "injection: libowntool.so\n" + NO_TOOL
    proc = subprocess.run(args, cwd=workdir, env=env, capture_output=True, text=True,
                          timeout=TIMEOUT_S)
    check(proc.returncode == 0, f"exit status {proc.returncode}: {proc.stderr}")
    check(proc.stdout == want_out, f"stdout {proc.stdout!r}, expected {want_out!r}")
    check(proc.stderr == "", f"stderr {proc.stderr!r}")
    present = sorted(os.listdir(workdir))
    check(present == want_files, f"{workdir} holds {present}, expected {want_files}")
    if "out.sstrace" not in present:
        return
    marks = read_trace(os.path.join(workdir, "out.sstrace"))
    want = MARKS if name == "observed" else []
    check([(k, s, n) for k, s, _, n, _ in marks] == want,
          f"marks {[(k, s, n) for k, s, _, n, _ in marks]}, expected {want}")
    if name == "observed" and len(marks) == len(MARKS):
        ids = [i for _, _, i, _, _ in marks]
        check(ids[:7] == [0] * 7, f"push/pop ids {ids[:7]}, expected zeros")
        whole, other = ids[7], ids[8]
        check(whole != 0 and other != 0 and whole != other,
              f"start ids {whole}, {other}: expected two distinct non-zero ids")
        check(ids[9:] == [other, whole], f"end ids {ids[9:]}, expected {[other, whole]}")
        check({t for *_, t in marks} == {1}, "marks on more than the main thread")


def main(argv):
    if len(argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    opts = dict(zip(("app", "preload", "fake", "workdir"),
                    (os.path.abspath(a) for a in argv[1:5])))
    return run_all("run_nvtx", ("observed", "no_nvtx", "own_tool", "not_preloaded"),
                    lambda name, failures: run_case(name, opts, failures))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
