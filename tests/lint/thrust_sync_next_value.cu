// thrust_sync_next_value.cu: held-out-10's shape J as held-out-20 met it. A wait in a loop right
// before Thrust work that synchronizes the default stream when it ends adds no stall of its own
// ("drained anyway", a note), where that work keeps its value on the host ('float s = ...',
// 'all = ...', 'sum += ...'), is given no policy but the iterators of a device vector or a
// device pointer (the device system's synchronous policy), or opens a function of this unit
// that the next statement calls (a device vector filled with a value, whose fill synchronizes,
// also in each arm of an 'if' whose other arm only throws; the call's vector assigned to
// another). The Thrust readback is then the
// stall and keeps its own severity: a warning in the loop. Warnings stay where the wait is for
// another stream than the Thrust work's, where device work is queued between, where the Thrust
// work does not wait ('par_nosync', 'thrust::fill', a function that only launches), and where
// the called function's first device work is a readback (its "drained" note and this wait's
// would both be notes).
// lint-args: -std=c++17
#include <cuda_runtime.h>
#include <stdexcept>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/fill.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>
#include <thrust/transform.h>

__global__ void grow(float *p, int n) { p[threadIdx.x] += n; }
__global__ void mark(int *flags, int n) { flags[threadIdx.x] = n > 0; }

struct twice {
    float operator()(float x) const { return 2.f * x; }
};

