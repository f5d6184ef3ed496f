// grid.cu: each function launches kernels and waits through device.cpp's helpers, which this
// unit only declares.
#include "device.h"
#include "grid.h"
__global__ void bin(float *p, int n) { p[0] += n; }
__global__ void gather(float *p, int n) { p[0] -= n; }
void Grid::InitBins(float *p, int n)
{
    bin<<<n / 256 + 1, 256>>>(p, n);
    Device::Finish();
}
void Grid::rebuild(float *p, int n)
{
    bin<<<n / 256 + 1, 256>>>(p, n);
    Device::Finish();
    gather<<<n / 256 + 1, 256>>>(p, n);
    Device::Finish();
}
void Grid::query(float *p, int n, cudaStream_t stream)
{
    gather<<<n / 256 + 1, 256, 0, stream>>>(p, n);
    Device::FinishStream(stream);
}
void Grid::prefetch(float *p, int n)
{
    Device::Finish();
    bin<<<n / 256 + 1, 256>>>(p, n);
}
void Grid::summary(float *p, int n)
{
    gather<<<1, 1>>>(p, n);
    Device::Finish();
}
void Grid::scrubbed(float *p, int n)
{
    Device::ScrubFinish(p);
    bin<<<n / 256 + 1, 256>>>(p, n);
}
