// openmp_version.cpp: OpenMP turned on by clang's -fopenmp=libomp with an OpenMP version, and
// -fopenmp-simd: the code inside the directives is analyzed, and _OPENMP has the value clang 16
// gives OpenMP 4.5.
// lint-compdb: clang++ -fopenmp=libomp -fopenmp-version=45 -fopenmp-simd -c
#include <cuda_runtime.h>

#include <omp.h>

void drain(float **host, float **dev, cudaStream_t *streams, int n, size_t bytes)
{
    omp_set_num_threads(n);
#pragma omp parallel for simd
    for (int i = 0; i < n; i++) {
        cudaMemcpyAsync(dev[i], host[i], bytes, cudaMemcpyHostToDevice, streams[i]);
        cudaStreamSynchronize(streams[i]); // expect: SYNC401
    }
#pragma omp parallel sections
    {
#pragma omp section
        for (int i = 0; i < n; i++) {
            cudaMemsetAsync(dev[i], 0, bytes, streams[i]);
            cudaFree(dev[i]); // expect: SYNC402
        }
    }
}

#if _OPENMP == 201511
int read_back(const int *dev)
{
    int value;
#pragma omp critical
    cudaMemcpy(&value, dev, sizeof value, cudaMemcpyDeviceToHost); // expect: SYNC301
    return value;
}
#endif
