#include "kernels.h"
static unsigned *h;
static unsigned total;
void run(cudaStream_t s, int steps)
{
    cudaMallocHost((void **)&h, 64);
    for (int i = 0; i < steps; i++) {
        launch_x(h, s);
        total += h[0];
    }
}
