#!/usr/bin/env python3
"""run_light.py: the light mode (docs/run.md, "Modes") without a GPU.

  run_light.py APP LIBSYNCSCOPE FAKE_CUPTI SYNCSCOPE WORKDIR

Runs APP (tests/light/light_app.c) under the interposer with the fake CUPTI of tests/signal:
  selection  the CUPTI callbacks each mode subscribes to, call by call (exact lists)
  findings   SYNCSCOPE_MODE=light: the findings exactly (rule, line of the '/* expect: */'
             marker, count, latent), each marked "mode": "light", the result's note of what
             the mode cannot report, the trace's "mode" and no launch in it
  interval   SYNCSCOPE_INTERVAL=1: lines while the program runs and a final one, each a JSON
             object with the pid, the mode and the findings so far
  killed     the same, the program SIGKILLed after its first line: the lines written stay
  window     SYNCSCOPE_SAMPLE=300ms/10m: SIGUSR2 opens a full window (launches taken during
             it, not before or after); the trace says "sampled" and holds the window
  trigger    SYNCSCOPE_SAMPLE=2s/10m and a trigger file the program creates: the same
  first_call the call inside which the context is made (the fake's FAKE_CUPTI_CONTEXT_INSIDE)
             waited for nothing: a 2 ms cudaMalloc is no SYNC402
  destroyed_stream  a stream destroyed (cuStreamDestroy_v2's callbacks) during a device-wide
             call that found it pending is not asked about at the call's exit, nor one
             destroyed before whose "destroy starting" has not come; a kept one is
  streams    600 streams made and destroyed, more than the live streams' table's slots: a
             device-wide call is still probed; after 513 streams lived at once it is not
  legacy_sync  a synchronization of the legacy stream busy at its entry asks about it alone
             (entry and exit), an idle one about every live stream; with more streams than
             a probe takes nothing is asked
  readback_sync  the synchronization of a stream right after a readback that found it idle
             is not asked about, and the trace analyzed with its probe bits set either way
             gives the same findings; after a busy readback, a cudaMalloc, a copy between
             device memory (left out; the synchronization marked), or of another stream it
             is asked about
  copies     asynchronous copies between device memory are left out (their memory kinds
             from a cudaMalloc'ed allocation without a question), the next recorded call
             marked (a call came between); a copy said to be device to host and a readback
             are taken with a probe and a stack
  memsets    asynchronous memsets of device memory are left out (runtime and driver API),
             those of pinned memory and synchronous ones taken with their memory kinds; one in
             a cudaMalloc'ed allocation the driver does not know is left out without a
             question, and asked about and taken once the allocation is freed
  probes     SYNCSCOPE_LIGHT_PROBE, the measurement aid: load never subscribes, subscribe
             enables no callback, noop the light mode's (noop_runtime and noop_driver only one
             domain's), whose handler asks the driver nothing; each says so in one line and
             records nothing
  switch     SYNCSCOPE_LIGHT_PROBE=switch: a memset made while the program switched the
             callbacks to returning at once (syncscope_light_probe_set(1)) is neither asked
             about nor recorded; switched back, the memsets case's calls are, as there, but
             at level 2 the allocation's memset is asked about (the remembered allocations
             not looked at) and taken
  switch_off SYNCSCOPE_LIGHT_PROBE=switch's level 3: the mode's API callbacks disabled in
             CUPTI (a memset and a synchronization not called back), a stream's destruction
             still taken (the device-wide call after it does not ask about that stream);
             levels 0 3 1 3 0: each pinned memset outside level 3 called back, recorded at
             level 0 alone, as many events each time (syncscope_light_probe_events)
  timing     SYNCSCOPE_TIMING=1: the start's line, the callbacks' (their count exactly, the
             stacks') and the window's at the end, none without it
  site_cache a Python program's calls made again at the same site take no new stack
             (site_cache_app.py: 33 calls, 4 lines, 2 threads, 8 stacks unwound with the
             threads' starts), in both modes, the light mode's findings at their lines with
             their counts
  site_keys  the light mode's site key reads the Python frames the frame walk reads, no
             more: each call's frames as the full mode's (site_key_app.py: 36 calls at six
             sites of 3 to 12 library frames beneath 2 and 12 of the program's), one unwound
             stack per site
  refused    a bad --mode or --sample: `syncscope run` exits 2 with the message; under
             LD_PRELOAD the program runs unobserved, with one line
Exit status: 0 pass, 1 fail, 2 usage error.
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

TIMEOUT_S = 30
HERE = os.path.dirname(os.path.abspath(__file__))
MARKER = re.compile(r"/\* expect: (SYNC[0-9]{3})( latent)? \*/")
# The api record's flags field (after the keyword) and its probe bits (docs/trace-format.md).
API_FLAGS, API_STACK, PROBED, WAITED, PENDING = 10, 15, 0x40000000, 0x20000000, 0x10000000
# SS_API_BETWEEN (evlog.h): a copy between device memory the light mode left out came between
# the call and its thread's previous recorded call.
BETWEEN = 0x08000000
LIGHT_NOTE = "light mode: only SYNC201, SYNC202, SYNC301, SYNC401 and SYNC402 are reported"

# Callbacks the light mode subscribes to and those it leaves to the full mode (a sample of
# each class of rules/cuda_api.def; ss_api_light in rules/catalog.c).
SUBSCRIBED = ["cudaMemcpy_v3020", "cudaMemcpyAsync_v3020", "cudaMemsetAsync_v3020",
              "cudaMemset_v3020", "cudaMalloc_v3020", "cudaFree_v3020", "cudaMallocHost_v3020",
              "cudaHostAlloc_v3020", "cudaFreeHost_v3020", "cudaMallocAsync_v11020",
              "cudaStreamSynchronize_v3020", "cudaDeviceSynchronize_v3020",
              "cudaEventSynchronize_v3020", "cudaStreamQuery_v3020", "cudaEventQuery_v3020",
              "cudaStreamCreateWithFlags_v5000", "cuMemcpyDtoH_v2", "cuCtxSynchronize",
              "cuMemAlloc_v2", "cuMemFree_v2", "cudaGraphInstantiate_v12000",
              "cudaGraphInstantiateWithFlags_v11040", "cudaGraphInstantiateWithParams_v12000",
              "cudaGraphUpload_v10000", "cudaGraphUpload_ptsz_v10000", "cuGraphInstantiate_v2",
              "cuGraphInstantiateWithFlags", "cuGraphInstantiateWithParams", "cuGraphUpload"]
LEFT_OUT = ["cudaLaunchKernel_v7000", "cudaLaunchKernelExC_v11060", "cudaEventRecord_v3020",
            "cudaStreamWaitEvent_v3020", "cudaLaunchHostFunc_v10000", "cudaGraphLaunch_v10000",
            "cudaStreamBeginCapture_v10000", "cuLaunchKernel"]


def markers():
    """(rule, line, latent) of each marker of light_app.c."""
    with open(os.path.join(HERE, "light_app.c"), encoding="utf-8") as handle:
        return sorted((m.group(1), n, bool(m.group(2))) for n, text in enumerate(handle, 1)
                      for m in [MARKER.search(text)] if m)


def environment(opts, workdir, **extra):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("SYNCSCOPE_", "FAKE_CUPTI_", "LIGHT_APP_")) and k != "LD_PRELOAD"}
    env.update({"LD_PRELOAD": opts["preload"], "SYNCSCOPE_CUPTI_PATH": opts["fake"],
                "SYNCSCOPE_OUTPUT": os.path.join(workdir, "out.json"),
                "SYNCSCOPE_TRACE": os.path.join(workdir, "out.sstrace"),
                "SYNCSCOPE_SYMBOL_CACHE": "0"})
    env.update(extra)
    return env


def run(cmd, env, cwd):
    done = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True,
                          timeout=TIMEOUT_S, check=False)
    return done.returncode, done.stdout, done.stderr


def start(opts, name):
    workdir = os.path.join(opts["workdir"], name)
    shutil.rmtree(workdir, ignore_errors=True)
    os.makedirs(workdir)
    return workdir


def trace_meta(path):
    meta, apis, strings = {}, [], {}
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            words = line.rstrip("\n").split(" ")
            if words[0] == "meta":
                meta[words[1]] = words[2]
            elif words[0] == "str":
                strings[words[1]] = words[2]
            elif words[0] == "api":
                apis.append(strings.get(words[5], ""))
    return meta, apis


def rows_of(findings):
    return sorted((f["rule"] if "rule" in f else f["ruleId"],
                   int(f["line"]), bool(f.get("latent")),
                   int(f["count"] if "count" in f else f["evidence"]["count"]))
                  for f in findings
                  if os.path.basename(f.get("file") or "") == "light_app.c")


def expected_rows():
    return sorted((rule, line, latent, 1) for rule, line, latent in markers())


def case_selection(opts, check):
    workdir = start(opts, "selection")
    names = SUBSCRIBED + LEFT_OUT
    for mode, wanted in (("light", set(SUBSCRIBED)), ("full", set(names))):
        status, out, err = run([opts["app"]] + names,
                               environment(opts, workdir, SYNCSCOPE_MODE=mode), workdir)
        check(status == 0, f"{mode}: exit {status}: {err}")
        seen = {line.split()[0] for line in out.splitlines() if line.endswith(" yes")}
        check(seen == wanted, f"{mode}: subscribed {sorted(seen)}, expected {sorted(wanted)}")


def case_findings(opts, check):
    workdir = start(opts, "findings")
    status, out, err = run([opts["app"]], environment(opts, workdir, SYNCSCOPE_MODE="light"),
                           workdir)
    check(status == 0 and out.endswith("light_app: done\n"), f"exit {status}: {out}{err}")
    with open(os.path.join(workdir, "out.json"), encoding="utf-8") as handle:
        result = json.load(handle)
    findings = result["findings"]
    rows = rows_of(findings)
    check(rows == expected_rows(), f"findings {rows}, expected {expected_rows()}")
    check(all((f.get("extra") or {}).get("mode") == "light" for f in findings),
          f"findings not marked light: {[f.get('extra') for f in findings]}")
    notes = [d.get("message", "") for d in result.get("diagnostics", [])]
    check(sum(n.startswith(LIGHT_NOTE) for n in notes) == 1, f"the light note: {notes}")
    check(f"syncscope: {LIGHT_NOTE}" in err, f"the summary lacks the light note:\n{err}")
    meta, apis = trace_meta(os.path.join(workdir, "out.sstrace"))
    check(meta.get("mode") == "light", f"trace meta mode {meta.get('mode')!r}")
    check(apis == ["cudaMemcpyAsync", "cudaMemcpyAsync", "cudaStreamSynchronize",
                   "cudaDeviceSynchronize", "cudaFree", "cudaFree"], f"trace calls {apis}")
    # The trace replays to the same findings (analyze reads the mode from it).
    replay = os.path.join(workdir, "replay.json")
    status, _, err = run([opts["syncscope"], "analyze", "--format", "json", "--fail-on", "none",
                          "-o", replay, os.path.join(workdir, "out.sstrace")], None, workdir)
    if check(status == 0, f"analyze: exit {status}: {err}"):
        with open(replay, encoding="utf-8") as handle:
            replayed = rows_of(json.load(handle)["findings"])
        check(replayed == rows, f"the trace replays to {replayed}, the run reported {rows}")


def read_lines(path):
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle.read().splitlines()]


def check_line(check, label, line, pid):
    check(line.get("syncscope") == "interval" and line.get("pid") == pid
          and line.get("mode") == "light" and line.get("rank") is None
          and all(isinstance(line.get(k), int) for k in ("time_ns", "elapsed_ns", "blocked_ns"))
          and abs(line["time_ns"] - time.time_ns()) < 60e9, f"{label}: {line}")
    # The blocked time is the summary's: the findings that blocked the host (SYNC401's explicit
    # synchronization is not counted, rules.def's cost column).
    counted = sum(f["blocked_ns"] for f in line.get("findings", [])
                  if not f["latent"] and f["rule"] != "SYNC401") if line.get("findings") else 0
    check(line.get("blocked_ns") == counted and counted >= 3e6,
          f"{label}: blocked_ns {line.get('blocked_ns')}, the findings' {counted}")
    rows = rows_of(line.get("findings", []))
    check(rows == expected_rows(), f"{label}: findings {rows}, expected {expected_rows()}")


def case_interval(opts, check):
    workdir = start(opts, "interval")
    lines_path = os.path.join(workdir, "lines.jsonl")
    env = environment(opts, workdir, SYNCSCOPE_MODE="light", SYNCSCOPE_INTERVAL="1",
                      SYNCSCOPE_INTERVAL_FILE=os.path.join(workdir, "lines-%p.jsonl"),
                      LIGHT_APP_LINGER_MS="2600")
    proc = subprocess.Popen([opts["app"]], env=env, cwd=workdir, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    out, err = proc.communicate(timeout=TIMEOUT_S)
    lines_path = os.path.join(workdir, f"lines-{proc.pid}.jsonl")
    check(proc.returncode == 0, f"exit {proc.returncode}: {err}")
    lines = read_lines(lines_path)
    finals = [line.get("final") for line in lines]
    check(finals in ([False, False, True], [False, True]) and len(lines) >= 2,
          f"{len(lines)} lines, final flags {finals}: expected two while running (one at 1 s, "
          f"one at 2 s, the second may race the end) and a final one")
    for i, line in enumerate(lines):
        check_line(check, f"line {i + 1}", line, proc.pid)


def case_killed(opts, check):
    workdir = start(opts, "killed")
    env = environment(opts, workdir, SYNCSCOPE_MODE="light", SYNCSCOPE_INTERVAL="1",
                      SYNCSCOPE_INTERVAL_FILE=os.path.join(workdir, "lines-%p.jsonl"),
                      LIGHT_APP_LINGER_MS="20000")
    proc = subprocess.Popen([opts["app"]], env=env, cwd=workdir, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    lines_path = os.path.join(workdir, f"lines-{proc.pid}.jsonl")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not read_lines(lines_path):
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=TIMEOUT_S)
    lines = read_lines(lines_path)
    check(proc.returncode == -signal.SIGKILL, f"status {proc.returncode}")
    check(len(lines) >= 1 and not any(line.get("final") for line in lines),
          f"after SIGKILL: {len(lines)} lines, final flags {[x.get('final') for x in lines]}")
    check(not os.path.exists(os.path.join(workdir, "out.json")), "a result after SIGKILL")
    if lines:
        check_line(check, "line 1 (killed)", lines[0], proc.pid)


def case_window(opts, check):
    workdir = start(opts, "window")
    env = environment(opts, workdir, SYNCSCOPE_SAMPLE="300ms/10m", LIGHT_APP_WINDOW="1")
    status, out, err = run([opts["app"]], env, workdir)
    check(status == 0, f"exit {status}: {err}")
    check(out == "before no\nduring yes\nafter no\n", f"launches taken: {out!r}")
    meta, _ = trace_meta(os.path.join(workdir, "out.sstrace"))
    windows = meta.get("sample_windows", "")
    check(meta.get("mode") == "sampled" and re.fullmatch(r"[0-9]+-[0-9]+", windows) is not None,
          f"trace meta mode {meta.get('mode')!r}, sample_windows {windows!r}")
    if re.fullmatch(r"[0-9]+-[0-9]+", windows):
        start_ns, end_ns = map(int, windows.split("-"))
        check(250e6 <= end_ns - start_ns <= 800e6, f"window of {end_ns - start_ns} ns")


def case_trigger(opts, check):
    workdir = start(opts, "trigger")
    trigger = os.path.join(workdir, "window-please")
    env = environment(opts, workdir, SYNCSCOPE_SAMPLE="2s/10m", SYNCSCOPE_TRIGGER_FILE=trigger,
                      LIGHT_APP_WINDOW="1", LIGHT_APP_TRIGGER=trigger)
    status, out, err = run([opts["app"]], env, workdir)
    check(status == 0, f"exit {status}: {err}")
    check(out == "before no\nduring yes\nafter no\n", f"launches taken: {out!r}")
    meta, _ = trace_meta(os.path.join(workdir, "out.sstrace"))
    check(meta.get("mode") == "sampled" and
          re.fullmatch(r"[0-9]+-[0-9]+", meta.get("sample_windows", "")) is not None,
          f"trace meta mode {meta.get('mode')!r}, sample_windows {meta.get('sample_windows')!r}")


def case_first_call(opts, check):
    workdir = start(opts, "first_call")
    env = environment(opts, workdir, SYNCSCOPE_MODE="light", FAKE_CUPTI_CONTEXT_INSIDE="1",
                      LIGHT_APP_FIRST_MALLOC="1")
    status, out, err = run([opts["app"]], env, workdir)
    check(status == 0 and out == "light_app: done\n", f"exit {status}: {out}{err}")
    with open(os.path.join(workdir, "out.json"), encoding="utf-8") as handle:
        findings = json.load(handle)["findings"]
    check(findings == [], f"the first call, which made the context: {rows_of(findings)}")
    meta, apis = trace_meta(os.path.join(workdir, "out.sstrace"))
    check(apis == ["cudaMalloc"], f"trace calls {apis}")


def case_destroyed_stream(opts, check):
    """docs/run.md, Modes: a stream that another thread destroys during a device-wide call is
    not asked about at the call's exit, nor one destroyed earlier whose release the driver
    defers (cuStreamDestroy_v2's entry forgets it: its handle may be freed); a stream that
    stays is asked."""
    workdir = start(opts, "destroyed_stream")
    env = environment(opts, workdir, SYNCSCOPE_MODE="light", LIGHT_APP_DESTROYED="1")
    status, out, err = run([opts["app"]], env, workdir)
    check(status == 0 and out == "after their destruction: the stream destroyed during a call "
          "asked 0 times, the stream released later 0 times; kept stream asked 3 times\n",
          f"exit {status}: {out}{err}")
    # The three device synchronizations: the first made the context, the second's pending
    # stream went away (probed, no wait seen), the third waited for the kept stream.
    flags = []
    with open(os.path.join(workdir, "out.sstrace"), encoding="utf-8") as handle:
        for line in handle:
            words = line.split()
            if words and words[0] == "api":
                flags.append(int(words[1 + API_FLAGS]) & (PROBED | WAITED))
    check(flags == [PROBED, PROBED, PROBED | WAITED],
          f"probe flags {[hex(f) for f in flags]}, expected 0x40000000 0x40000000 0x60000000")


def probe_flags(path):
    """The probe bits (SS_API_PROBED, SS_API_WAITED) of each call of a trace, in order."""
    flags = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            words = line.split()
            if words and words[0] == "api":
                flags.append(int(words[1 + API_FLAGS]) & (PROBED | WAITED))
    return flags


def case_readback_sync(opts, check):
    """docs/run.md, Modes: the synchronization of a stream right after a readback of its thread
    that found the stream idle is not asked about and takes no stack (the detectors take it as
    the readback's, and no answer of the probe changes a finding there: the trace analyzed with
    that call's flags set as probed, and as probed, pending and waited, gives the same
    findings); the
    synchronizations after a readback that found its stream busy, after a readback and a
    cudaMalloc, of another stream, and after a readback with a recorded call inside it (the
    readback's next call by entry) are asked about."""
    workdir = start(opts, "readback_sync")
    env = environment(opts, workdir, SYNCSCOPE_MODE="light", LIGHT_APP_READBACK_SYNC="1")
    status, out, err = run([opts["app"]], env, workdir)
    # The readback's two pointers' memory kinds and its stream; the synchronization nothing.
    check(status == 0 and out == "light_app: an idle readback and its synchronization asked 3 "
          "questions\n", f"exit {status}: {out}{err}")
    trace = os.path.join(workdir, "out.sstrace")
    strings, calls, stacked = {}, [], []
    with open(trace, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    for line in lines:
        words = line.split(" ")
        if words[0] == "str":
            strings[words[1]] = words[2]
        elif words[0] == "api":
            calls.append((strings.get(words[5], "").split("_v")[0],
                          int(words[1 + API_FLAGS]) & (PROBED | WAITED | PENDING | BETWEEN)))
            stacked.append(words[1 + API_STACK] != "0")
    copy, sync = "cudaMemcpyAsync", "cudaStreamSynchronize"
    wanted = [(copy, PROBED), (sync, 0), (copy, PROBED | PENDING), (sync, PROBED),
              (copy, PROBED), ("cudaMalloc", PROBED), (sync, PROBED), (copy, PROBED),
              (sync, PROBED), (copy, 0), ("cudaMalloc", PROBED), (sync, PROBED),
              (copy, PROBED), (sync, PROBED | BETWEEN), (copy, PROBED), (sync, PROBED | BETWEEN),
              (copy, PROBED), (sync, PROBED | BETWEEN)]
    # (A recorded call inside a call takes the thread's probe state: the readback around the
    # cudaMalloc is not probed, so it is no idle readback either. The copies between device
    # memory are left out: the synchronization after each says that one came between, and is
    # asked about, as after a recorded call; the readback with one inside keeps its probe and
    # is no idle readback. A memset of device memory, left out as well, marks the
    # synchronization after it the same way.)
    if not check(calls == wanted, f"calls and probe bits {calls}, expected {wanted}"):
        return
    # Stacks for all but the unasked synchronization, which no finding names.
    check(stacked == [i != 1 for i in range(len(wanted))], f"calls with a stack: {stacked}")
    results = []
    for bits in (0, PROBED, PROBED | PENDING | WAITED):
        seen, edited = 0, []
        for line in lines:
            words = line.split(" ")
            if words[0] == "api":
                seen += 1
                if seen == 2:
                    words[1 + API_FLAGS] = str(int(words[1 + API_FLAGS]) | bits)
            edited.append(" ".join(words))
        path = os.path.join(workdir, f"flags-{bits:x}.sstrace")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write("\n".join(edited))
        json_path = os.path.join(workdir, f"flags-{bits:x}.json")
        status, _, err = run([opts["syncscope"], "analyze", "--format", "json", "--fail-on",
                              "none", "-o", json_path, path], None, workdir)
        check(status == 0, f"analyze flags {bits:x}: exit {status}: {err}")
        with open(json_path, encoding="utf-8") as handle:
            results.append(json.load(handle)["findings"])
    with open(os.path.join(HERE, "light_app.c"), encoding="utf-8") as handle:
        source = handle.read().split("\n")
    start_at = next(n for n, text in enumerate(source) if "LIGHT_APP_READBACK_SYNC" in text)
    first = next(n for n, text in enumerate(source[start_at:], start_at + 1)
                 if 'CALL("cudaMemcpyAsync_v3020"' in text)
    rows = [(f["ruleId"], f.get("line"), f.get("latent", False), f["evidence"]["count"])
            for f in results[0]]
    check(("SYNC301", first, True, 1) in rows,
          f"the light findings {rows}, expected the idle readback's latent SYNC301 at line "
          f"{first}")
    check(lines[0] == "SSTRACE 1 4", f"header {lines[0]}, expected SSTRACE 1 4 (SS_API_BETWEEN)")
    check(results[1] == results[0] and results[2] == results[0],
          f"the findings change with the synchronization's probe bits: {results}")


def case_memory_cap(opts, check):
    """docs/run.md, Cost and memory: past the memory cap the light mode counts its calls by kind, and
    each kind is judged as the calls of that kind recorded before the cap: the same findings,
    counts and lines as under a cap that keeps every call, nothing dropped, a note saying how
    many calls were counted, and the trace (format 1.5, tally records) analyzed again gives
    the run's findings."""
    iterations = 20000
    results = {}
    for cap in ("64M", "4M"):
        workdir = start(opts, f"memory_cap_{cap}")
        env = environment(opts, workdir, SYNCSCOPE_MODE="light", SYNCSCOPE_MAX_MEMORY=cap,
                          LIGHT_APP_CAP=str(iterations))
        status, out, err = run([opts["app"]], env, workdir)
        if not check(status == 0 and out == f"light_app: {iterations} iterations\n",
                     f"{cap}: exit {status}: {out}{err}"):
            return
        with open(os.path.join(workdir, "out.json"), encoding="utf-8") as handle:
            result = json.load(handle)
        json_path = os.path.join(workdir, "again.json")
        status, _, err = run([opts["syncscope"], "analyze", "--format", "json", "--fail-on",
                              "none", "-o", json_path, os.path.join(workdir, "out.sstrace")],
                             None, workdir)
        check(status == 0, f"{cap}: analyze: exit {status}: {err}")
        with open(json_path, encoding="utf-8") as handle:
            again = json.load(handle)
        rows = sorted((f["ruleId"], f.get("line"), f["severity"], f["evidence"]["count"])
                      for f in result["findings"])
        check(rows == sorted((f["ruleId"], f.get("line"), f["severity"],
                              f["evidence"]["count"]) for f in again["findings"]),
              f"{cap}: the trace analyzed again gives other findings: {again['findings']}")
        with open(os.path.join(workdir, "out.sstrace"), encoding="utf-8") as handle:
            header = handle.readline().strip()
        results[cap] = (rows, result["run"], [d["message"] for d in result["diagnostics"]],
                        header)
    # The readback, its stream's synchronization and the device-wide one (latent notes: the
    # first two waited for the readback's work): each counted once an iteration either way.
    source = open(os.path.join(HERE, "light_app.c"), encoding="utf-8").read().split("\n")
    at = next(n for n, text in enumerate(source) if "LIGHT_APP_CAP" in text)
    line = next(n for n, text in enumerate(source[at:], at + 1)
                if 'CALL("cudaMemcpyAsync_v3020", &readback, 30000, 1)' in text)
    after = next(n for n, text in enumerate(source[line:], line + 1)
                 if 'CALL("cudaMemcpyAsync_v3020", &readback, 30000, 1)' in text)
    # and the readback and synchronization after the loop, once: past the cap, of kinds no
    # kept call had, judged by their first (here only) calls
    wanted = sorted([("SYNC301", line, "warning", iterations),
                     ("SYNC401", line + 1, "note", iterations),
                     ("SYNC401", line + 2, "note", iterations),
                     ("SYNC301", after, "warning", 1), ("SYNC401", after + 1, "note", 1)])
    check(results["64M"][0] == wanted, f"64M: {results['64M'][0]}, expected {wanted}")
    check(results["4M"][0] == wanted, f"4M: {results['4M'][0]}, expected {wanted}")
    calls = 3 * iterations + 5  # the context's synchronization, the two queries, the last two
    whole, capped = results["64M"][1], results["4M"][1]
    check(whole["events"] == calls and whole["dropped"] == 0 and results["64M"][3] == "SSTRACE 1 0",
          f"64M: {whole['events']} events, {whole['dropped']} dropped, {results['64M'][3]}")
    counted = [re.match(r"the memory cap was reached: ([0-9]+) later calls \(([0-9]+) kinds\) "
                        r"were counted by kind, not kept, and judged as the calls of their kind "
                        r"recorded before the cap", m) for m in results["4M"][2]]
    counted = [m for m in counted if m]
    check(len(counted) == 1 and capped["dropped"] == 0 and
          capped["events"] + int(counted[0].group(1)) == calls and capped["events"] < calls,
          f"4M: {capped['events']} events, {capped['dropped']} dropped, {results['4M'][2]}")
    check(not any("could not be judged" in m for m in results["4M"][2]),
          f"4M: calls not judged: {results['4M'][2]}")
    check(sum(m.startswith("2 of those calls (2 kinds) were of a kind no call recorded before "
                           "the cap had: they were judged as the first call of their kind")
              for m in results["4M"][2]) == 1,
          f"4M: the readback and synchronization after the loop judged by their first calls: "
          f"{results['4M'][2]}")
    check(results["4M"][3] == "SSTRACE 1 5", f"4M: header {results['4M'][3]}, expected 1.5")
    case_memory_cap_phases(opts, check)
    case_memory_cap_idle(opts, check)
    case_memory_cap_next(opts, check)


def case_memory_cap_next(opts, check):
    """docs/run.md, Cost and memory: a counted call whose kind no kept call had only by its
    neighbours, and whose first call would be judged without the call it is joined to (a
    readback's synchronization, the readback before it of a kind kept before the cap), is judged
    by its kind without neighbours: 40,000 iterations of a readback into pinned memory, its
    stream's synchronization (30 us) and a device-wide one, where in the last quarter every
    100th iteration has a query instead of the device-wide synchronization. The same findings
    and counts under a cap that keeps a third of the calls as under one that keeps them all (no
    SYNC401 of the stream's synchronization of its own, no readback lost), within what a loaded
    machine varies; the 100 synchronizations before a query judged by their kind or, where a few
    kept ones lasted far beyond their work and were judged apart, counted in the warning for
    such calls (tests/replay tally_samples c10 checks the judged case without that noise)."""
    iterations = 40000
    results = capped_runs(opts, check, "next", iterations, LIGHT_APP_CAP_NEXT="1")
    if results is None:
        return
    found = {cap: (sorted((f["ruleId"], f.get("line"), f["severity"], f["evidence"]["count"])
                          for f in result["findings"]),
                   [d["message"] for d in result["diagnostics"]])
             for cap, result in results.items()}
    source = open(os.path.join(HERE, "light_app.c"), encoding="utf-8").read().split("\n")
    at = next(n for n, text in enumerate(source) if "LIGHT_APP_CAP_NEXT" in text)
    line = next(n for n, text in enumerate(source[at:], at + 1)
                if 'CALL("cudaMemcpyAsync_v3020", &readback, 0, 1)' in text)
    # the readback (its synchronization's 30 us) every iteration; the device-wide wait but in
    # the 100 iterations with the query. On a loaded machine a few readbacks or synchronizations
    # that lasted far beyond their work are judged apart (a synchronization a SYNC401 of its
    # own, its readback none's), kept or counted, in either run, a few that vary from run to
    # run; their kinds are then judged in two ways and such counted calls stay unjudged.
    for cap in ("64M", "4M"):
        rows = {(row[0], row[1], row[2]): row[3] for row in found[cap][0]}
        check(set(rows) - {("SYNC401", line + 1, "note")} ==
              {("SYNC301", line, "warning"), ("SYNC401", line + 5, "note")} and
              iterations - 10 <= rows[("SYNC301", line, "warning")] <= iterations and
              iterations - 110 <= rows[("SYNC401", line + 5, "note")] <= iterations - 100,
              f"next {cap}: {found[cap][0]}")
    # Never the 100 synchronizations that came before a query judged alone (without their
    # readback, counted by its kind) as SYNC401s of their own, as they were before the lacking
    # tallies (4M: 15 of them where 64M had 3, with ten such iterations).
    own = {cap: sum(row[3] for row in found[cap][0] if row[1] == line + 1) for cap in found}
    check(own["4M"] <= own["64M"] + 20, f"next: the synchronizations' own SYNC401: {own}")
    check(any(m.startswith("the memory cap was reached") for m in found["4M"][1]),
          f"next 4M: the cap was not reached: {found['4M'][1]}")
    unjudged = [re.match(r"([0-9]+) of those calls \([0-9]+ kinds?\) could not be judged: each "
                         r"came right after or before the call it is judged with", m)
                for m in found["4M"][1] if "could not be judged" in m]
    check(all(unjudged) and sum(int(m.group(1)) for m in unjudged) <= 110,
          f"next 4M: calls left unjudged: {found['4M'][1]}")


def case_memory_cap_idle(opts, check):
    """docs/run.md, Cost and memory: a counted call adds to its finding only as much of its own
    time as the kept calls of its kind counted of theirs: 40,000 readbacks into pinned memory,
    each with its stream's synchronization, nothing pending at either (.item() with the GPU
    ahead: a latent SYNC301 note that blocked 0 ms), give the same note, count and 0 ns past a
    cap that keeps only part of them."""
    iterations = 40000
    found = {}
    for cap in ("64M", "4M"):
        workdir = start(opts, f"memory_cap_idle_{cap}")
        env = environment(opts, workdir, SYNCSCOPE_MODE="light", SYNCSCOPE_MAX_MEMORY=cap,
                          LIGHT_APP_CAP=str(iterations), LIGHT_APP_CAP_IDLE="1")
        status, out, err = run([opts["app"]], env, workdir)
        if not check(status == 0 and out == f"light_app: {iterations} iterations\n",
                     f"idle {cap}: exit {status}: {out}{err}"):
            return
        with open(os.path.join(workdir, "out.json"), encoding="utf-8") as handle:
            result = json.load(handle)
        found[cap] = (sorted((f["ruleId"], f.get("line"), f["severity"], f["evidence"]["count"],
                              f["evidence"]["totalNs"]) for f in result["findings"]),
                      result["run"]["events"])
    source = open(os.path.join(HERE, "light_app.c"), encoding="utf-8").read().split("\n")
    at = next(n for n, text in enumerate(source) if "LIGHT_APP_CAP_IDLE" in text)
    line = next(n for n, text in enumerate(source[at:], at + 1)
                if 'CALL("cudaMemcpyAsync_v3020", &readback, 5000, 0)' in text)
    wanted = [("SYNC301", line, "note", iterations, 0)]
    check(found["64M"][0] == wanted and found["4M"][0] == wanted,
          f"idle: {found['64M'][0]} (64M), {found['4M'][0]} (4M), expected {wanted}")
    check(found["4M"][1] < found["64M"][1], f"idle: 4M kept {found['4M'][1]} of {found['64M'][1]}")


def capped_runs(opts, check, name, iterations, **extra):
    """Runs light_app's LIGHT_APP_CAP loop of 'iterations' (with the variables 'extra') in the
    light mode under a 64 MiB cap, which keeps every call, and a 4 MiB one: each run's result
    by cap, or None after a failed check."""
    results = {}
    for cap in ("64M", "4M"):
        workdir = start(opts, f"memory_cap_{name}_{cap}")
        env = environment(opts, workdir, SYNCSCOPE_MODE="light", SYNCSCOPE_MAX_MEMORY=cap,
                          LIGHT_APP_CAP=str(iterations), **extra)
        status, out, err = run([opts["app"]], env, workdir)
        if not check(status == 0, f"{name} {cap}: exit {status}: {out}{err}"):
            return None
        with open(os.path.join(workdir, "out.json"), encoding="utf-8") as handle:
            results[cap] = json.load(handle)
    return results


def case_memory_cap_phases(opts, check):
    """docs/run.md, Cost and memory: a kind no kept call had is not judged, and a loose kind
    judges only a single call: 20,000 iterations of a readback into pinned memory with the
    synchronization of its stream after it (SYNC301, the readback's time its synchronization's
    30 us), then 20,000 of the readback alone, under a cap that the first half passes. The
    counted readbacks of the first half are added with the time and figures of the kept ones
    (each waited in the synchronization after it); those of the second half, of a kind no kept
    call had, are judged by the first of them (kept for that: a readback that returns at once
    with nothing after it that waits, no finding's), never added to the first half's finding."""
    iterations = 40000
    results = capped_runs(opts, check, "phases", iterations, LIGHT_APP_CAP_PHASES="1")
    if results is None:
        return
    found = {}
    for cap, result in results.items():
        readbacks = [f for f in result["findings"] if f["ruleId"] == "SYNC301"]
        if not check(len(readbacks) == 1, f"phases {cap}: SYNC301 findings {readbacks}"):
            return
        f = readbacks[0]
        waited = re.search(r"\((each|[0-9]+ of them) waited in the cudaStreamSynchronize",
                           f["message"])
        found[cap] = (f["evidence"]["count"], f["evidence"]["totalNs"],
                      waited.group(1) if waited else None,
                      [d["message"] for d in result["diagnostics"]])
    whole, capped = found["64M"], found["4M"]
    half = iterations // 2
    # A few more may be findings of their own in either run: a readback of the second half
    # that returns at once may still last min_blocked_ns on a loaded machine (with work
    # pending, a SYNC301 of its own); and single calls are judged by their loose kind. Never
    # the second half's 20,000 (which would double the count).
    check(half <= whole[0] <= half + half // 20 and
          half - 10 <= capped[0] <= whole[0] + half // 20,
          f"phases: SYNC301 counts {whole[0]} (64M) and {capped[0]} (4M), expected about {half}")
    # Each occurrence holds its synchronization's 30 us, counted or kept.
    check(capped[1] >= capped[0] * 30000, f"phases 4M: {capped[1]} ns for {capped[0]} readbacks")
    check(capped[2] is not None and (capped[2] == "each" or
                                     int(capped[2].split()[0]) >= capped[0] - half // 20),
          f"phases 4M: waited in the synchronization: {capped[2]} of {capped[0]}")
    sampled = [re.match(r"([0-9]+) of those calls \(([0-9]+) kinds?\) were of a kind no call "
                        r"recorded before the cap had: they were judged as the first call of "
                        r"their kind", m) for m in capped[3]]
    sampled = [m for m in sampled if m]
    # (a few single calls of the second half are judged by their loose kind: its first
    # readback and query, the thread's last call, and on a loaded machine a readback that
    # lasted min_blocked_ns)
    check(len(sampled) == 1 and
          2 * half - half // 20 <= int(sampled[0].group(1)) <= 2 * half + half // 20,
          f"phases 4M: the second half's calls judged by their first: {capped[3]}")
    # (a few of the first half's counted calls may stay unjudged on a loaded machine: a
    # synchronization that found its stream done, of a kind the kept ones were judged in two
    # ways)
    unjudged = [re.match(r"([0-9]+) of those calls \([0-9]+ kinds?\) could not be judged", m)
                for m in capped[3]]
    unjudged = [int(m.group(1)) for m in unjudged if m]
    check(sum(unjudged) <= half // 20, f"phases 4M: calls not judged: {capped[3]}")


def case_streams(opts, check):
    """docs/run.md, Modes: the live streams' table takes a destroyed stream's slot again, so a
    run that makes more streams than it has slots still probes device-wide calls; with more
    streams alive at once than it holds, the mode judges them by their time from then on."""
    workdir = start(opts, "streams")
    env = environment(opts, workdir, SYNCSCOPE_MODE="light", LIGHT_APP_STREAMS="1")
    status, out, err = run([opts["app"]], env, workdir)
    check(status == 0 and out == "600 streams made and destroyed: the kept stream asked 2 "
          "times; after 513 lived at once: 0 times\n", f"exit {status}: {out}{err}")
    flags = probe_flags(os.path.join(workdir, "out.sstrace"))
    check(flags == [PROBED, PROBED | WAITED, 0],
          f"probe flags {[hex(f) for f in flags]}, expected 0x40000000 0x60000000 0x0")


def case_legacy_sync(opts, check):
    """docs/run.md, Modes: a synchronization of the legacy stream (PyTorch's .item() and
    non_blocking=False copies) whose legacy stream is busy at its entry asks about no other
    stream: the legacy stream at the entry and at the exit, 2 questions, waited (5 before); one
    whose legacy stream is idle asks about the 3 live streams too (4); one whose legacy stream
    is still busy at its exit is not probed (2 questions); with 43 live streams, more than a
    probe takes, none is asked (32 before) and the call is not probed."""
    workdir = start(opts, "legacy_sync")
    env = environment(opts, workdir, SYNCSCOPE_MODE="light", LIGHT_APP_LEGACY_SYNC="1")
    status, out, err = run([opts["app"]], env, workdir)
    check(status == 0 and out == "light_app: legacy synchronizations asked 2, 4 and 2 "
          "questions; with 43 streams 0\n", f"exit {status}: {out}{err}")
    flags = []
    with open(os.path.join(workdir, "out.sstrace"), encoding="utf-8") as handle:
        for line in handle:
            words = line.split()
            if words and words[0] == "api":
                flags.append(int(words[1 + API_FLAGS]) & (PROBED | WAITED))
    wanted = [PROBED, PROBED | WAITED, PROBED, 0, 0]
    check(flags == wanted, f"probe flags {[hex(f) for f in flags]}, expected "
          f"{[hex(f) for f in wanted]}")


def case_memsets(opts, check, switch=False):
    """docs/run.md, Modes: the light mode leaves out asynchronous memsets of device memory
    (they cannot block the host) and takes those of host memory and synchronous ones, with
    their memory kinds. With 'switch', under SYNCSCOPE_LIGHT_PROBE=switch, a memset made while
    the program switched the callbacks off first: not asked about, not recorded."""
    workdir = start(opts, "switch" if switch else "memsets")
    env = environment(opts, workdir, SYNCSCOPE_MODE="light", LIGHT_APP_MEMSETS="1")
    # A memset in a device allocation the mode saw made asks nothing (under the switch's level
    # 2 the driver is asked, calls it pageable, and the memset is taken: its memory kind and
    # a cuStreamQuery at its entry, 3 questions); freed, the same.
    expected = ("light_app: a memset of an allocation asked {} questions\n"
                "light_app: freed, 3\nlight_app: done\n").format(3 if switch else 0)
    if switch:
        env.update({"SYNCSCOPE_LIGHT_PROBE": "switch", "LIGHT_APP_SWITCH": "1"})
        expected = "light_app: switched off, the driver was asked 0 times\n" + expected
    status, out, err = run([opts["app"]], env, workdir)
    check(status == 0 and out == expected, f"exit {status}: {out}{err}")
    if switch:
        line = ("syncscope: SYNCSCOPE_LIGHT_PROBE=switch: a measurement aid, switched by "
                "syncscope_light_probe_set")
        check(err.count(line) == 1, f"switch: stderr {err!r}")
    meta, apis = trace_meta(os.path.join(workdir, "out.sstrace"))
    allocated = (["cudaMalloc", "cudaMemsetAsync", "cudaFree", "cudaMemsetAsync"] if switch else
                 ["cudaMalloc", "cudaFree", "cudaMemsetAsync"])
    check(apis == ["cudaMemsetAsync", "cudaMemset", "cudaMemset", "cudaMemcpyAsync"] + allocated,
          f"trace calls {apis}")
    kinds = []
    with open(os.path.join(workdir, "out.sstrace"), encoding="utf-8") as handle:
        for line in handle:
            words = line.split()
            if words and words[0] == "api":
                kinds.append(int(words[1 + API_FLAGS]) & 0x8000ffff)
    # SS_API_MEM_WORD (evlog.h): known, the source's kind << 8, the destination's (unknown 0,
    # pageable 1, pinned 2, device 3).
    wanted = [0x80000002, 0x80000003, 0x80000001, 0x80000203] + (
        [0, 0x80000001, 0, 0x80000001] if switch else [0, 0, 0x80000001])
    check(kinds == wanted, f"memory kinds {[hex(k) for k in kinds]}, expected "
          f"{[hex(k) for k in wanted]}")


def case_switch_off(opts, check):
    """SYNCSCOPE_LIGHT_PROBE=switch, level 3 (docs/studies/performance.md, "In one process,
    callbacks off"): the light mode's API callbacks disabled in CUPTI and enabled again; the
    destruction of a stream keeps its callback, so the live streams stay right."""
    workdir = start(opts, "switch_off")
    env = environment(opts, workdir, SYNCSCOPE_MODE="light", SYNCSCOPE_LIGHT_PROBE="switch",
                      LIGHT_APP_SWITCH_OFF="1", SYNCSCOPE_TIMING="1")
    status, out, err = run([opts["app"]], env, workdir)
    # Levels 0 3 1 3 0: a pinned memset is one event at level 0 (its api record; the light mode
    # without windows records no copy's or memset's arguments), none at 1 (called back,
    # returns at once) or 3 (not called back); syncscope's own time
    # (syncscope_light_probe_own_ns) grows at level 0 alone.
    check(status == 0 and out == "light_app: at level 3 CUPTI called back for 0 memsets, 0 "
          "synchronizations, 1 stream destructions; events 1 0 0 0 1; own time grew 1 0 0 0 1; "
          "after it the destroyed "
          "stream asked 0 times, the kept one 2\n", f"exit {status}: {out}{err}")
    _, apis = trace_meta(os.path.join(workdir, "out.sstrace"))
    check(apis == ["cudaDeviceSynchronize", "cudaMemsetAsync", "cudaMemsetAsync",
                   "cudaDeviceSynchronize"], f"trace calls {apis}")
    # Outside the light mode level 3 does nothing: the full mode's memset stays called back.
    env.update(SYNCSCOPE_MODE="full")
    status, out, err = run([opts["app"]], env, workdir)
    check(status == 0 and "CUPTI called back for 2 memsets, 2 synchronizations" in out,
          f"full mode: exit {status}: {out}{err}")


def case_copies(opts, check):
    """docs/run.md, Modes: an asynchronous copy between device memory (by the memory kinds the
    light mode found) is left out, the kinds of a cudaMalloc'ed allocation without asking the
    driver, and the thread's next recorded call says that a call came between; a copy whose kind argument says device to host, even
    between device memory, and a readback into pinned memory are probed and get stacks; the kind
    of cudaHostAlloc'ed memory is pinned without asking the driver, until its cudaFreeHost; a
    host address the driver called pageable is not asked about again until an allocation or a
    registration was made."""
    workdir = start(opts, "copies")
    env = environment(opts, workdir, SYNCSCOPE_MODE="light", LIGHT_APP_COPIES="1")
    status, out, err = run([opts["app"]], env, workdir)
    # The first copy's two memory kinds (the fake driver knows its device range); the second's
    # come from the allocation: no question, and neither asks cuStreamQuery.
    # A readback into cudaHostAlloc'ed memory (the fake driver calls it pageable) asks only
    # about its stream at its entry (1: a call held less than min_blocked_ns is not asked at
    # its exit), and 2 questions after the cudaFreeHost (the destination's kind).
    check(status == 0 and out == "light_app: two device copies asked 2 questions\n"
          "light_app: a readback into cudaHostAlloc'ed memory asked 1 questions, 2 after its "
          "cudaFreeHost\nlight_app: the pageable readback again asked 1, after another "
          "cudaHostAlloc 2, registered 1, unregistered 2, then 1\nlight_app: done\n",
          f"exit {status}: {out}{err}")
    records, metas, args = [], [], []
    with open(os.path.join(workdir, "out.sstrace"), encoding="utf-8") as handle:
        for line in handle:
            words = line.split()
            if words and words[0] == "api":
                records.append((int(words[1 + API_FLAGS]) & 0xf800ffff,
                                int(words[1 + API_STACK]) != 0))
            if words and words[0] == "meta":
                metas.append(words[1:])
            if words and words[0] == "args":
                args.append(int(words[3]))
    check(["probe_pending", "1"] in metas, "the light trace lacks the metadata probe_pending 1")
    # The arguments recorded: the cudaMalloc's address (kind 3) alone; no copy's pointers
    # (kind 2: only SYNC601 reads them, which the light mode without windows does not run).
    check(args == [3], f"args records of kinds {args}, expected [3]")
    # Known kinds (bit 31), source << 8 and destination (pageable 1, pinned 2, device 3), the
    # probe's bits (30 probed, 28 pending: the fake's stream was busy at the entry; 29, waited,
    # never: each call returns at once, not asked at its exit), bit 27 (a call the light mode
    # left out came between: the two copies between device memory are not recorded, the copy
    # said to be device to host after them says so) and whether the call has a stack
    # (the cudaMalloc first: probed, it found nothing pending); then the cudaHostAlloc, the
    # readback into it (pinned), the cudaFreeHost, the same readback (pageable: the memory is
    # no longer remembered); then that readback again (pageable, remembered so), the other
    # cudaHostAlloc, the readback (pageable, asked again), the cudaHostRegister of its
    # destination, the readback (pinned: found in the second slot, where a remembered pageable
    # answer from before the registration would have said pageable), the cudaHostUnregister and
    # two readbacks (pageable).
    pageable = (0x80000301 | PROBED | PENDING, True)
    wanted = [(PROBED, True), (0x80000303 | PROBED | PENDING | BETWEEN, True),
              (0x80000302 | PROBED | PENDING, True),
              (PROBED, True), (0x80000302 | PROBED | PENDING, True), (PROBED, True),
              pageable, pageable, (PROBED, True), pageable, (PROBED, True),
              (0x80000302 | PROBED | PENDING, True), (PROBED, True), pageable, pageable]
    check(records == wanted, f"copies {[(hex(f), s) for f, s in records]}, expected "
          f"{[(hex(f), s) for f, s in wanted]}")


def case_probes(opts, check):
    workdir = start(opts, "probes")
    names = SUBSCRIBED + LEFT_OUT + ["@subscriber"]
    runtime = {n for n in SUBSCRIBED if n.startswith("cuda")}
    expected = {"load": set(), "subscribe": {"@subscriber"},
                "noop": set(SUBSCRIBED) | {"@subscriber"},
                "noop_runtime": runtime | {"@subscriber"},
                "noop_driver": set(SUBSCRIBED) - runtime | {"@subscriber"}}
    for probe, wanted in expected.items():
        env = environment(opts, workdir, SYNCSCOPE_MODE="light", SYNCSCOPE_LIGHT_PROBE=probe)
        status, out, err = run([opts["app"]] + names, env, workdir)
        check(status == 0, f"{probe}: exit {status}: {err}")
        seen = {line.split()[0] for line in out.splitlines() if line.endswith(" yes")}
        check(seen == wanted, f"{probe}: subscribed {sorted(seen)}, expected {sorted(wanted)}")
        line = f"syncscope: SYNCSCOPE_LIGHT_PROBE={probe}: a measurement aid; nothing is recorded"
        check(err.count(line) == 1, f"{probe}: stderr {err!r}")
        if probe == "noop":
            # The calls run through the callbacks, which ask the driver nothing.
            env.update({"LIGHT_APP_MEMSETS": "1", "LIGHT_APP_QUESTIONS": "1"})
            status, out, err = run([opts["app"]], env, workdir)
            check(status == 0 and out == "light_app: a memset of an allocation asked 0 "
                  "questions\nlight_app: freed, 0\nlight_app: the driver was asked 0 times\n"
                  "light_app: done\n", f"{probe}: exit {status}: {out}{err}")
        left = [f for f in ("out.json", "out.sstrace") if os.path.exists(os.path.join(workdir, f))]
        check(not left, f"{probe}: recorded {left}")
    # Under the light mode itself the same program asks (the memsets' memory kinds).
    env = environment(opts, workdir, SYNCSCOPE_MODE="light", LIGHT_APP_MEMSETS="1",
                      LIGHT_APP_QUESTIONS="1")
    status, out, err = run([opts["app"]], env, workdir)
    check(status == 0 and "light_app: the driver was asked 0 times" not in out
          and "light_app: the driver was asked" in out, f"light: exit {status}: {out}{err}")


NUMBER = r"[0-9]+\.[0-9]"


def callback_line(err):
    """SYNCSCOPE_TIMING's callback line in 'err': its callbacks, threads, stacks and stacks
    unwound whole, or None."""
    return re.search(rf"^syncscope: callback timing: ([0-9]+) callbacks, own time {NUMBER} ms "
                     rf"\([0-9.]+ us each; ([0-9]+) threads' registration {NUMBER} ms\); "
                     rf"([0-9]+) stacks \(([0-9]+) unwound whole, the others found in the site "
                     rf"cache\): unwinding {NUMBER} ms, Python frames {NUMBER} ms$", err, re.M)


def case_site_cache(opts, check):
    """A Python program's call made again at the same site (the same Python frames, call and
    stack pointer) gets the stack taken there the first time, without unwinding it again, on
    each thread: site_cache_app.py's 33 calls in all unwind the flusher's start (1), once per
    site on the main thread (3), once per call at the line of two calls (2), the second
    thread's start (1) and its first call (1), 35 stacks in either mode; the light mode's
    replayed findings are at the four lines with 20, 5 + 3, 1 and 4 calls, each naming its own
    line and function."""
    workdir = start(opts, "site_cache")
    app = os.path.join(HERE, "site_cache_app.py")
    with open(app, encoding="utf-8") as handle:
        lines = {text.split("# site: ")[1].strip(): n for n, text in enumerate(handle, 1)
                 if "# site: " in text}
    for mode in ("light", "full"):
        env = environment(opts, workdir, SYNCSCOPE_MODE=mode, SYNCSCOPE_TIMING="1",
                          SYNCSCOPE_LATENT="0")
        status, out, err = run([sys.executable, app], env, workdir)
        check(status == 0 and out == "done\n", f"{mode}: exit {status}: {out}{err}")
        line = callback_line(err)
        counts = tuple(int(n) for n in line.groups())[2:] if line else None
        check(counts == (35, 8), f"{mode}: stacks, unwound {counts}, expected (35, 8): {err}")
        if mode == "full":
            continue  # no activity records from the fake: the full mode judges no wait
        replay = os.path.join(workdir, f"{mode}.json")
        status, _, err = run([opts["syncscope"], "analyze", "--format", "json", "--fail-on",
                              "none", "-o", replay, os.path.join(workdir, "out.sstrace")],
                             None, workdir)
        if not check(status == 0, f"{mode}: analyze: exit {status}: {err}"):
            continue
        with open(replay, encoding="utf-8") as handle:
            findings = json.load(handle)["findings"]
        places = sorted((f.get("line"), f.get("function"), f["evidence"]["count"])
                        for f in findings if f.get("file") == app)
        wanted = sorted([(lines["loop"], "main", 20), (lines["helper"], "helper", 8),
                         (lines["once"], "main", 1), (lines["two calls"], "main", 4)])
        check(places == wanted, f"{mode}: findings {places}, expected {wanted}")


def python_sites(path):
    """The Python frames (file, line, function) of each call of a trace, in order."""
    strings, stacks, calls, frames = {"0": ""}, {}, [], None
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            words = line.rstrip("\n").split(" ")
            if words[0] == "str":
                strings[words[1]] = " ".join(words[2:])
            elif words[0] == "stack":
                frames = stacks.setdefault(words[1], [])
            elif words[0] == "frame" and words[6] != "0":
                frames.append((words[3], words[5], words[2]))
            elif words[0] == "api":
                calls.append(words[1 + API_STACK])
    return [tuple((os.path.basename(strings[f]), int(n), strings[fn])
                  for f, n, fn in stacks.get(c, []))
            for c in calls]


def case_site_keys(opts, check):
    """The light mode's site key mixes the Python frames the frame walk reads and no more
    (ss_python_site_key): a call gets the same Python frames as the full mode's, which reads
    them at every call, at sites whose library frames are fewer than the depth of 8, more (the
    walk goes on to the program's frame past them: two lines that only that frame tells
    apart), and exactly 8 or 7, each beneath 2 and 12 frames of the program's own: 36 calls.
    The light mode unwinds the flusher's start and each of the six sites once: the frames
    beneath the walk's reach do not make a site of their own (Python 3.11 on, whose calls of
    Python functions leave the native stack as it is)."""
    workdir = start(opts, "site_keys")
    app = os.path.join(HERE, "site_key_app.py")
    sites = {}
    for mode in ("light", "full"):
        env = environment(opts, workdir, SYNCSCOPE_MODE=mode, SYNCSCOPE_TIMING="1")
        status, out, err = run([sys.executable, app], env, workdir)
        check(status == 0 and out == "site_key_app: done\n", f"{mode}: exit {status}: {out}{err}")
        sites[mode] = python_sites(os.path.join(workdir, "out.sstrace"))
        line = callback_line(err)
        counts = tuple(int(n) for n in line.groups())[2:] if line else None
        # The full mode keys a site by its native frames too: how many it unwinds depends on
        # the interpreter's version (7 with 3.11, 8 with 3.10, 3.12 and 3.13).
        # Python 3.10 calls a Python function on a deeper native stack, whose pointer is in
        # the key: the sites beneath 2 and beneath 12 frames are two sites there.
        light = 7 if sys.version_info >= (3, 11) else 13
        wanted = (37, light) if mode == "light" else (37, counts[1] if counts else None)
        check(counts == wanted, f"{mode}: stacks, unwound {counts}, expected {wanted}: {err}")
    check(len(sites["light"]) == 36 and sites["light"] == sites["full"],
          f"Python frames per call: light {sites['light']}, full {sites['full']}")
    depths = sorted({len(frames) for frames in sites["light"]})
    check(depths == [8], f"Python frames per call: {depths}, expected 8 each")


def case_timing(opts, check):
    """SYNCSCOPE_TIMING=1: the start's line, and at the end the callbacks' (one per entry and
    exit of each recorded call, the one thread's registration, a stack per call whose stack was
    taken and one of the flusher thread's start, which the interposed pthread_create takes),
    the light mode's questions to the driver (memory kinds per copy, a probe per call) and the
    driver callbacks made inside runtime calls; the windows' line when one opened; none of
    these lines without the setting."""
    workdir = start(opts, "timing")
    env = environment(opts, workdir, SYNCSCOPE_MODE="light", SYNCSCOPE_TIMING="1")
    status, out, err = run([opts["app"]], env, workdir)
    check(status == 0 and out.endswith("light_app: done\n"), f"exit {status}: {out}{err}")
    check(re.search(rf"^syncscope: start timing: settings and CUPTI loaded {NUMBER} ms, "
                    rf"subscribed and callbacks enabled {NUMBER} ms, the rest {NUMBER} ms$",
                    err, re.M) is not None, f"the start's line: {err}")
    line = callback_line(err)
    meta, apis = trace_meta(os.path.join(workdir, "out.sstrace"))
    stacks = int(meta.get("self_stacks", -9)) + int(meta.get("self_slow_stacks", 0)) + 1
    counts = tuple(int(n) for n in line.groups()) if line else None
    wanted = (2 * len(apis), 1, stacks, stacks)
    check(counts == wanted, f"callbacks, threads, stacks, unwound {counts}, expected {wanted} "
          f"(no Python frames: each stack unwound): {err}")
    # The light mode's questions: the memory kinds of light_app's two copies; a probe at the
    # entry of each of its calls.
    light = re.search(rf"^syncscope: light timing: memory kinds asked at ([0-9]+) calls, "
                      rf"{NUMBER} ms; pending work looked for at ([0-9]+) calls, entry and exit, "
                      rf"{NUMBER} ms \(([0-9]+) streams asked\); ([0-9]+) driver callbacks inside "
                      rf"runtime calls$", err, re.M)
    check(light is not None and light.groups()[:2] == ("2", str(len(apis)))
          and light.groups()[3] == "0",
          f"the light line {light and light.groups()}, expected 2, {len(apis)} and 0: {err}")
    # The bench's 10 readbacks each make a driver call inside the copy and the synchronization:
    # CUPTI calls back at their entries and exits, 40 callbacks that return at once. A call
    # held 5 us or more is asked about at its exit too, which a loaded machine's preemption
    # can make any of them: no call of the bench is held 1 s, so no exit question is asked.
    status, out, nested_err = run([opts["app"]], dict(env, LIGHT_APP_BENCH="10",
                                                      SYNCSCOPE_MIN_BLOCKED_US="1000000"),
                                  workdir)
    nested = re.search(r" \(([0-9]+) streams asked\); ([0-9]+) driver callbacks inside runtime "
                       r"calls$", nested_err, re.M)
    check(status == 0 and nested is not None and nested.groups() == ("22", "40"),
          f"the bench's streams asked (the legacy stream at the entries of its cudaMalloc and "
          f"cudaHostAlloc and of each copy and synchronization: 22) and driver callbacks inside "
          f"runtime calls (40): {nested_err}")
    check("window timing" not in err, f"a window's line without a window: {err}")
    env.update({"SYNCSCOPE_SAMPLE": "300ms/10m", "LIGHT_APP_WINDOW": "1"})
    status, out, err = run([opts["app"]], env, workdir)
    check(status == 0, f"window: exit {status}: {err}")
    check(re.search(rf"^syncscope: window timing: 1 windows: opening {NUMBER} ms \(records on "
                    rf"{NUMBER}, callbacks on {NUMBER}\), closing {NUMBER} ms \(callbacks off "
                    rf"{NUMBER}, records off {NUMBER}, flush {NUMBER}\)$", err, re.M)
          is not None, f"the window's line: {err}")
    del env["SYNCSCOPE_TIMING"]
    status, out, err = run([opts["app"]], env, workdir)
    check(status == 0 and " timing: " not in err, f"without SYNCSCOPE_TIMING: {err}")


def case_refused(opts, check):
    workdir = start(opts, "refused")
    for args, message in ((["--mode", "heavy"], "--mode needs full or light (got 'heavy')"),
                          (["--sample", "5s"], "--sample needs ON/EVERY"),
                          (["--sample", "5s/2s"], "--sample needs ON/EVERY")):
        status, _, err = run([opts["syncscope"], "run"] + args + ["--", "true"], None, workdir)
        check(status == 2 and message in err, f"run {' '.join(args)}: exit {status}: {err}")
    status, out, err = run([opts["app"]], environment(opts, workdir, SYNCSCOPE_MODE="heavy"),
                           workdir)
    # Unobserved, the program does not find the fake CUPTI the interposer would have loaded.
    check(status == 2 and "light_app: the fake CUPTI is not loaded" in err
          and "syncscope: SYNCSCOPE_MODE='heavy' is not one of full, light" in err
          and "the program runs unobserved" in err, f"SYNCSCOPE_MODE=heavy: {status}: {err}")
    check(not os.path.exists(os.path.join(workdir, "out.json")), "a result while unobserved")


CASES = [("selection", case_selection), ("findings", case_findings),
         ("interval", case_interval), ("killed", case_killed), ("window", case_window),
         ("trigger", case_trigger), ("first_call", case_first_call),
         ("destroyed_stream", case_destroyed_stream), ("streams", case_streams),
         ("legacy_sync", case_legacy_sync), ("readback_sync", case_readback_sync),
         ("memsets", case_memsets), ("memory_cap", case_memory_cap),
         ("copies", case_copies), ("probes", case_probes),
         ("switch", lambda opts, check: case_memsets(opts, check, switch=True)),
         ("switch_off", case_switch_off),
         ("timing", case_timing), ("site_cache", case_site_cache),
         ("site_keys", case_site_keys),
         ("refused", case_refused)]


def main(argv):
    if len(argv) != 6:
        print(__doc__, file=sys.stderr)
        return 2
    opts = {"app": argv[1], "preload": argv[2], "fake": argv[3], "syncscope": argv[4],
            "workdir": argv[5]}
    failures = []
    for name, case in CASES:
        def check(ok, what, name=name):
            if not ok:
                failures.append(f"{name}: {what}")
            return ok
        try:
            case(opts, check)
        except (OSError, ValueError, KeyError, subprocess.TimeoutExpired) as err:
            failures.append(f"{name}: {type(err).__name__}: {err}")
    for failure in failures:
        print(f"FAIL: {failure}")
    if not failures:
        print(f"ok: {len(CASES)} cases")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
