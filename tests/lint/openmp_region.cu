// openmp_region.cu: the code inside OpenMP directives is analyzed when the compile command
// turns OpenMP on (here through nvcc's -Xcompiler -fopenmp): the directives are read as plain
// pragmas, _OPENMP is defined as clang 16 defines it for -fopenmp, and <omp.h> parses whether
// clang's own omp.h is installed or not.
// lint-compdb: /usr/local/cuda/bin/nvcc -x cu -Xcompiler -fopenmp,-O2 -O2 -c
#include <cuda_runtime.h>
#include <omp.h>

__global__ void scale(float *p, int n) { p[threadIdx.x % n] *= 2.0f; }

void per_device(float **dev, float **host, int devices, size_t bytes, int rounds)
{
    for (int round = 0; round < rounds; round++) {
#pragma omp parallel for num_threads(devices)
        for (int d = 0; d < devices; d++) {
            cudaSetDevice(omp_get_thread_num());
            scale<<<1, 32>>>(dev[d], 32); // expect: SYNC101
            cudaMemcpy(host[d], dev[d], bytes, cudaMemcpyDeviceToHost); // expect: SYNC202
            cudaDeviceSynchronize();                                    // expect: SYNC401
        }
    }
}

float first_value(float *dev)
{
    float value = 0.0f;
#pragma omp parallel
    {
#pragma omp single
        {
            scale<<<1, 32>>>(dev, 1);                                      // expect: SYNC101
            cudaMemcpy(&value, dev, sizeof value, cudaMemcpyDeviceToHost); // expect: SYNC301
        }
    }
    return value;
}

#if defined(_OPENMP) && _OPENMP == 201811
void with_openmp(float *dev)
{
    scale<<<1, 32>>>(dev, 1); // expect: SYNC101
}
#else
void without_openmp(float *dev)
{
    scale<<<1, 32>>>(dev, 1);
}
#endif
