// device.h: the project's device helpers, defined in device.cpp.
#include <cuda_runtime.h>
struct Device {
    static void Finish();
    static void ScrubFinish(float *p);
    static void FinishStream(cudaStream_t stream);
};
