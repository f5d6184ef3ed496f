"""cupy_loop.py: a CuPy loop that reads a scalar back every step (float(...)) and copies a
result to the host every few steps (cupy.asnumpy). A real workload for tests/gpu/real."""
import sys

import cupy


STEPS = 40


def main():
    rng = cupy.random.default_rng(0)
    a = rng.random((512, 512), dtype=cupy.float32)
    total = 0
    for step in range(STEPS):
        b = cupy.tanh(a @ a / 512)
        if float(b.sum()) > 0:
            total += 1
        if step % 10 == 0:
            host = cupy.asnumpy(b[:4, :4])
            total += int(host.shape[0] == 4)
        a = b
    print(f"cupy: {STEPS} steps, {total} checks")
    return 0


if __name__ == "__main__":
    sys.exit(main())
