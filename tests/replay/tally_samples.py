#!/usr/bin/env python3
"""tally_samples.py: light-mode logs past the memory cap whose counted calls include kinds no
kept call had (docs/run.md, "Cost and memory"; detect/tally.c), against the same runs kept whole.

  tally_samples.py SYNCSCOPE DATA_DIR WORKDIR

DATA_DIR/NAME.full.sstrace keeps every call of a run; NAME.capped.sstrace keeps the first ones
and counts the rest by kind (format 1.5 `tally` records), as the capture does past the cap. The
calls: R a readback into pinned memory that returns at once, S the synchronization of its stream
after it (30 us, waited), Q a stream query; R1 and S4 a readback and a synchronization on lines
of their own (520, 536), whose kinds the kept calls do not have:
  c1  kept "RSQ x10, R, S" then counted "Q, RSQ x5, R1, S4, Q": the cap falls after a
      synchronization, so the first counted readback R1 does not follow the call before it
  c5  kept "RSQ x5"; counted "R1 S4 Q" on thread 3 (all of its calls past the cap), "RSQ" on
      thread 1, then "R1 S4" on thread 3 again
  c6  the thread's last kept call followed by the first call of a new kind
  c2  kept "RSQ x10", counted "R1, Q, R, S4, Q": R1 was followed by a query, not by S4
  c7  kept "RSQ x10, RRSQ"; counted "R, R1, S4, Q": a readback at a new line right after a
      readback of a kept kind, then a synchronization at a new line (two asynchronous copies and
      one synchronization): R1's first call is not taken out, S4 stays joined to it
  c8  synchronous cudaMemcpy readbacks M (30 us in the copy) and a short S after each, ten
      kept; counted "M1, S, Q" with M1 at a new line (520): a synchronous copy is never joined
      to the synchronization after it, so M1 is judged as a call of its own (SYNC301 at 520)
  c9  counted "R, Q, Q, R, Q1, Q": a query at a new line right after a readback of a kept kind
      (no synchronization in the pair): judged by its first call, no warning
  c10 kept "RSD x10" (D a device-wide synchronization, 30 us); counted "RSD, RSQ x3, RSD": the
      three synchronizations before a query (a kind no kept call had, by their next call) came
      right after readbacks of a kept pair, and the readback after each query before a
      synchronization of a kept pair: both judged by their kinds without neighbours, which the
      kept calls judged alike (the readbacks SYNC301's, their synchronizations part of them)
  gpu_memory_cap_4M.sstrace.xz: tests/gpu/light/memory_cap.cu's light run under a 4 MiB cap on
      an NVIDIA H100 (2026-12-06 04:39 UTC, main 34a9674; 74,954 calls counted): a few of the
      loop's stream synchronizations (line 37) counted in kinds no kept call had, by their
      neighbours, right after readbacks of the kept pair at line 36; judged alone (500df65)
      they were SYNC401s of their own, at 37 and at no line (line 0)
Requires: c1, c5, c6 and c7-c10 give the full run's findings, and nothing unjudged; the GPU
trace gives the loop's findings (SYNC301 at 36, SYNC401 at 39), the cleanup's (42, 45, 46) and
no SYNC401 of a synchronization of its own (37, 0), with one call left unjudged for lacking its
readback (rule, line, count, blocked ns); c2 gives
the full run's findings too: SYNC301 at line 533 and no SYNC301 at line 520 (R1 is never joined
to S4, whose wait is the loop readback's), and no SYNC401 at 536: S4's first call, which would
lack its readback (R, of a kind kept before the cap), is not judged alone but left unjudged, one
call, with the warning that says why: the first calls of new kinds judged with the calls around
them, and not joined across a counted call of another kind.
Exit status: 0 pass, 1 fail, 2 usage error.
"""
import json
import lzma
import os
import subprocess
import sys


def findings(syncscope, trace, out):
    done = subprocess.run([syncscope, "analyze", "--format", "json", "--fail-on", "none", "-o",
                           out, trace], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{trace}: analyze exit {done.returncode}: {done.stderr}")
    with open(out, encoding="utf-8") as handle:
        document = json.load(handle)
    return (sorted((f["ruleId"], f.get("line"), f["evidence"]["count"], f["evidence"]["totalNs"])
                   for f in document["findings"]),
            [d["message"] for d in document["diagnostics"] if "could not be judged" in d["message"]])


def gpu_trace(syncscope, data, work):
    """The GPU run's capped trace (xz), analyzed: the findings and the one call left unjudged."""
    trace = os.path.join(work, "gpu_memory_cap_4M.sstrace")
    with lzma.open(os.path.join(data, "gpu_memory_cap_4M.sstrace.xz"), "rb") as packed, \
            open(trace, "wb") as plain:
        plain.write(packed.read())
    found, unjudged = findings(syncscope, trace, os.path.join(work, "gpu_memory_cap_4M.json"))
    rows = sorted((f[0], f[1], f[2]) for f in found)
    wanted = [("SYNC301", 36, 39858), ("SYNC301", 42, 1), ("SYNC401", 39, 39980),
              ("SYNC402", 45, 1), ("SYNC402", 46, 1)]
    lacking = [m for m in unjudged if "each came right after or before" in m]
    ok = rows == sorted(wanted) and len(lacking) == 1 and lacking[0].startswith(
        "1 of those calls (1 kind) could not be judged")
    print(f"gpu_memory_cap_4M: {rows} {unjudged}: {'ok' if ok else 'FAIL'}")
    return ok


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    syncscope, data, work = argv
    os.makedirs(work, exist_ok=True)
    failures = []
    for name in ("c1", "c5", "c6", "c2", "c7", "c8", "c9", "c10"):
        full, _ = findings(syncscope, os.path.join(data, f"{name}.full.sstrace"),
                           os.path.join(work, f"{name}.full.json"))
        capped, unjudged = findings(syncscope, os.path.join(data, f"{name}.capped.sstrace"),
                                    os.path.join(work, f"{name}.capped.json"))
        if name != "c2":
            ok = capped == full and not unjudged
        else:
            ok = (capped == full and len(unjudged) == 1 and unjudged[0].startswith(
                "1 of those calls (1 kind) could not be judged: each came right after or before "
                "the call it is judged with (a readback and the synchronization after it)"))
        print(f"{name}: full {full}, capped {capped} {unjudged}: {'ok' if ok else 'FAIL'}")
        if not ok:
            failures.append(name)
    if not gpu_trace(syncscope, data, work):
        failures.append("gpu_memory_cap_4M")
    if failures:
        print(f"failed: {' '.join(failures)}")
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
