// copy_wait_closed.cu: device-wide waits next to synchronous copies to the host in a unit whose
// work all goes to the legacy stream: it creates no stream, names none but the legacy one, and
// runs no code but its own and the CUDA API's (no other unit's function, no call through a
// pointer, none virtual). A copy there waits for everything the wait could wait for.
// Notes: the wait right before such a copy (M: 'drained anyway: the next statement ...'), also
// a wait for the legacy stream and a copy in an error check; the wait right after one, nothing
// queued since (N: 'drained: ...'). Warnings: the copy only on some ways (an 'if', '&&', '?:'),
// a copy to the device (returns once staged) or within it, a copy of unread direction
// (cudaMemcpyDefault), a device switch or a launch between the copy and the wait, host work
// between the wait and the copy.
#include <cuda_runtime.h>

#define CHECK(call) { check((call), __LINE__); }
static void check(cudaError_t e, int line) { if (e != cudaSuccess) throw line; }

__global__ void fill(float *d) { d[threadIdx.x] = 1.0f; }

void wait_then_copy(float *d, float *h, int iters)
{
    for (int i = 0; i < iters; i++) {
        fill<<<1, 32>>>(d); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained anyway: the next statement, 'cudaMemcpy' (line 23), a synchron
        cudaMemcpy(h, d, 32 * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202
    }
}

void checked_wait_then_copy(float *d, float *h, int iters)
{
    for (int i = 0; i < iters; i++) {
        fill<<<1, 32>>>(d); // expect: SYNC101
        CHECK(cudaDeviceSynchronize()); // expect: SYNC401 expect-severity: note expect-message: drained anyway: the next statement, 'cudaMemcpy2D' (line 32), a synchr
        CHECK(cudaMemcpy2D(h, 8, d, 8, 8, 4, cudaMemcpyDeviceToHost)); // expect: SYNC202
    }
}

void stream_wait_then_copy(float *d, float *h, int iters)
{
    for (int i = 0; i < iters; i++) {
        fill<<<1, 32>>>(d); // expect: SYNC101
        cudaStreamSynchronize(0); // expect: SYNC401 expect-severity: note expect-message: drained anyway: the next statement, 'cudaMemcpy' (line 41), a synchron
        cudaMemcpy(h, d, 32 * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202
    }
}

void copy_then_wait(float *d, float *h, int iters)
{
    for (int i = 0; i < iters; i++) {
        fill<<<1, 32>>>(d); // expect: SYNC101
        cudaMemcpy(h, d, 32 * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202
        h[0] = 0.0f;
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained: the device has nothing queued here: 'cudaMemcpy' at copy_wait
    }
}

// Warnings.
void copy_in_if(float *d, float *h, int iters, bool verbose)
{
    for (int i = 0; i < iters; i++) {
        fill<<<1, 32>>>(d); // expect: SYNC101
        if (verbose)
            cudaMemcpy(h, d, 4, cudaMemcpyDeviceToHost); // expect: SYNC301
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}

void copy_maybe(float *d, float *h, int iters, bool verbose)
{
    for (int i = 0; i < iters; i++) {
        fill<<<1, 32>>>(d); // expect: SYNC101
        (void)(verbose && cudaMemcpy(h, d, 4, cudaMemcpyDeviceToHost) == cudaSuccess); // expect: SYNC301
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        fill<<<1, 32>>>(d); // expect: SYNC101
        cudaError_t e = verbose ? cudaMemcpy(h, d, 4, cudaMemcpyDeviceToHost) : cudaSuccess; // expect: SYNC301
        (void)e;
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}

void wait_then_copy_in_if(float *d, float *h, int iters, bool verbose)
{
    for (int i = 0; i < iters; i++) {
        fill<<<1, 32>>>(d); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        if (verbose)
            cudaMemcpy(h, d, 4, cudaMemcpyDeviceToHost); // expect: SYNC301
    }
}

void other_kinds(float *d, float *e, float *h, int iters)
{
    for (int i = 0; i < iters; i++) {
        fill<<<1, 32>>>(d); // expect: SYNC101
        cudaMemcpy(d, h, 4, cudaMemcpyHostToDevice); // expect: SYNC202
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        fill<<<1, 32>>>(d); // expect: SYNC101
        cudaMemcpy(e, d, 4, cudaMemcpyDeviceToDevice);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        fill<<<1, 32>>>(d); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        cudaMemcpy(d, h, 4, cudaMemcpyHostToDevice); // expect: SYNC202
        fill<<<1, 32>>>(d); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        cudaMemcpy(h, d, 4, cudaMemcpyDefault); // expect: SYNC202
    }
}

void switch_between(float *d0, float *d1, float *h, int iters)
{
    for (int i = 0; i < iters; i++) {
        cudaSetDevice(1);
        fill<<<1, 32>>>(d1); // expect: SYNC101
        cudaSetDevice(0);
        fill<<<1, 32>>>(d0); // expect: SYNC101
        cudaMemcpy(h, d0, 4, cudaMemcpyDeviceToHost); // expect: SYNC301
        cudaSetDevice(1);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}

void launch_between(float *d, float *h, int iters)
{
    for (int i = 0; i < iters; i++) {
        fill<<<1, 32>>>(d); // expect: SYNC101
        cudaMemcpy(h, d, 4, cudaMemcpyDeviceToHost); // expect: SYNC301
        fill<<<1, 32>>>(d); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}

void host_work_between(float *d, float *h, float *table, int iters)
{
    for (int i = 0; i < iters; i++) {
        fill<<<1, 32>>>(d); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        table[i] = 2.0f * i;
        cudaMemcpy(h, d, 4, cudaMemcpyDeviceToHost); // expect: SYNC301
    }
}
