// CUDAContext.h: a stand-in for ATen's header, enough for the custom-op lint test.
#pragma once
#include <cuda_runtime.h>

namespace c10
{
namespace cuda
{
class CUDAStream
{
  public:
    explicit CUDAStream(cudaStream_t s) : stream_(s)
    {
    }
    cudaStream_t stream() const
    {
        return stream_;
    }
    operator cudaStream_t() const
    {
        return stream_;
    }

  private:
    cudaStream_t stream_;
};
} // namespace cuda
} // namespace c10

namespace at
{
namespace cuda
{
using c10::cuda::CUDAStream;
CUDAStream getCurrentCUDAStream(int device = -1);
} // namespace cuda
} // namespace at
