#!/usr/bin/env python3
"""fake_app.py: stand-ins for the dry run of run_lifecycle.py on a machine without a GPU.

  fake_app.py syncscope run|analyze ...   `syncscope run` as the real one does it (set the
                                          variables, put the library in front of LD_PRELOAD,
                                          exec); `analyze` is handed to the real syncscope
  fake_app.py program NAME [ARGS]         behaves like tests/gpu/lifecycle/NAME.cu (stdout,
                                          exit status or signal, fork) and, when the fake
                                          library is preloaded, writes what syncscope would:
                                          a synthetic trace with the program's marked calls and
                                          the JSON result of the real `syncscope analyze` of it

Environment: FAKE_ROOT (the repository), FAKE_LIB and FAKE_FLOOR (the library paths that
stand for libsyncscope.so and the CUPTI floor), REAL_SYNCSCOPE, and FAKE_FAULT: one deviation
from the promised behaviour, which the runner must catch (dry_run.py lists them).
"""
import os
import re
import signal
import subprocess
import sys

STEP_ASIDE = ("syncscope: another CUPTI client is already subscribed; "
              "the program runs unobserved")
MARKER = re.compile(r"/\* syncscope: (SYNC[0-9]{3}) \*/")
FAULT = os.environ.get("FAKE_FAULT", "")


def fake_syncscope(argv):
    if argv and argv[0] == "run":
        i = 1
        while i < len(argv) and argv[i] != "--":
            name = {"-o": "SYNCSCOPE_OUTPUT", "--trace": "SYNCSCOPE_TRACE",
                    "--mode": "SYNCSCOPE_MODE"}[argv[i]]
            os.environ[name] = argv[i + 1]
            i += 2
        old = os.environ.get("LD_PRELOAD", "")
        os.environ["LD_PRELOAD"] = os.environ["FAKE_LIB"] + (":" + old if old else "")
        os.execvp(argv[i + 1], argv[i + 1:])
    os.execv(os.environ["REAL_SYNCSCOPE"], [os.environ["REAL_SYNCSCOPE"]] + argv)


def marked(program, role=""):
    """(rule, absolute file, line) of every marker in the program's source that the
    expectation file of its role lists (<program>.expect, the process the runner starts; with
    'role', <program>.<role>.expect): a marker of another role (the forked child's, seen in
    the light mode) is not the parent's."""
    folder = os.path.join(os.environ["FAKE_ROOT"], "tests/gpu/lifecycle")
    path = os.path.join(folder, program + ".cu")
    expect = program + (f".{role}" if role else "") + ".expect"
    with open(os.path.join(folder, expect), encoding="utf-8") as handle:
        listed = {(words[0], int(words[2])) for words in (line.split() for line in handle)
                  if len(words) == 4 and not words[0].startswith("#")}
    with open(path, encoding="utf-8") as handle:
        return [(rule, path, n) for n, text in enumerate(handle, 1)
                for rule in MARKER.findall(text) if (rule, n) in listed]


def escape(text):
    if text == "":
        return "-"
    out = "".join(c if 0x21 <= ord(c) <= 0x7e and c != "%" else f"%{ord(c):02X}" for c in text)
    return "%2D" if out == "-" else out


# The light mode's api flags (evlog/evlog.h): the memory kinds known, the call probed, the
# work pending at its entry complete at its exit; the kinds pageable 1, device 3.
MEM_KNOWN, PROBED, WAITED = 0x80000000, 0x40000000, 0x20000000


