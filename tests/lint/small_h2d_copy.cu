// small_h2d_copy.cu: a copy to the device of a few bytes from pageable memory (a step index on
// the host's stack, a small struct of parameters) is staged by the driver at once, up to
// 64 KiB, and the call returns without waiting for the work queued before it: a note on every
// iteration too. A larger copy, one whose size is not a constant, and a copy back to the host
// (which waits for the work before it) stay warnings.
#include <cuda_runtime.h>

struct Params {
    float scale;
    int count;
};

__global__ void update(float *x, const long long *step, const Params *p)
{
    x[threadIdx.x] += (float)*step * p->scale;
}

void simulate(float *d_x, long long *d_step, Params *d_params, float *h_x, int n, long long steps)
{
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    for (long long it = 0; it < steps; it++) {
        update<<<1, 256, 0, s>>>(d_x, d_step, d_params);
        long long idx = it + 1;
        cudaMemcpyAsync(d_step, &idx, sizeof(long long), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: note expect-message: small: a copy of 8 bytes ('sizeof(long long)') to the device from pageable memory is staged at once
        Params p = {0.5f, n};
        cudaMemcpyAsync(d_params, &p, sizeof p, cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: note
        float table[32768];
        table[0] = (float)it;
        cudaMemcpyAsync(d_x, table, sizeof table, cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: warning
        float row[64];
        row[0] = (float)it;
        cudaMemcpyAsync(d_x, row, n * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: warning
        float back[64];
        cudaMemcpyAsync(back, d_x, sizeof back, cudaMemcpyDeviceToHost, s); // expect: SYNC201 expect-severity: warning
        h_x[it % n] = back[0];
    }
    cudaStreamDestroy(s);
}
