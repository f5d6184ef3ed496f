#!/usr/bin/env python3
"""gen_frees.py: one CUDA unit with many scratch buffers allocated and freed in step loops, for
lint's time on the rule that takes a free for a drain (checks/frees.c, ss_context_free_allocation;
docs/studies/performance.md, "Lint's time, session 45"): N functions, each a step loop that
allocates three buffers, launches, calls a chain of helpers of the unit (each calling the next,
DEPTH deep, and a C++ library call) between the allocations and the frees, frees the three and
waits. Every free asks whether anything between its allocation and it may switch the device, and
every call after it is asked whether the device is drained.

Usage: gen_frees.py OUT_DIR [N]   (N: 200 by default)
Writes OUT_DIR/frees.cu and OUT_DIR/compile_commands.json (plain clang flags). Deterministic."""
from unit_db import out_and_count, write_unit

DEPTH = 4

HEAD = """#include <cuda_runtime.h>
#include <vector>
__global__ void k(float *b, int n) { if (threadIdx.x < n) b[threadIdx.x] += 1.f; }
"""

HELPER = """static int helper{i}_{d}(std::vector<int> &v, int x)
{{
    v.push_back(x);
    return {call};
}}
"""

STEP = """void step{i}(float *host, int n, int steps)
{{
    std::vector<int> log;
    for (int t = 0; t < steps; ++t) {{
        float *a, *b, *c;
        cudaMalloc(&a, n * sizeof(float));
        cudaMalloc(&b, n * sizeof(float));
        cudaMalloc(&c, n * sizeof(float));
        k<<<1, 256>>>(a, n);
        helper{i}_0(log, t);
        cudaMemcpy(host, a, n * sizeof(float), cudaMemcpyDeviceToHost);
        cudaFree(a);
        cudaFree(b);
        cudaFree(c);
        cudaDeviceSynchronize();
    }}
}}
"""


def unit(n):
    parts = [HEAD]
    for i in range(n):
        for d in reversed(range(DEPTH)):
            call = "x + 1" if d == DEPTH - 1 else "helper%d_%d(v, x + 1)" % (i, d + 1)
            parts.append(HELPER.format(i=i, d=d, call=call))
        parts.append(STEP.format(i=i))
    return "".join(parts)


def main():
    out, n = out_and_count(__doc__, 200)
    write_unit(out, "frees.cu", unit(n))


if __name__ == "__main__":
    main()
