// legacy_other_branch_throw.cu: a function of the unit called between the stream's work and
// the wait throws; the caller catches and runs the legacy branch while the stream's work is
// still queued. A unit with a 'throw' or a 'try' keeps the warning.
#include <cuda_runtime.h>

#include <stdexcept>
__global__ void step(float *x, int t) { x[threadIdx.x] += t; }
__global__ void step1(float *x, int t) { x[threadIdx.x] *= t; }

static void check(cudaError_t e)
{
    if (e != cudaSuccess)
        throw std::runtime_error("cuda");
}

void run_steps(float *x, int tmax, bool coop)
{
    if (coop) {
        for (int t = 0; t < tmax; t++)
            step<<<1, 32>>>(x, t); // expect: SYNC101 expect-severity: warning
    } else {
        cudaStream_t s;
        cudaStreamCreate(&s); // expect: SYNC103 expect-severity: note
        for (int t = 0; t < tmax; t++) {
            step1<<<1, 32, 0, s>>>(x, t);
            check(cudaGetLastError());
        }
        cudaStreamDestroy(s);
    }
    cudaDeviceSynchronize();
}

void solve(float *x, int tmax)
{
    try {
        run_steps(x, tmax, false);
    } catch (const std::exception &) {
        run_steps(x, tmax, true);
    }
}
