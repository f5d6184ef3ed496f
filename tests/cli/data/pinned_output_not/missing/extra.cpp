#include "kernels.h" /* the database's entry lacks -Isrc/gpu: not found, so launch_x is undeclared here */
void hot(cudaStream_t s, unsigned *d, int steps)
{
    for (int i = 0; i < steps; i++)
        launch_x(d, s); /* nothing read after: a hot-path stall */
}
