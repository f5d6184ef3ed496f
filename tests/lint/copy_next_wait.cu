// copy_next_wait.cu: a unit whose work is all on the legacy stream (it creates no stream, names
// none but the legacy one and calls no function of another unit), where a synchronous copy to
// the host waits for all of it. A device-wide wait in a loop right before such a copy
// ('cudaMemcpy', 'cudaMemcpy2D' in an error check, 'thrust::copy' from a device range to a
// std::vector) waits for the work the copy waits for anyway: a note, "drained anyway: the next
// statement, ..., a synchronous copy to the host, waits for the same work" (shape M); one right
// after such a copy, nothing queued since, waits for nothing: a note, "drained: ..." (shape N).
// Host work between the wait and the copy, a copy in a branch, a copy to the device, and a
// launch between the copy and the wait keep the warning. copy_next_wait_nonblocking.cu,
// copy_next_wait_param.cu, copy_next_wait_per_thread.cu and drained_legacy_only.cu's
// evaluate() are the same steps in units where the work may be on another stream.
// lint-args: -std=c++17
#include <cuda_runtime.h>
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <vector>

#define CHECK(call) { check((call), __LINE__); }
static void check(cudaError_t e, int line) { if (e != cudaSuccess) throw line; }

__global__ void match(float *out) { out[threadIdx.x] = 1.0f; }

void wait_then_copy(float *d, float *h, int n, int pairs)
{
    for (int i = 0; i < pairs; i++) {
        match<<<1, 64>>>(d); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained anyway: the next statement, 'cudaMemcpy' (line 28), a synchronous copy to the host, waits for the same work: the unit creates no stream, names none but the legacy one and calls no function of another unit
        cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: note
    }
}

void wait_then_copy_checked(float *d, float *h, int n, int pairs)
{
    for (int i = 0; i < pairs; i++) {
        match<<<1, 64>>>(d); // expect: SYNC101
        CHECK(cudaDeviceSynchronize()); // expect: SYNC401 expect-severity: note expect-message: the next statement, 'cudaMemcpy2D' (line 37)
        CHECK(cudaMemcpy2D(h, 8, d, 8, 8, n, cudaMemcpyDeviceToHost)); // expect: SYNC202 expect-severity: note
    }
}

void wait_then_thrust_copy(float *d, std::vector<float> &host, int levels)
{
    thrust::device_vector<float> dev(host.size());
    for (int l = levels; l >= 0; --l) {
        match<<<1, 64>>>(d); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained anyway: the next statement, 'thrust::copy' (line 47), a synchronous copy to the host
        thrust::copy(dev.begin(), dev.end(), host.begin());
    }
}

void copy_then_wait(float *d, float *h, int n, int levels)
{
    for (int l = levels; l >= 0; --l) {
        match<<<1, 64>>>(d); // expect: SYNC101
        cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: warning
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained: the device has nothing queued here: 'cudaMemcpy' at copy_next_wait.cu:55 drained it (a synchronous copy, which waits for all work: the unit creates no stream, names none but the legacy one and calls no function of another unit, so all the work it can have queued is there)
    }
}

void thrust_copy_then_wait(float *d, std::vector<float> &host, std::vector<float> &more,
                           int levels)
{
    thrust::device_vector<float> dev(host.size());
    for (int l = levels; l >= 0; --l) {
        match<<<1, 64>>>(d); // expect: SYNC101
        thrust::copy(dev.begin(), dev.end(), host.begin());
        std::vector<float> scratch(host.size());
        thrust::copy(dev.begin(), dev.end(), more.begin());
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained: the device has nothing queued here: 'thrust::copy' at copy_next_wait.cu:68 drained it
    }
}

// Near cases: warnings.
void host_work_between(float *d, float *h, float *table, int n, int pairs)
{
    for (int i = 0; i < pairs; i++) {
        match<<<1, 64>>>(d); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        table[i] = 2.0f * i;
        cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: note
    }
}

void copy_in_branch(float *d, float *h, int n, int pairs)
{
    for (int i = 0; i < pairs; i++) {
        match<<<1, 64>>>(d); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        if (h != nullptr)
            cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: note
    }
}

void copy_to_device(float *d, const float *h, int n, int pairs)
{
    for (int i = 0; i < pairs; i++) {
        match<<<1, 64>>>(d); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: note
    }
}

void launch_between(float *d, float *h, int n, int levels)
{
    for (int l = levels; l >= 0; --l) {
        // The previous iteration's wait drained the device: the copy waits for nothing.
        cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: note
        match<<<1, 64>>>(d); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}
