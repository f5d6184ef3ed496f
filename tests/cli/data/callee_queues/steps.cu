// steps.cu: a loop per helper of waits.cu (and of soft.cu, firm.cu), each with its own wait
// for the whole device before the helper's call.
#include <cuda_runtime.h>
void report_then_settle(int step);
void copy_back_then_settle(float *d, float *h, int n);
void stage_then_settle_clear(float *d, int n);
void launch_settle_settle(float *d, int n);
void soften(float *d, int n);
__global__ void relax(float *d, int n) { d[threadIdx.x % n] *= 0.5f; }
void iterate(float *d, float *h, int n, int steps)
{
    for (int s = 0; s < steps; s++) {
        relax<<<1, 64>>>(d, n);
        cudaDeviceSynchronize();
        report_then_settle(s);
    }
    for (int s = 0; s < steps; s++) {
        relax<<<1, 64>>>(d, n);
        cudaDeviceSynchronize();
        copy_back_then_settle(d, h, n);
    }
    for (int s = 0; s < steps; s++) {
        relax<<<1, 64>>>(d, n);
        cudaDeviceSynchronize();
        stage_then_settle_clear(d, n);
    }
    for (int s = 0; s < steps; s++) {
        relax<<<1, 64>>>(d, n);
        cudaDeviceSynchronize();
        launch_settle_settle(d, n);
    }
    for (int s = 0; s < steps; s++) {
        relax<<<1, 64>>>(d, n);
        cudaDeviceSynchronize();
        soften(d, n);
    }
}
