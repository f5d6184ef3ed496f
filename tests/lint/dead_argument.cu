// dead_argument.cu: code of an inline function (or one of internal linkage) that runs only for
// some value of a parameter, which no call in the unit passes: a stream wrapper's 'Sync(bool
// error = true)' whose 'error == false' way is never taken here, because every call uses the
// default. A note "dead in this unit", in a loop or not; each unit that includes the function
// decides for itself (and a header's finding keeps the highest severity any unit gives it).
// A call that passes the other value, a value not known, a function whose address is taken
// or one other units may call keeps the finding's severity.
#include <cuda_runtime.h>

__global__ void step(float *d) { d[threadIdx.x] *= 2.0f; }

struct StreamRef {
    cudaStream_t stream_;
    cudaError_t Sync(bool error = true)
    {
        if (error) {
            cudaStreamSynchronize(stream_); // expect: SYNC401 expect-severity: warning
            return cudaSuccess;
        }
        return cudaStreamSynchronize(stream_); // expect: SYNC401 expect-severity: note expect-message: dead in this unit: line 16 leaves the function when 'error' holds, and every call of 'StreamRef::Sync' in this unit (2) gives 'error' a value for which it does ('StreamRef::Sync' is inline)
    }
    void Wait(bool check)
    {
        if (!check)
            return;
        cudaStreamSynchronize(stream_); // expect: SYNC401 expect-severity: warning
    }
};

// Given by reference to a function that may change it: its value is not the caller's.
static void settle(bool &quiet) { quiet = !quiet; }

static void sync_unless_quiet(cudaStream_t s, bool quiet = true)
{
    settle(quiet);
    if (quiet)
        return;
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
}

static void copy_back(float *h, const float *d, bool pinned, cudaStream_t s)
{
    if (!pinned) {
        float staged[64];
        cudaMemcpyAsync(staged, d, sizeof staged, cudaMemcpyDeviceToHost, s); // expect: SYNC201 expect-severity: note expect-message: dead in this unit: the branch at line 43 runs only when '!pinned' holds, and every call of 'copy_back' in this unit (1) gives 'pinned' a value for which it does not ('copy_back' has internal linkage)
        return;
    }
    cudaMemcpyAsync(h, d, 64 * sizeof(float), cudaMemcpyDeviceToHost, s);
}

// Other units may call it with any value.
cudaError_t sync_exported(cudaStream_t s, bool error)
{
    if (error)
        return cudaSuccess;
    return cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
}

void train(StreamRef ref, float *d, float *h, int n, int steps, bool check)
{
    for (int i = 0; i < steps; i++) {
        step<<<1, 32, 0, ref.stream_>>>(d);
        ref.Sync();
        step<<<1, 32, 0, ref.stream_>>>(d);
        ref.Sync(true);
        ref.Wait(check);
        ref.Wait(true);
        copy_back(h, d, true, ref.stream_);
        sync_unless_quiet(ref.stream_);
        sync_exported(ref.stream_, true);
    }
}
