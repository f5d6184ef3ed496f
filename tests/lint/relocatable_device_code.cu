// relocatable_device_code.cu: nvcc -rdc=true (also --relocatable-device-code=true, -dc) from
// compile_commands.json parses as clang's -fgpu-rdc: shared memory declared 'extern' with a
// class type (NCCL's device units) is no error, and the unit is analyzed.
// lint-compdb: /usr/local/cuda/bin/nvcc -x cu -rdc=true -gencode arch=compute_80,code=sm_80 -O2 -o relocatable_device_code.o -c
#include <cuda_runtime.h>

struct SharedState {
    int round;
    float partial[32];
};
extern __shared__ SharedState shared_state;
extern __device__ int launches;

__global__ void reduce(const float *x)
{
    shared_state.partial[threadIdx.x % 32] = x[threadIdx.x];
    if (threadIdx.x == 0)
        launches++;
}

void run(const float *x)
{
    reduce<<<1, 32>>>(x); // expect: SYNC101
}
