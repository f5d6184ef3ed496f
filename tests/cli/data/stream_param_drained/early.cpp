// early.cpp: the same bodies' streams, with legacy-stream work (Step) before the wait.
#include "kernels.h"

void MoveEarly(float **parts, cudaStream_t *streams, unsigned bodies, unsigned n)
{
    for (unsigned b = 0; b < bodies; b++) {
        cudaStream_t stm = streams[b];
        Update(parts[b], n, stm);
    }
    Step(parts[0], n);
    cudaDeviceSynchronize();
}
