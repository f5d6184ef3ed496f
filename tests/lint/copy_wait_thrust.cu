// copy_wait_thrust.cu: copy_wait_closed.cu's waits next to 'thrust::copy' from a device range to
// the host, which Thrust runs as a copy on its default stream (the legacy one here) and a wait
// for that stream before it returns: a synchronous copy to the host, in a unit whose work all
// goes to the legacy stream (Thrust's own calls are known code). A device-wide wait right
// before one, or right after one with nothing queued since, is a note; a copy to the device
// before the wait, or one within the device after it, keeps the warning.
// lint-args: -std=c++17
#include <cuda_runtime.h>
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <vector>

__global__ void fill(float *d) { d[threadIdx.x] = 1.0f; }

void wait_then_copy(float *d, thrust::device_vector<float> &dev, std::vector<float> &host, int levels)
{
    for (int l = levels; l >= 0; --l) {
        fill<<<1, 32>>>(d); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained anyway: the next statement, 'thrust::copy' (line 20), a synchr
        thrust::copy(dev.begin(), dev.end(), host.begin());
    }
}

void copy_then_wait(float *d, thrust::device_vector<float> &dev, std::vector<float> &host, int levels)
{
    for (int l = levels; l >= 0; --l) {
        fill<<<1, 32>>>(d); // expect: SYNC101
        thrust::copy(dev.begin(), dev.end(), host.begin());
        std::vector<float> scratch(host.size());
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained: the device has nothing queued here: 'thrust::copy' at copy_wa
    }
}

// Warnings.
void upload_then_wait(float *d, thrust::device_vector<float> &dev, std::vector<float> &host, int levels)
{
    for (int l = levels; l >= 0; --l) {
        fill<<<1, 32>>>(d); // expect: SYNC101
        thrust::copy(host.begin(), host.end(), dev.begin());
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}

void wait_then_device_copy(float *d, thrust::device_vector<float> &a, thrust::device_vector<float> &b, int levels)
{
    for (int l = levels; l >= 0; --l) {
        fill<<<1, 32>>>(d); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        thrust::copy(a.begin(), a.end(), b.begin());
    }
}
