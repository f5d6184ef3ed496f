#include "kernels.h"

static cudaStream_t streams[4];
static unsigned nstreams;

void Init(unsigned bodies)
{
    nstreams = bodies > 1 ? (bodies < 4 ? bodies : 4) : 0;
    for (unsigned c = 0; c < nstreams; c++)
        cudaStreamCreate(streams + c);
}

void MoveBodies(float **parts, unsigned bodies, unsigned n)
{
    for (unsigned b = 0; b < bodies; b++) {
        const float r = Radius(b);
        cudaStream_t stm = (nstreams ? streams[b % nstreams] : NULL);
        Update(parts[b], r > 0.0f ? n : 0, stm);
    }
    if (nstreams)
        cudaDeviceSynchronize();
}

void Run(float **parts, unsigned bodies, unsigned n, int steps)
{
    for (int s = 0; s < steps; s++) {
        Update(parts[0], n);
        MoveBodies(parts, bodies, n);
        Step(parts[0], n);
    }
}