def trace_text(pid, forked, sites, gpu=True, light=False):
    """A trace in which each (rule, file, line, count) site happened 'count' times; 'light':
    as the light mode records it (no launch, no GPU record, what the driver said in the
    calls' flags)."""
    strings, defs, events, stacks = {}, [], [], [0]

    def s(text):
        if text not in strings:
            strings[text] = len(strings) + 1
            defs.append(f"str {strings[text]} {escape(text)}")
        return strings[text]

    def stack(api, file, line):
        frames = [(api, "cudart.cpp", "/usr/local/cuda/lib64/libcudart.so.13", 10),
                  ("main", file, "/build/fake_program", line)]
        ids = [(s(f), s(p), s(m), n) for f, p, m, n in frames]
        stacks[0] += 1
        defs.append(f"stack {stacks[0]} {len(ids)}")
        defs.extend(f"frame {4096 + i} {f} {p} {m} {n} 0" for i, (f, p, m, n) in enumerate(ids))
        return stacks[0]

    def api(name, enter, exit_, corr, stream, stream_id, nbytes, kind, stack_id, thread=1,
            flags=0):
        if light and name.startswith("cudaLaunch"):
            return
        events.append(f"api {enter} {exit_} {thread} {corr} {s(name)} {stream} {stream_id} 0 "
                      f"{nbytes} {kind} {flags if light else 0} 0 0 0 0 {stack_id}")

    def op(record, start, end, corr, stream_id, name, nbytes, kind, src, dst):
        if gpu and (not light or FAULT == "light_gpu"):
            events.append(f"{record} {start} {end} {corr} {stream_id} 1 0 {name} {nbytes} "
                          f"{kind} {src} {dst} 0")

    t, corr = 1_000_000_000, 1
    for rule, file, line, count in sites:
        for i in range(count):
            if rule == "SYNC301":
                api("cudaLaunchKernel_v7000", t, t + 5000, corr, 0, 7, 0, -1, 0)
                op("kernel", t + 10000, t + 510000, corr, 7, s("spin_kernel"), 0, 0, 0, 0)
                api("cudaMemcpy_v3020", t + 20000, t + 515000, corr + 1, 0, 7, 4, 2,
                    stack("cudaMemcpy", file, line),
                    flags=MEM_KNOWN | PROBED | WAITED | 3 << 8 | 1)
                op("memcpy", t + 511000, t + 512000, corr + 1, 7, 0, 4, 2, 3, 1)
            else:  # SYNC201: a pageable HtoD cudaMemcpyAsync on a stream of its own thread
                api("cudaMemcpyAsync_v3020", t, t + 300000, corr, 4096 + i, 13 + i, 4 << 20, 1,
                    stack("cudaMemcpyAsync", file, line), thread=i + 1,
                    flags=MEM_KNOWN | PROBED | 1 << 8 | 3)
                op("memcpy", t + 10000, t + 290000, corr, 13 + i, 0, 4 << 20, 1, 1, 3)
            t += 1_000_000
            corr += 2
    meta = ["SSTRACE 1 0", f"meta pid {pid}", "meta program fake_program"]
    if forked:
        meta.append("meta forked 1")
    if light and FAULT != "light_meta":
        meta.append("meta mode light")
    end = f"end {len(events)} {len(strings) + 1} {stacks[0] + 1}"
    return "\n".join(meta + defs + events + [end]) + "\n"


def write_outputs(program, forked=False):
    """What the interposer writes at the end of an observed process."""
    pid = os.getpid()
    light = os.environ.get("SYNCSCOPE_MODE") == "light"
    sites = [(rule, path, line, 32 if rule == "SYNC201" else 1)
             for rule, path, line in marked(program)]
    if forked and light:
        # The light mode needs no GPU record: the child's readback is seen (its own
        # expectation, <program>.child.light.expect).
        sites = [(rule, path, line, 1) for rule, path, line in marked(program, "child.light")]
        child_calls = trace_text(pid, True, [], light=True)
    elif forked:
        sites = sites if FAULT == "child_finding" else []
        # The child's API calls are recorded; its GPU activity is not (docs/run.md).
        child_calls = trace_text(pid, True, [("SYNC301", "/dev/null", 1, 1)],
                                 gpu=FAULT == "child_gpu")
    if FAULT == "line":
        sites = [(r, p, n + 1, c) for r, p, n, c in sites]
    if FAULT == "count":
        sites = [(r, p, n, c + 1) for r, p, n, c in sites]
    json_path = os.environ.get("SYNCSCOPE_OUTPUT", "syncscope-%p.json").replace("%p", str(pid))
    trace_path = os.environ.get("SYNCSCOPE_TRACE", "").replace("%p", str(pid))
    meta_pid = pid + 1 if FAULT == "pid" else pid
    text = child_calls if forked and not sites else trace_text(meta_pid, forked, sites,
                                                              light=light)
    if trace_path and FAULT != "notrace":
        with open(trace_path, "w", encoding="ascii") as handle:
            handle.write(text)
    scratch = json_path + ".trace"
    with open(scratch, "w", encoding="ascii") as handle:
        handle.write(trace_text(meta_pid, forked, sites + [("SYNC301", "/x.cu", 9, 1)],
                                light=light) if FAULT == "replay" else text)
    tool_env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    subprocess.run([os.environ["REAL_SYNCSCOPE"], "analyze", "--format", "json", "--fail-on",
                    "none", "-o", json_path, scratch], env=tool_env, check=True)
    if FAULT == "tempfile":
        os.rename(scratch, os.path.join(os.path.dirname(json_path),
                                        "." + os.path.basename(json_path) + ".Xq3ab9"))
    else:
        os.remove(scratch)
    print(f"syncscope: results: {json_path}", file=sys.stderr, flush=True)


