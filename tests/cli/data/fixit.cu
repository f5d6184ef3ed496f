// fixit.cu: SYNC103 fix-its (tests/cli/fixit.sh): text, SARIF and lint --fix.
#include <cuda_runtime.h>

#define MAKE_STREAM(s) cudaStreamCreate(&(s))

__global__ void k(float *x) { x[threadIdx.x] = 1.0f; }

void streams(float *d)
{
    cudaStream_t a, b, c, e, m, u;
    cudaStreamCreate(&a);
	cudaStreamCreateWithFlags(&b, cudaStreamDefault); cudaStreamCreateWithPriority(&c, 0, -1);
    cudaStreamCreate(
        &e);
    MAKE_STREAM(m);
    /* é */ cudaStreamCreate(&u);
    k<<<1, 32, 0, a>>>(d);
}
