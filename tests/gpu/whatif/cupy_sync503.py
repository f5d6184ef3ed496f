"""cupy_sync503.py: SYNC503's framework pair and the CuPy loop of the issue that asked for
checked what-ifs (tests/gpu/whatif/README.md): each step copies a pageable NumPy array in with
cupy.asarray, runs three elementwise kernels and reads the sum back with float(). written: as
said; rewritten: pinned host buffers (cupyx.empty_pinned) and two non-blocking streams,
double-buffered: step i runs on stream i % 2, and its sum is read once that stream has finished
it, while the other stream works. Usage: whatif_pair.py's."""
import sys

import cupy
import cupyx
import numpy

from whatif_pair import main

FLOATS = 4 * 1024 * 1024  # 16 MiB of float32


def host_data():
    return numpy.random.default_rng(0).random(FLOATS, dtype=numpy.float32)


def body(d):
    d = cupy.sin(d)
    d = d * 2
    return d + 1


def written():
    host = host_data()
    seen = [0.0]

    def step(i):
        d = cupy.asarray(host)
        seen[0] += float(body(d).sum())

    def sync():
        cupy.cuda.Device().synchronize()
    return step, sync


def rewritten():
    host = host_data()
    pinned = [cupyx.empty_pinned(FLOATS, dtype=numpy.float32) for _ in range(2)]
    for p in pinned:
        p[:] = host
    device = [cupy.empty(FLOATS, dtype=cupy.float32) for _ in range(2)]
    streams = [cupy.cuda.Stream(non_blocking=True) for _ in range(2)]
    sums = [None, None]
    seen = [0.0]

    def finish(s):
        if sums[s] is not None:
            streams[s].synchronize()
            with streams[s]:
                seen[0] += float(sums[s])
            sums[s] = None

    def step(i):
        s = i % 2
        finish(s)
        with streams[s]:
            device[s].set(pinned[s], stream=streams[s])
            sums[s] = body(device[s]).sum()

    def sync():
        finish(0)
        finish(1)
        cupy.cuda.Device().synchronize()
    return step, sync


if __name__ == "__main__":
    sys.exit(main({"written": written, "rewritten": rewritten}, 40, 5))