def preloaded():
    """Who observes: 'syncscope', 'floor', 'both-floor' (floor subscribed first) or None."""
    entries = [e for e in re.split(r"[: ]+", os.environ.get("LD_PRELOAD", "")) if e]
    lib, floor = os.environ["FAKE_LIB"], os.environ["FAKE_FLOOR"]
    if lib in entries and floor in entries:
        # The loader runs the constructor of the last-listed library first.
        floor_first = entries.index(floor) > entries.index(lib)
        if FAULT == "order":
            floor_first = not floor_first
        if not floor_first:
            print("cupti_floor: cuptiSubscribe failed; the program runs without it",
                  file=sys.stderr, flush=True)
            return "syncscope"
        print(STEP_ASIDE, file=sys.stderr, flush=True)
        if FAULT == "twice":
            print(STEP_ASIDE, file=sys.stderr, flush=True)
        return "syncscope" if FAULT == "writes" else "both-floor"
    if floor in entries:
        return "floor"
    return "syncscope" if lib in entries else None


def out(text):
    sys.stdout.write(text)
    sys.stdout.flush()


def fake_program(name, args):
    who = preloaded()
    observed = who == "syncscope"
    if observed and FAULT == "nooutput":
        observed = False
    if observed and FAULT == "stdout":
        out("syncscope was here\n")

    def finish(status):
        if observed:
            write_outputs(name)
        if who in ("floor", "both-floor") and os.environ.get("SYNCSCOPE_BENCH_FLOOR_VERBOSE"):
            print("cupti_floor: 9 records in 1 buffers", file=sys.stderr, flush=True)
        sys.exit(status)

    if name == "lifecycle_signal":
        mode = args[0]
        out("readback 1\n" if FAULT != "bare_stdout" else "readback 7\n")
        if mode == "exit":
            out("result 2\n")
            finish(0)
        if mode == "malloc":
            out("raising SIGTERM in a malloc loop\n")
        else:
            out(f"raising {'SIGINT' if mode == 'int' else 'SIGTERM'}\n")
        if mode == "handler":
            out("handler: SIGTERM, exit(5)\n")
            finish(5)
        if observed:
            write_outputs(name)
            if FAULT == "status":
                sys.exit(0)
        os.kill(os.getpid(), signal.SIGINT if mode == "int" else signal.SIGTERM)
        sys.exit(1)
    if name == "lifecycle_thread_exit":
        out("readback 1\nworker calls exit(3)\n")
        finish(3)
    if name == "lifecycle_threads":
        out("result 32560\n")
        finish(0)
    if name == "lifecycle_fork":
        child = os.fork()
        if child == 0:
            print(f"fork: child pid {os.getpid()}", file=sys.stderr, flush=True)
            out("child readback 1\nresult 2\n")
            if observed:
                write_outputs(name, forked=True)
            os._exit(0)
        _, status = os.waitpid(child, 0)
        out(f"child exited {os.waitstatus_to_exitcode(status)}\nparent readback 2\nresult 4\n")
        finish(0)
    print(f"fake_app: unknown program {name}", file=sys.stderr)
    sys.exit(2)


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "syncscope":
        fake_syncscope(sys.argv[2:])
    elif len(sys.argv) >= 3 and sys.argv[1] == "program":
        fake_program(sys.argv[2], sys.argv[3:])
    print(__doc__, file=sys.stderr)
    sys.exit(2)
