#include "kernels.h"

void ForcesOn(float *ar, unsigned n)
{
    cudaStream_t side;
    cudaStreamCreate(&side);
    Forces(Params(ar, n, side));
}
