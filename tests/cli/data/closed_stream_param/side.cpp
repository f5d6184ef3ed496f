#include <cuda_runtime.h>

void CellList(cudaStream_t &stream, int n, int *c);

void Overlap(int n, int *c)
{
    cudaStream_t side;
    cudaStreamCreate(&side);
    CellList(side, n, c);
}
