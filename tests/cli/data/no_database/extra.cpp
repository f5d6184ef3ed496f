#include "kernels.h"
void hot(cudaStream_t s, unsigned *d, int steps)
{
    for (int i = 0; i < steps; i++)
        launch_x(d, s); /* nothing read after: a hot-path stall */
}
