// returned_value_tested.cu: a one-value readback in a function that returns the value, called from
// loops that enqueue device work (held-out-35's CL, a getter's readback): where every call from a
// loop tests the value at once (the condition of the loop, of an 'if' that leaves it, or a local
// set from the call that the loop only tests), the stall is inherent as written and the readback
// a note that says so; where a caller sums or keeps the value, or one caller of several does not
// test it, it stays a warning. A template's pattern ('T v;' read back with 'sizeof(T)' in a value
// wrapper's conversion operator) counts as one value.
#include <cuda_runtime.h>

__global__ void step(int *flag, int *count)
{
    if (threadIdx.x == 0) {
        *flag = 0;
        *count = 1;
    }
}

// The loop's condition calls it.
static bool still_changing(const int *d_flag)
{
    int flag = 0;
    cudaMemcpy(&flag, d_flag, sizeof flag, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent as written: the function returns the value (line 23), and every call from a loop tests it at once (the call at returned_value_tested.cu:30: the loop tests it to decide whether to go on (line 30, the loop's condition)); to remove the stall, test it every N iterations or on the device
    return flag;
}

void relax(int *d_flag, int *d_count)
{
    do {
        step<<<1, 32>>>(d_flag, d_count); // expect: SYNC101
    } while (still_changing(d_flag));
}

// A 'while' loop's condition, under a comparison.
static int pending(const int *d_count)
{
    int left;
    cudaMemcpy(&left, d_count, sizeof left, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: (the call at returned_value_tested.cu:43: the loop tests it to decide whether to go on (line 43, the loop's condition))
    return left;
}

void drain(int *d_flag, int *d_count)
{
    while (pending(d_count) > 0)
        step<<<1, 32>>>(d_flag, d_count); // expect: SYNC101
}

// A local set from the call, which an 'if' that leaves the loop tests.
static int remaining(const int *d_count)
{
    int left;
    cudaMemcpy(&left, d_count, sizeof left, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: (the call at returned_value_tested.cu:59: the host only tests it to decide what runs next (line 60 branches on it))
    return left;
}

void sweep(int *d_flag, int *d_count, int rounds)
{
    for (int r = 0; r < rounds; r++) {
        step<<<1, 32>>>(d_flag, d_count); // expect: SYNC101
        int left = remaining(d_count);
        if (left == 0)
            break;
    }
}

// The caller sums the value: not a test.
static int produced(const int *d_count)
{
    int made;
    cudaMemcpy(&made, d_count, sizeof made, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
    return made;
}

long total(int *d_flag, int *d_count, int rounds)
{
    long sum = 0;
    for (int r = 0; r < rounds; r++) {
        step<<<1, 32>>>(d_flag, d_count); // expect: SYNC101
        sum += produced(d_count);
    }
    return sum;
}

// Two callers in loops: one tests, the other keeps the value.
static int level(const int *d_count)
{
    int v;
    cudaMemcpy(&v, d_count, sizeof v, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
    return v;
}

void until_empty(int *d_flag, int *d_count)
{
    do {
        step<<<1, 32>>>(d_flag, d_count); // expect: SYNC101
    } while (level(d_count) != 0);
}

void record(int *d_flag, int *d_count, int *history, int rounds)
{
    for (int r = 0; r < rounds; r++) {
        step<<<1, 32>>>(d_flag, d_count); // expect: SYNC101
        history[r] = level(d_count);
    }
}

// The value is computed on before it is returned: not the value read back as it is.
static int doubled(const int *d_count)
{
    int v;
    cudaMemcpy(&v, d_count, sizeof v, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
    v = 2 * v;
    return v;
}

void grow(int *d_flag, int *d_count)
{
    do {
        step<<<1, 32>>>(d_flag, d_count); // expect: SYNC101
    } while (doubled(d_count) < 64);
}

// A value wrapper of a template, read back by its conversion operator in the loop's condition.
template <typename T> struct DeviceValue {
    T *d;
    operator T() const
    {
        T v;
        cudaMemcpy(&v, d, sizeof(T), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: note expect-message: inherent as written: the function returns the value (line 129), and every call from a loop tests it at once (the call at returned_value_tested.cu:138: the loop tests it to decide whether to go on (line 138, the loop's condition))
        return v;
    }
};

void converge(int *d_flag, int *d_count)
{
    DeviceValue<int> go{d_flag};
    do {
        step<<<1, 32>>>(d_flag, d_count); // expect: SYNC101
    } while (go);
}
