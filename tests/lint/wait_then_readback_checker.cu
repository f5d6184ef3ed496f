// wait_then_readback_checker.cu: a wait for the whole device, then a call of a checking function
// of the unit that only reads the last error (it keeps 'cudaGetLastError()' in a variable and,
// when that is not cudaSuccess, reports it and ends the program), then a synchronous readback
// (held-out-23's GOMC, session 33): the checking function stays on the host where the calls
// succeed, so the readback waits for the same work and the wait is a "drained anyway" note, as
// it is with 'CHECK(cudaGetLastError())' between (wait_then_readback.cu). The same checking call
// after a closing wait lets the wait close the loop (wait_closes_loop.cu). Warnings stay where
// the checking function queues work, reads through a pointer, counts failures instead of
// reporting them, is another unit's, or is nested three calls deep.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

__global__ void smooth(float *cells, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i > 0 && i < n)
        cells[i] = 0.5f * (cells[i] + cells[i - 1]);
}

inline void stop_on_error(const char *where, int line)
{
    cudaError_t status = cudaGetLastError();
    if (status != cudaSuccess) {
        fprintf(stderr, "%s:%d: %s\n", where, line, cudaGetErrorString(status));
        exit(EXIT_FAILURE);
    }
}

// A checking function that calls another one: followed two calls deep.
static void verify_here(int line) { stop_on_error("grid", line); }
static void verify_outer(int line) { verify_here(line); }

void relax(float *d_cells, float *h_cells, int n, int sweeps)
{
    for (int s = 0; s < sweeps; s++) {
        smooth<<<(n + 127) / 128, 128>>>(d_cells, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained anyway: the next device call, 'cudaMemcpy' at line 40, a synchronous copy from the device, waits for the same work: it returns only once the work queued before it on the legacy default stream is done, and only statements that stay on the host run between them (where the CUDA calls succeed: the branch at wait_then_readback_checker.cu:24 runs only when one failed, and is left out), and since this wait drained the device on the loop's previous iteration no work on another stream is queued on any way the unit reaches it: the stall is that readback's, this wait adds none of its own
        stop_on_error(__FILE__, __LINE__);
        cudaMemcpy(h_cells, d_cells, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: warning expect-no-message: drained
    }
}

// Two checking calls deep, and a host declaration between.
void relax_nested(float *d_cells, float *h_cells, int n, int sweeps)
{
    for (int s = 0; s < sweeps; s++) {
        smooth<<<(n + 127) / 128, 128>>>(d_cells, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained anyway: the next device call, 'cudaMemcpy' at line 52
        verify_here(__LINE__);
        size_t bytes = n * sizeof(float);
        cudaMemcpy(h_cells, d_cells, bytes, cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: warning
    }
}

// Three calls deep: lint follows two.
void relax_deeper(float *d_cells, float *h_cells, int n, int sweeps)
{
    for (int s = 0; s < sweeps; s++) {
        smooth<<<(n + 127) / 128, 128>>>(d_cells, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        verify_outer(__LINE__);
        cudaMemcpy(h_cells, d_cells, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: note expect-message: drained
    }
}

// A closing wait: the next iteration opens with a wait, and the loop is followed by a readback.
void relax_closing(float *d_cells, float *h_cells, int n, int sweeps)
{
    for (int s = 0; s < sweeps; s++) {
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained: the device has nothing queued here: 'cudaDeviceSynchronize' at wait_then_readback_checker.cu:73 drained it
        smooth<<<(n + 127) / 128, 128>>>(d_cells, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained anyway: every way on from here waits for the same work at once: on the next iteration, past 1 statement on the host and the loop's increment and condition, 'cudaDeviceSynchronize' at line 71, a wait for the whole device; when the loop ends, 'cudaMemcpy' at line 76
        stop_on_error(__FILE__, __LINE__);
    }
    cudaMemcpy(h_cells, d_cells, n * sizeof(float), cudaMemcpyDeviceToHost);
}

// The checking function clears a buffer too: work queued between.
inline void stop_and_clear(float *d_scratch, int n)
{
    stop_on_error("clear", 0);
    cudaMemset(d_scratch, 0, n * sizeof(float));
}

void relax_clearing(float *d_cells, float *d_scratch, float *h_cells, int n, int sweeps)
{
    for (int s = 0; s < sweeps; s++) {
        smooth<<<(n + 127) / 128, 128>>>(d_cells, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        stop_and_clear(d_scratch, n);
        cudaMemcpy(h_cells, d_cells, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: note expect-message: and no work but memsets is queued between it and this call
    }
}

// The checking function reads a flag the kernel may write (mapped memory): the wait is what
// that read needs.
static void stop_on_flag(const int *h_flag)
{
    cudaError_t status = cudaGetLastError();
    if (status != cudaSuccess || *h_flag < 0)
        exit(EXIT_FAILURE);
}

void relax_flagged(float *d_cells, float *h_cells, const int *h_flag, int n, int sweeps)
{
    for (int s = 0; s < sweeps; s++) {
        smooth<<<(n + 127) / 128, 128>>>(d_cells, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        stop_on_flag(h_flag);
        cudaMemcpy(h_cells, d_cells, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: note expect-message: drained
    }
}

// The failure is counted, not reported: the branch is no failure branch, and the function is
// the unit's host work, which could overlap the kernel were the wait gone.
static int failures;
static void count_failure()
{
    cudaError_t status = cudaGetLastError();
    if (status != cudaSuccess)
        failures++;
}

void relax_counted(float *d_cells, float *h_cells, int n, int sweeps)
{
    for (int s = 0; s < sweeps; s++) {
        smooth<<<(n + 127) / 128, 128>>>(d_cells, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        count_failure();
        cudaMemcpy(h_cells, d_cells, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: note expect-message: drained
    }
}

// Another unit's checking function may do anything.
void stop_elsewhere(const char *where, int line);

void relax_foreign(float *d_cells, float *h_cells, int n, int sweeps)
{
    for (int s = 0; s < sweeps; s++) {
        smooth<<<(n + 127) / 128, 128>>>(d_cells, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        stop_elsewhere(__FILE__, __LINE__);
        cudaMemcpy(h_cells, d_cells, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: warning
    }
}
