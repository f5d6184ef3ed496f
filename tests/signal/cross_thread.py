#!/usr/bin/env python3
"""cross_thread.py: a call made on a thread without Python frames takes the stack of the Python
thread that waited for it (docs/run.md, "Work of other threads"), and a call on a helper thread
is at the line that started the thread ("Helper threads"), checked without a GPU.

  cross_thread.py SYNCSCOPE LIBSYNCSCOPE FAKE_CUPTI WORKDIR

Runs cross_thread_app.py under LD_PRELOAD=LIBSYNCSCOPE with the fake CUPTI (tests/signal), once
as is and once with SYNCSCOPE_CROSS_THREAD=0, replays each trace with `SYNCSCOPE analyze
--format json` and checks: the call on the program's own thread is at its line either way; the
call on the native thread is at the line where the program waited for it (with the waiting
function's caller as the next Python frame, both marked as another thread's in the trace) and
names its thread, or, turned off, has no Python frame and is at a native frame; the call on the
Python thread that runs only threading.py is at the line that started it (Thread.start, via
threading.py, the trace's thread_start:3 naming thread 1), or, turned off, at threading.py.
Exit status: 0 pass, 1 fail, 2 usage error.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
APP = os.path.join(HERE, "cross_thread_app.py")


def marker_lines():
    lines = {}
    with open(APP, encoding="utf-8") as handle:
        for number, text in enumerate(handle, 1):
            if "# call: " in text:
                lines[text.split("# call: ")[1].strip()] = number
    return lines


def run(syncscope, preload, fake, workdir, name, extra_env):
    folder = os.path.join(workdir, name)
    os.makedirs(folder, exist_ok=True)
    trace = os.path.join(folder, "out.sstrace")
    env = {k: v for k, v in os.environ.items() if not k.startswith("SYNCSCOPE_")}
    env.update({"LD_PRELOAD": preload, "SYNCSCOPE_CUPTI_PATH": fake, "SYNCSCOPE_TRACE": trace,
                "SYNCSCOPE_OUTPUT": os.path.join(folder, "out.json"), "SYNCSCOPE_QUIET": "1"})
    env.update(extra_env)
    done = subprocess.run([sys.executable, APP], env=env, capture_output=True, text=True,
                          timeout=60, check=False)
    if done.returncode != 0 or done.stdout != "done\n":
        return None, f"{name}: the program exited {done.returncode}: {done.stderr}"
    replay = subprocess.run([syncscope, "analyze", "--format", "json", trace],
                            capture_output=True, text=True, timeout=60, check=False)
    with open(trace, encoding="utf-8") as handle:
        records = [line.split() for line in handle]
    frames = [r for r in records if r[:1] == ["frame"]]
    meta = {r[1]: r[2] for r in records if r[:1] == ["meta"] and len(r) == 3}
    return (json.loads(replay.stdout), frames, meta), None


def main():
    if len(sys.argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    syncscope, preload, fake, workdir = sys.argv[1:]
    lines = marker_lines()
    failures = []

    got, error = run(syncscope, preload, fake, workdir, "on", {})
    if error:
        failures.append(error)
    else:
        result, frames, meta = got
        places = sorted((f.get("file"), f.get("line")) for f in result["findings"])
        want = sorted([(APP, lines["own thread"]), (APP, lines["native thread"]),
                       (APP, lines["helper started"])])
        if places != want:
            failures.append(f"on: findings at {places}, expected {want}")
        other = [f for f in frames if f[6] == "2"]
        if len(other) != 3 or [int(f[5]) for f in other] != [lines["native thread"],
                                                            lines["caller"],
                                                            lines["module"]]:
            failures.append(f"on: the other thread's frames in the trace: {other}")
        native = [f for f in result["findings"] if f.get("line") == lines["native thread"]]
        thread = (native[0].get("extra") or {}).get("thread", "") if native else ""
        if not thread.startswith("2 (") or "which runs no Python code" not in thread:
            failures.append(f"on: the finding names thread {thread!r}")
        helper = [f for f in result["findings"] if f.get("line") == lines["helper started"]]
        if helper:
            thread = (helper[0].get("extra") or {}).get("thread", "")
            via = os.path.basename(helper[0].get("via", {}).get("file") or "")
            if not (thread.startswith("3 (") and
                    thread.endswith(": started at this line (by thread 1)")):
                failures.append(f"on: the helper thread's finding names thread {thread!r}")
            if via != "threading.py":
                failures.append(f"on: the helper thread's finding is via {via!r}")
            if not helper[0]["message"].endswith(", which this line started"):
                failures.append(f"on: the helper thread's message: {helper[0]['message']!r}")
        if not meta.get("thread_start:3", "").startswith("1%20"):
            failures.append(f"on: thread_start:3 is {meta.get('thread_start:3')!r}")

    got, error = run(syncscope, preload, fake, workdir, "off", {"SYNCSCOPE_CROSS_THREAD": "0"})
    if error:
        failures.append(error)
    else:
        result, frames, meta = got
        places = [(f.get("file"), f.get("line")) for f in result["findings"]]
        in_app = [p for p in places if p[0] == APP]
        in_threading = [p for p in places if os.path.basename(p[0] or "") == "threading.py"]
        if len(places) != 3 or in_app != [(APP, lines["own thread"])] or len(in_threading) != 1:
            failures.append(f"off: findings at {places}, expected one at line "
                            f"{lines['own thread']}, one at a native frame and one in "
                            "threading.py")
        if any(f[6] == "2" for f in frames):
            failures.append("off: the trace has frames of another thread")
        if any(key.startswith("thread_start:") for key in meta):
            failures.append("off: the trace names the threads' starters")

    for failure in failures:
        print(f"FAIL: {failure}", file=sys.stderr)
    if not failures:
        print("ok: the native thread's call is at the waiting thread's line, the helper "
              "thread's at the line that started it; off: at neither")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
