// device_guard.h: a library's device helpers, as a system header gives them (free_drains.cu).
#pragma GCC system_header
#include <cuda_runtime.h>
namespace gpulib
{
void SetDevice(int device); // defined in the library: its name says it sets the device
struct DeviceGuard {        // switches in its constructor, defined here
    int previous;
    explicit DeviceGuard(int device)
    {
        cudaGetDevice(&previous);
        cudaSetDevice(device);
    }
};
} // namespace gpulib
