// wait_then_readback_beyond.cu: a wait whose stall a synchronous readback right after makes
// again, where the readback is not written in the next statement (held-out-35's CL; session 42):
// in a function of the unit the next statement calls, which opens with it; in the condition of
// the loop whose body the wait ends (through such a function, a value wrapper's conversion
// operator included); or after every call of a launch helper that ends with
// the wait, inside a checking macro that also queries the last error. Each wait is a "drained
// anyway" note; the readback a note where the loop only tests its value. Warnings stay where one
// call of the helper is followed by more device work, where the function the next statement calls
// launches before it reads back, or where it opens with an upload.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#define CHECK_LAUNCH()                                                                            \
    do {                                                                                          \
        cudaDeviceSynchronize();                                                                  \
        cudaError_t e = cudaGetLastError();                                                       \
        const char *name = cudaGetErrorName(e);                                                   \
        if (e != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s: %s\n", name, cudaGetErrorString(e));                             \
            exit(1);                                                                              \
        }                                                                                         \
    } while (0)

__global__ void relax_cells(int *changed, float *cells, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && cells[i] > 1.0f) {
        cells[i] *= 0.5f;
        *changed = 1;
    }
}

static bool read_changed(const int *d_changed)
{
    int changed = 0;
    cudaMemcpy(&changed, d_changed, sizeof changed, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent as written: the function returns the value (line 37), and every call from a loop tests it at once (the call at wait_then_readback_beyond.cu:47: the loop only tests it to decide whether to go on (line 44, the loop's condition))
    return changed != 0;
}

// The next statement calls a function of the unit that opens with the readback.
void settle(int *d_changed, float *d_cells, int n)
{
    bool go = true;
    while (go) {
        relax_cells<<<(n + 127) / 128, 128>>>(d_changed, d_cells, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained anyway: the next device call is 'cudaMemcpy' (line 36), in 'read_changed()', called at line 47, a synchronous copy from the device, which waits for the same work
        go = read_changed(d_changed);
    }
}

// The loop's condition calls the function that reads back.
void settle_cond(int *d_changed, float *d_cells, int n)
{
    do {
        relax_cells<<<(n + 127) / 128, 128>>>(d_changed, d_cells, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained anyway: the next device call is 'cudaMemcpy' (line 36), in 'read_changed()', which the loop's condition calls (line 57), a synchronous copy from the device
    } while (read_changed(d_changed));
}

// A launch helper ends with a checking macro's wait; its one call is followed by a value
// wrapper's readback in the loop's condition.
template <typename T> struct HostDeviceVar {
    T *d;
    operator T() const
    {
        T v;
        cudaMemcpy(&v, d, sizeof(T), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: note expect-message: inherent as written: the function returns the value (line 68)
        return v;
    }
};

template <typename Op> __global__ void apply(Op op, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        op(i);
}

struct Halve {
    float *cells;
    int *changed;
    __device__ void operator()(int i) const
    {
        if (cells[i] > 1.0f) {
            cells[i] *= 0.5f;
            *changed = 1;
        }
    }
};

template <typename Op> void for_all(int n, Op op)
{
    apply<<<(n + 127) / 128, 128>>>(op, n); // expect: SYNC101
    CHECK_LAUNCH(); // expect: SYNC401 expect-severity: note expect-message: drained anyway: 'for_all()' ends here, and after its one call in this unit, in 'settle_wrapped()', the next device call is 'cudaMemcpy' (line 67), in 'operator int()', which the loop's condition calls (line 102), a synchronous copy from the device, which waits for the same work: it returns only once the work queued before it on the default stream is done, and only statements that stay on the host run between them, and since this wait drained the device on the loop's previous iteration no work on another stream is queued on any way the unit reaches it: the stall is that readback's, this wait adds none of its own (calls from other units are not seen)
}

void settle_wrapped(int *d_changed, float *d_cells, int n)
{
    HostDeviceVar<int> changed{d_changed};
    do {
        for_all(n, Halve{d_cells, d_changed});
    } while (changed);
}

// A helper with two calls: after one, more device work comes first.
static void launch_and_wait(int *d_changed, float *d_cells, int n)
{
    relax_cells<<<(n + 127) / 128, 128>>>(d_changed, d_cells, n); // expect: SYNC101
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning expect-no-message: drained
}

void settle_twice(int *d_changed, float *d_cells, int n)
{
    do {
        launch_and_wait(d_changed, d_cells, n);
    } while (read_changed(d_changed));
    for (int r = 0; r < 4; r++) {
        launch_and_wait(d_changed, d_cells, n);
        relax_cells<<<(n + 127) / 128, 128>>>(d_changed, d_cells, n); // expect: SYNC101
    }
}

// The function the next statement calls launches before it reads back (held-out-35's CM).
static bool swap_and_count(int *d_changed, float *d_cells, int n)
{
    relax_cells<<<1, 1>>>(d_changed, d_cells, n); // expect: SYNC101
    int changed = 0;
    cudaMemcpy(&changed, d_changed, sizeof changed, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: (the call at wait_then_readback_beyond.cu:138: the loop only tests it to decide whether to go on (line 135, the loop's condition))
    return changed != 0;
}

void settle_swap(int *d_changed, float *d_cells, int n)
{
    bool go = true;
    while (go) {
        relax_cells<<<(n + 127) / 128, 128>>>(d_changed, d_cells, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning expect-no-message: drained
        go = swap_and_count(d_changed, d_cells, n);
    }
}

// The function the next statement calls opens with an upload.
static void reset_flag(int *d_changed)
{
    int zero = 0;
    cudaMemcpy(d_changed, &zero, sizeof zero, cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: note
}

void settle_reset(int *d_changed, float *d_cells, int n, int rounds)
{
    for (int r = 0; r < rounds; r++) {
        relax_cells<<<(n + 127) / 128, 128>>>(d_changed, d_cells, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning expect-no-message: drained
        reset_flag(d_changed);
    }
}
