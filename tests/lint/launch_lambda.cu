// launch_lambda.cu: launches inside lambdas; a captured or parameter stream is unknown.
#include <cuda_runtime.h>

__global__ void tick(int *counter) { atomicAdd(counter, 1); }

void lambdas(int *counter, cudaStream_t s)
{
    auto on_default = [counter]() { tick<<<1, 1>>>(counter); }; // expect: SYNC101
    auto on_zero = [=]() { tick<<<1, 1, 0, nullptr>>>(counter); }; // expect: SYNC101
    auto on_param = [counter](cudaStream_t stream) { tick<<<1, 1, 0, stream>>>(counter); };
    auto on_capture = [&]() { tick<<<1, 1, 0, s>>>(counter); };
    on_default();
    on_zero();
    on_param(s);
    on_capture();
}
