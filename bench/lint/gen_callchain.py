#!/usr/bin/env python3
"""gen_callchain.py: one CUDA unit of N host functions that call one another, for lint's time on
a unit whose functions are followed into each other (docs/studies/performance.md, "Lint's time,
session 37"). Each function copies to the device and back, waits, checks every call through a
function the unit only declares (as NVIDIA warp's check_cuda does), and calls the six before
it: every copy and wait is a question that follows those calls three levels down.

Usage: gen_callchain.py OUT_DIR [N]   (N: 60 by default)
Writes OUT_DIR/chain.cu and OUT_DIR/compile_commands.json (plain clang flags). Deterministic."""
import json
import os
import sys

HEAD = """#include <cuda_runtime.h>
bool check_result(cudaError_t code, const char *func, int line);
#define check(call) check_result((call), __func__, __LINE__)
__global__ void scale(float *p, int n) { int i = threadIdx.x; if (i < n) p[i] *= 2.0f; }
"""

FANOUT = 6  # the functions before it that each calls

BODY = """static bool step{i}(float *dev, float *host, int n)
{{
    if (!check(cudaMemcpy(dev, host, n * sizeof(float), cudaMemcpyHostToDevice)))
        return false;
    scale<<<1, 256>>>(dev, n);
{calls}    check(cudaDeviceSynchronize());
    if (!check(cudaMemcpy(host, dev, n * sizeof(float), cudaMemcpyDeviceToHost)))
        return false;
    return host[0] > 0.0f;
}}
"""


def unit(n):
    parts = [HEAD]
    for i in range(n):
        calls = "".join(f"    if (!step{j}(dev, host, n))\n        return false;\n"
                        for j in range(max(0, i - FANOUT), i))
        parts.append(BODY.format(i=i, calls=calls))
    parts.append(f"int main()\n{{\n    float *dev = nullptr, host[256] = {{1.0f}};\n"
                 f"    check(cudaMalloc(&dev, sizeof host));\n"
                 f"    for (int r = 0; r < 10; r++)\n        step{n - 1}(dev, host, 256);\n"
                 f"    check(cudaFree(dev));\n    return 0;\n}}\n")
    return "".join(parts)


def main(argv):
    if len(argv) not in (2, 3) or argv[1] in ("-h", "--help"):
        print(__doc__, file=sys.stderr)
        return 2
    out, n = os.path.abspath(argv[1]), int(argv[2]) if len(argv) == 3 else 60
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "chain.cu"), "w") as f:
        f.write(unit(n))
    db = [{"directory": out, "file": os.path.join(out, "chain.cu"),
           "arguments": ["clang++", "-std=c++17", "-c", "chain.cu"]}]
    with open(os.path.join(out, "compile_commands.json"), "w") as f:
        json.dump(db, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
