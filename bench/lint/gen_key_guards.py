#!/usr/bin/env python3
"""gen_key_guards.py: one CUDA unit with many set-ups run once per constant key, for lint's time
on the rule of checks/set_up_key.c (docs/studies/performance.md, "Lint's time, session 44"):
N global sets, each tested and filled by a guard in one step loop (two guards a set, so every
set is asked about twice), and N classes, each with a member set, a guarded wait in a method,
and a step loop that calls it on an object made before the loop. Every guard asks which code of
the unit may lose its set's keys and whether the object of the set stays the same.

Usage: gen_key_guards.py OUT_DIR [N]   (N: 300 by default)
Writes OUT_DIR/guards.cu and OUT_DIR/compile_commands.json (plain clang flags). Deterministic."""
from unit_db import out_and_count, write_unit

HEAD = """#include <cuda_runtime.h>
#include <set>
__global__ void k(float *b) { b[threadIdx.x] += 1.f; }
"""

CLASS = """struct Stage{i} {{
    std::set<int> configured;
    float *buf = nullptr;
    void prepare(cudaStream_t s)
    {{
        if (!configured.count({i})) {{
            cudaStreamSynchronize(s);
            configured.insert({i});
        }}
        k<<<1, 32, 0, s>>>(buf);
    }}
}};
void run_stage{i}(cudaStream_t s, int steps)
{{
    Stage{i} st;
    for (int t = 0; t < steps; ++t)
        st.prepare(s);
}}
"""

GUARD = """        if (!g_{i}.count({j})) {{
            cudaStreamSynchronize(s);
            g_{i}.insert({j});
        }}
"""


def main():
    out, n = out_and_count(__doc__, 300)
    parts = [HEAD]
    parts += ["static std::set<int> g_%d;\n" % i for i in range(n)]
    parts += [CLASS.format(i=i) for i in range(n)]
    parts.append("void globals(float *buf, cudaStream_t s, int steps)\n{\n"
                 "    for (int t = 0; t < steps; ++t) {\n")
    parts += [GUARD.format(i=i, j=j) for i in range(n) for j in (1, 2)]
    parts.append("        k<<<1, 32, 0, s>>>(buf);\n    }\n}\n")
    write_unit(out, "guards.cu", "".join(parts))


if __name__ == "__main__":
    main()
