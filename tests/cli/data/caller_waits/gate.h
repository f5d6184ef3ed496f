// gate.h: a frame gate whose close records an event on the legacy stream and waits for it.
#include <cuda_runtime.h>
class FrameGate
{
  public:
    FrameGate()
    {
        cudaEventCreate(&end_);
    }
    int close()
    {
        int closed = 1;
        cudaEventRecord(end_, stream_);
        cudaEventSynchronize(end_);
        return closed;
    }

  private:
    cudaStream_t stream_ = nullptr;
    cudaEvent_t end_ = nullptr;
};
