// The host side: the step loop calls the other unit's functions; STREAM is the stream they get.
#include <cuda_runtime.h>

void launch_step(float *v, int n, cudaStream_t s);
int count_alive(int *d, float *v, int n, cudaStream_t s);
void relax(float *v, int n, cudaStream_t s);

#ifndef STREAM
#define STREAM created
#endif

int run(float *v, int *d, int n, int steps)
{
    cudaStream_t created;
    cudaStreamCreate(&created);
    int alive = 0;
    for (int i = 0; i < steps; i++) {
        launch_step(v, n, STREAM);
        alive += count_alive(d, v, n, STREAM);
        relax(v, n, STREAM);
    }
    return alive;
}
