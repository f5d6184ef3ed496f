// wait_then_readback_pairs.cu: a wait whose stall the readback right after makes again, where
// lint says so of the wait ("drained anyway"), so the readback must not in turn be "drained" by
// that wait: the pair never ends as two notes (session 42 review). The readback's value is
// summed, so it stays a warning: in a function of the unit called after a launch helper that
// ends with the wait (a value wrapper's conversion operator too); on either arm of a function
// that opens with a readback on every way; right after the wait in a helper that a loop of the
// unit calls.
#include <cuda_runtime.h>

__global__ void count_cells(int *count, const float *cells, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && cells[i] > 1.0f)
        atomicAdd(count, 1);
}

static void launch_and_wait(int *d_count, const float *d_cells, int n)
{
    count_cells<<<(n + 127) / 128, 128>>>(d_count, d_cells, n); // expect: SYNC101
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained anyway: 'launch_and_wait()' ends here
}

static int read_count(const int *d_count)
{
    int count = 0;
    cudaMemcpy(&count, d_count, sizeof count, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning expect-no-message: drained
    return count;
}

long total_counts(int *d_count, const float *d_cells, int n, int rounds)
{
    long total = 0;
    for (int r = 0; r < rounds; r++) {
        launch_and_wait(d_count, d_cells, n);
        total += read_count(d_count);
    }
    return total;
}

template <typename T> struct HostDeviceVar {
    T *d;
    operator T() const
    {
        T v;
        cudaMemcpy(&v, d, sizeof(T), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: warning expect-no-message: drained
        return v;
    }
};

static void launch_and_wait_wrapped(int *d_count, const float *d_cells, int n)
{
    count_cells<<<(n + 127) / 128, 128>>>(d_count, d_cells, n); // expect: SYNC101
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained anyway: 'launch_and_wait_wrapped()' ends here
}

long total_wrapped(int *d_count, const float *d_cells, int n, int rounds)
{
    HostDeviceVar<int> count{d_count};
    long total = 0;
    for (int r = 0; r < rounds; r++) {
        launch_and_wait_wrapped(d_count, d_cells, n);
        total += count;
    }
    return total;
}

static int read_either(const int *d_a, const int *d_b, bool first)
{
    int v = 0;
    if (first)
        cudaMemcpy(&v, d_a, sizeof v, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning expect-no-message: drained
    else
        cudaMemcpy(&v, d_b, sizeof v, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning expect-no-message: drained
    return v;
}

long total_either(int *d_a, int *d_b, const float *d_cells, int n, int rounds, bool first)
{
    long total = 0;
    for (int r = 0; r < rounds; r++) {
        count_cells<<<(n + 127) / 128, 128>>>(d_a, d_cells, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained anyway: the next device call is 'cudaMemcpy' (line 71), in 'read_either()', called at line 83
        total += read_either(d_a, d_b, first);
    }
    return total;
}

static void step_and_count(int *d_count, const float *d_cells, int n, long *total)
{
    count_cells<<<(n + 127) / 128, 128>>>(d_count, d_cells, n); // expect: SYNC101
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained anyway: the next device call, 'cudaMemcpy'
    int count = 0;
    cudaMemcpy(&count, d_count, sizeof count, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning expect-no-message: drained
    *total += count;
}

long total_stepped(int *d_count, const float *d_cells, int n, int rounds)
{
    long total = 0;
    for (int r = 0; r < rounds; r++)
        step_and_count(d_count, d_cells, n, &total);
    return total;
}
