// device.cpp: Device::Finish waits for the whole device on every way out (its error check
// only prints); Device::ScrubFinish queues a memset first, then waits for the whole device;
// Device::FinishStream waits for one stream.
#include <stdio.h>
#include "device.h"
void Device::Finish()
{
    cudaError_t code = cudaDeviceSynchronize();
    if (code != cudaSuccess)
        fprintf(stderr, "device: %s\n", cudaGetErrorString(code));
}
void Device::ScrubFinish(float *p)
{
    cudaMemsetAsync(p, 0, sizeof *p);
    cudaDeviceSynchronize();
}
void Device::FinishStream(cudaStream_t stream)
{
    cudaStreamSynchronize(stream);
}
