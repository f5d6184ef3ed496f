// drained_legacy_only.cu: a unit that creates no stream and names none but the legacy default
// stream (no stream variable, parameter or member, no cudaStreamPerThread): all its work is
// queued on the legacy stream, so a synchronous copy between the host and the device waits for
// all of it and drains the device, as it does where the unit's streams all block. The upload
// after the previous iteration's readback, or after another synchronous copy, is a note; an
// upload after a launch stays a warning. drained_legacy_param.cu, drained_legacy_ptds.cu and
// drained_legacy_named.cu are the same steps in units where that does not hold.
#include <cuda_runtime.h>

__global__ void layer(float *x, int n) { x[threadIdx.x % n] *= 2.0f; }

void train(float *d_x, float *d_y, const float *h_x, float *h_y, int n, int steps)
{
    for (int s = 0; s < steps; s++) {
        // The previous iteration's readback drained the device.
        cudaMemcpy(d_x, h_x, n * sizeof(float), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: note expect-message: drained: the device has nothing queued here: 'cudaMemcpy' at drained_legacy_only.cu:22 drained it (a synchronous copy, which waits for all work: the unit creates no stream and names none but the legacy one, so all its work is queued there)
        // The copy just above drained it.
        cudaMemcpy(d_y, h_x, n * sizeof(float), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: note expect-message: 'cudaMemcpy' at drained_legacy_only.cu:16 drained it
        layer<<<1, 32>>>(d_x, n); // expect: SYNC101
        // Queued after the launch: it waits for the kernel.
        cudaMemcpy(d_y, h_x, n * sizeof(float), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: warning
        cudaMemcpy(h_y, d_x, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: note
    }
}

// A device-wide wait after the readback: the copy waited for all the legacy stream's work, but
// a function of another unit may have queued work on a stream of its own that only this wait
// waits for. A copy never answers for a device-wide wait here.
void run_elsewhere(float *d_x, int n);

void evaluate(float *d_x, float *h_y, int n, int steps)
{
    for (int s = 0; s < steps; s++) {
        run_elsewhere(d_x, n);
        layer<<<1, 32>>>(d_x, n); // expect: SYNC101
        cudaMemcpy(h_y, d_x, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: warning
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}
