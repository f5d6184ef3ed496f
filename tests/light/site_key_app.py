"""site_key_app.py: the observed program of run_light.py's case site_keys, and the cost bench of
the light mode's Python site keys (docs/studies/performance.md, issue 28). Through the fake CUPTI
that libsyncscope.so loaded, it makes "CUDA calls" (cudaStreamSynchronize) from inside a library
(a module it writes under a site-packages folder) reached from the program's own lines, beneath
OUTER frames of the program's own code (as a harness, runpy or a training loop's frames lie
beneath a real program's calls).

  python3 site_key_app.py N OUTER INNER     N calls in turn from four lines, INNER library
                                            frames deep, OUTER program frames beneath

Without N (the test): the calls run at shapes that decide how far the frame walk reads: a site
whose library frames are fewer than the walk's depth (8), one whose library frames are more
(the walk goes on to the program's frame past them), both from two lines and from beneath two
depths of program frames, and the same function at the same library depth called from two
program lines that only the frame past the depth tells apart. Prints the wall time per call."""
import ctypes
import os
import sys
import tempfile
import time

LIBRARY = '''
def call(fake, name, depth):
    if depth > 1:
        return call(fake, name, depth - 1)
    return fake.fake_cupti_call(name)  # library: the call
'''

fake = ctypes.CDLL(os.environ["SYNCSCOPE_CUPTI_PATH"])
CALL = ctypes.c_char_p(b"cudaStreamSynchronize_v3020")
fake.fake_cupti_set_call_ns(ctypes.c_long(0))

folder = tempfile.mkdtemp(prefix="site_key_app.")
os.makedirs(os.path.join(folder, "site-packages"))
with open(os.path.join(folder, "site-packages", "sitekeylib.py"), "w", encoding="utf-8") as out:
    out.write(LIBRARY)
sys.path.insert(0, os.path.join(folder, "site-packages"))
import sitekeylib  # noqa: E402  (written just now)


def first(depth):
    sitekeylib.call(fake, CALL, depth)  # site: first


def second(depth):
    sitekeylib.call(fake, CALL, depth)  # site: second


def third(depth):
    sitekeylib.call(fake, CALL, depth)  # site: third


def fourth(depth):
    sitekeylib.call(fake, CALL, depth)  # site: fourth


def beneath(outer, work):
    """Runs 'work' beneath 'outer' more frames of the program's own code."""
    if outer > 0:
        return beneath(outer - 1, work)
    return work()


def bench(n, outer, inner):
    sites = (first, second, third, fourth)

    # SITE_KEY_APP_EVICT_KB: that many KiB of other memory touched before each call (a real
    # program's work between its CUDA calls), so that the frames' lines are no longer cached.
    evict = bytearray(int(os.environ.get("SITE_KEY_APP_EVICT_KB", "0")) * 1024)

    def work():
        spent = 0
        for i in range(n):
            if evict:
                evict[::64] = bytes(len(evict[::64]))
            began = time.perf_counter_ns()
            sites[i % 4](inner)
            spent += time.perf_counter_ns() - began
        return spent

    spent = beneath(outer, work)
    print(f"site_key_app: {n} calls, {spent / 1000 / max(n, 1):.2f} us each")


def shapes():
    for outer in (2, 12):
        def work():
            for _ in range(3):
                first(3)       # 3 library frames: the walk keeps 8 and stops
                second(3)
                first(12)      # 12: the walk goes past 8 to the program's frame
                second(12)
                third(7)       # the program's frame is the 8th kept
                fourth(8)      # the program's frame is the 9th: past the depth
        beneath(outer, work)
    print("site_key_app: done")


if len(sys.argv) > 1:
    bench(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]))
else:
    shapes()
