// dead_branch.cu: a call in a branch that never runs, because its condition is always false (a
// 'const bool' whose initializer ends '&& false', a switch left off by its author; 'if (0)'),
// runs nowhere: a note, in a loop or not. A condition that can be true keeps the severity.
#include <cuda_runtime.h>
#include <vector>

__global__ void gemm(float *d) { d[threadIdx.x] *= 2.0f; }

bool can_fuse(int m);

void forward(float **d_ptrs, float *d, int m, int layers, cudaStream_t s)
{
    for (int l = 0; l < layers; l++) {
        const bool batched = can_fuse(m) && (m > 4) && false; // disable this
        if (batched) {
            std::vector<float *> h_ptrs(m, d);
            cudaMemcpyAsync(d_ptrs, h_ptrs.data(), m * sizeof(float *), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: note expect-message: dead: the branch at line 15 never runs: its condition 'batched' is always false (line 14)
        } else {
            gemm<<<1, 32, 0, s>>>(d);
        }
        const bool split = can_fuse(m) && (m > 4);
        if (split) {
            std::vector<float *> h_ptrs(m, d);
            cudaMemcpyAsync(d_ptrs, h_ptrs.data(), m * sizeof(float *), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: warning
        }
    }
}

void upload(float **d_ptrs, float *d, int m, cudaStream_t s)
{
    if (0) {
        std::vector<float *> h_ptrs(m, d);
        cudaMemcpyAsync(d_ptrs, h_ptrs.data(), m * sizeof(float *), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: note expect-message: dead: the branch at line 31 never runs: its condition '0' is always false
    }
    gemm<<<1, 32, 0, s>>>(d);
}
