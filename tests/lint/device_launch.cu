// device_launch.cu: calls inside device code are dynamic parallelism's, made on the device:
// a launch without a stream there goes to the launching block's own stream, not the host's
// legacy stream, and a stream used there is a device stream. Neither is a finding, and neither
// makes the host's legacy-stream launches warnings (nothing else runs on the host).
#include <cuda_runtime.h>

__global__ void child(int *p) { p[threadIdx.x] = 1; }

__device__ void spawn(int *p)
{
    child<<<1, 32>>>(p);
}

__global__ void parent(int *p, cudaStream_t s)
{
    child<<<1, 32, 0, s>>>(p);
    child<<<1, 32>>>(p);
    spawn(p);
}

__host__ __device__ void both(int *p)
{
    p[0] = 2;
}

void run(int *p)
{
    parent<<<1, 1>>>(p, 0); // expect: SYNC101 expect-severity: note
    both(p);
    cudaDeviceSynchronize();
}
