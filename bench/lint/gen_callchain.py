#!/usr/bin/env python3
"""gen_callchain.py: one CUDA unit of N host functions that call one another, for lint's time on
a unit whose functions are followed into each other (docs/studies/performance.md, "Lint's time,
session 37"). Each function copies to the device and back, waits, checks every call through a
function the unit only declares (as NVIDIA warp's check_cuda does), and calls the six before
it: every copy and wait is a question that follows those calls three levels down.

With --bookkeeping K (session 38), each function also does K statements of host bookkeeping
before its wait and calls, in a loop of two rounds around the wait, a host-only function of K
statements that calls the two before it (warp.cu's logging and bookkeeping helpers): every flow
through a function reads its long block again, and meets such helpers at its depth limit,
asking whether each queues device work.

Usage: gen_callchain.py OUT_DIR [N] [--bookkeeping K]   (N: 60 by default; K: 0, none)
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


# A host-only helper of K statements calling the two before it (--bookkeeping).
TALLY = """static float tally{i}(const float *host, int n)
{{
    float sum = 0.0f;
{lines}{calls}    return sum;
}}
"""

# The wait of a step with --bookkeeping: in a loop, beside a call of its tally.
LOOPED_WAIT = """    for (int r = 0; r < 2; r++) {{
        host[1] = tally{i}(host, n);
        check(cudaDeviceSynchronize());
    }}
"""


def tally(i, k):
    lines = "".join(f"    sum += host[{j % 8}] * {j + 1}.0f;\n" for j in range(k))
    calls = "".join(f"    sum += tally{j}(host, n);\n" for j in range(max(0, i - 2), i))
    return TALLY.format(i=i, lines=lines, calls=calls)


def unit(n, k=0):
    parts = [HEAD]
    for i in range(n):
        calls = "".join(f"    if (!step{j}(dev, host, n))\n        return false;\n"
                        for j in range(max(0, i - FANOUT), i))
        body = BODY.format(i=i, calls=calls)
        if k > 0:
            parts.append(tally(i, k))
            book = "".join(f"    host[{j % 8}] += {j + 1}.0f;\n" for j in range(k))
            body = body.replace("    check(cudaDeviceSynchronize());\n",
                                book + LOOPED_WAIT.format(i=i))
        parts.append(body)
    parts.append(f"int main()\n{{\n    float *dev = nullptr, host[256] = {{1.0f}};\n"
                 f"    check(cudaMalloc(&dev, sizeof host));\n"
                 f"    for (int r = 0; r < 10; r++)\n        step{n - 1}(dev, host, 256);\n"
                 f"    check(cudaFree(dev));\n    return 0;\n}}\n")
    return "".join(parts)


def count(word):
    """'word' as a count (a non-negative integer), or None."""
    return int(word) if word.isdigit() else None


def main(argv):
    args, k = argv[1:], 0
    if "--bookkeeping" in args:
        at = args.index("--bookkeeping")
        k = count(args[at + 1]) if at + 1 < len(args) else None
        if k is None:
            print(__doc__, file=sys.stderr)
            return 2
        del args[at:at + 2]
    n = count(args[1]) if len(args) == 2 else 60
    if len(args) not in (1, 2) or args[0] in ("-h", "--help") or n is None:
        print(__doc__, file=sys.stderr)
        return 2
    out = os.path.abspath(args[0])
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "chain.cu"), "w") as f:
        f.write(unit(n, k))
    db = [{"directory": out, "file": os.path.join(out, "chain.cu"),
           "arguments": ["clang++", "-std=c++17", "-c", "chain.cu"]}]
    with open(os.path.join(out, "compile_commands.json"), "w") as f:
        json.dump(db, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