float kept_in_declaration(float *p, int n, int rounds)
{
    float total = 0.f;
    for (int r = 0; r < rounds; ++r) {
        grow<<<1, 64>>>(p, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained anyway: the next statement, 'thrust::reduce' with the synchronous policy 'thrust::device' (line 37), waits for the same work on the legacy default stream: it synchronizes that stream when it ends, and since this wait drained the device on the loop's previous iteration no work on another stream is queued on any way the unit reaches it
        float s = thrust::reduce(thrust::device, p, p + n); // expect: SYNC301 expect-severity: warning expect-message: it runs on every iteration of the loop at line 34
        total += s;
    }
    return total;
}

// A search whose loop tests the reduced flags: the reduction has no policy, a device vector's
// iterators; the flags kept in a variable only the loop condition reads (a note, only_tested.cu).
int search_rounds(thrust::device_vector<int> &found, int *flags, int n)
{
    int all = 0, rounds = 0;
    do {
        mark<<<1, 64>>>(flags, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained anyway: the next statement, 'thrust::reduce' on a device range with no policy, which runs with the device system's synchronous one (line 51), waits for the same work on the legacy default stream
        all = thrust::reduce(found.begin(), found.end(), 1, thrust::minimum<int>()); // expect: SYNC301 expect-severity: note expect-message: inherent as written: the loop only tests it to decide whether to go on (line 53, the loop's condition); to remove the stall, test it every N iterations or on the device
        rounds++;
    } while (!all && rounds < 200);
    return rounds;
}

float summed_in_place(float *p, int n, int rounds)
{
    float total = 0.f;
    for (int r = 0; r < rounds; ++r) {
        grow<<<1, 64>>>(p, n); // expect: SYNC101
        cudaStreamSynchronize(0); // expect: SYNC401 expect-severity: note expect-message: drained anyway: the next statement, 'thrust::reduce' with the synchronous policy 'thrust::device' (line 63), waits for the same work on the legacy default stream, the stream this wait is for
        total += thrust::reduce(thrust::device, p, p + n); // expect: SYNC301 expect-severity: warning
    }
    return total;
}

// The first device work of the function called next: a device vector filled with a value.
float weights_sum(int n)
{
    thrust::device_vector<float> ones(n, 1.f);
    return thrust::reduce(ones.begin(), ones.end(), 0.f, thrust::minimum<float>()); // expect: SYNC301 expect-severity: warning
}

float call_opening(float *p, int n, int rounds)
{
    float total = 0.f;
    for (int r = 0; r < rounds; ++r) {
        grow<<<1, 64>>>(p, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained anyway: the next statement calls 'weights_sum()', whose first device work, the construction of a 'thrust::device_vector<float>' filled with a value, whose fill runs with the synchronous policy (at thrust_sync_next_value.cu:71), waits for the same work on the legacy default stream
        total += weights_sum(n);
    }
    return total;
}

// Each arm opens with a filled vector, or only throws (an argument out of range).
float row_weights(int n, int axis)
{
    float scale = 0.5f;
    if (axis == 0) {
        thrust::device_vector<float> w(n, scale);
        return thrust::reduce(w.begin(), w.end(), 0.f, thrust::minimum<float>()); // expect: SYNC301 expect-severity: warning
    } else if (axis == 1) {
        thrust::device_vector<float> w(2 * n, scale);
        return thrust::reduce(w.begin(), w.end(), 0.f, thrust::minimum<float>()); // expect: SYNC301 expect-severity: warning
    } else {
        throw std::invalid_argument("axis");
    }
}

float call_branches(float *p, int n, int rounds)
{
    float total = 0.f;
    for (int r = 0; r < rounds; ++r) {
        grow<<<1, 64>>>(p, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained anyway: the next statement calls 'row_weights()', whose first device work, the construction of a 'thrust::device_vector<float>' filled with a value, whose fill runs with the synchronous policy (at thrust_sync_next_value.cu:91)
        total = row_weights(n, r % 2);
    }
    return total;
}

// The vector a function returns, assigned to the caller's: the assignment runs after the call.
thrust::device_vector<float> column_weights(int n)
{
    thrust::device_vector<float> w(n, 2.f);
    return w;
}

void call_assigned(float *p, int n, int rounds, thrust::device_vector<float> &weights)
{
    for (int r = 0; r < rounds; ++r) {
        grow<<<1, 64>>>(p, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained anyway: the next statement calls 'column_weights()', whose first device work, the construction of a 'thrust::device_vector<float>' filled with a value
        weights = column_weights(n);
    }
}

// An arm without Thrust work: the wait is all that waits there.
float row_weights_or_none(int n, int axis)
{
    if (axis == 0) {
        thrust::device_vector<float> w(n, 1.f);
        return thrust::reduce(w.begin(), w.end(), 0.f, thrust::minimum<float>()); // expect: SYNC301 expect-severity: warning
    } else {
        return 0.f;
    }
}

float call_branch_without(float *p, int n, int rounds)
{
    float total = 0.f;
    for (int r = 0; r < rounds; ++r) {
        grow<<<1, 64>>>(p, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        total = row_weights_or_none(n, r % 2);
    }
    return total;
}

// The wait is for one stream, the reduction on the legacy one.
float other_stream(float *p, int n, int rounds, cudaStream_t s)
{
    float total = 0.f;
    for (int r = 0; r < rounds; ++r) {
        grow<<<1, 64, 0, s>>>(p, n);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        float v = thrust::reduce(thrust::device, p, p + n); // expect: SYNC301 expect-severity: warning
        total += v;
    }
    return total;
}

float work_between(float *p, int n, int rounds)
{
    float total = 0.f;
    for (int r = 0; r < rounds; ++r) {
        grow<<<1, 64>>>(p, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        grow<<<1, 64>>>(p, n); // expect: SYNC101
        float v = thrust::reduce(thrust::device, p, p + n); // expect: SYNC301 expect-severity: warning
        total += v;
    }
    return total;
}

float without_sync(float *p, int n, int rounds)
{
    float total = 0.f;
    for (int r = 0; r < rounds; ++r) {
        grow<<<1, 64>>>(p, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        total += thrust::reduce(thrust::cuda::par_nosync, p, p + n); // expect: SYNC301 expect-severity: note
    }
    return total;
}

// A transform on the stream waited for that skips its synchronization: nothing waits after it.
void transform_nosync(float *p, float *q, int n, int rounds, cudaStream_t s)
{
    for (int r = 0; r < rounds; ++r) {
        grow<<<1, 64, 0, s>>>(p, n);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        thrust::transform(thrust::cuda::par_nosync.on(s), p, p + n, q, twice());
    }
}

// A fill is not among the algorithms known to synchronize at their end, in a declaration too.
void fill_after(float *p, int n, int rounds)
{
    for (int r = 0; r < rounds; ++r) {
        grow<<<1, 64>>>(p, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        thrust::fill(thrust::device, p, p + n, 0.f);
    }
}

void only_launches(float *p, int n) { grow<<<1, 64>>>(p, n); } // expect: SYNC101

void call_launching(float *p, int n, int rounds)
{
    for (int r = 0; r < rounds; ++r) {
        grow<<<1, 64>>>(p, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        only_launches(p, n);
    }
}

// The function's first device work is the readback itself: not followed.
float reduce_first(float *p, int n) { return thrust::reduce(thrust::device, p, p + n); } // expect: SYNC301

float call_reducing(float *p, int n, int rounds)
{
    float total = 0.f;
    for (int r = 0; r < rounds; ++r) {
        grow<<<1, 64>>>(p, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        total += reduce_first(p, n);
    }
    return total;
}
