// legacy_stream_at_hand_global.cu: a namespace-scope stream that the unit creates and
// queues work on is at hand in every function of the unit, as a class's stream field is in
// its member functions (legacy_stream_at_hand.cu): legacy-stream work anywhere is a warning.
#include <cuda_runtime.h>

__global__ void shift(float *x) { x[threadIdx.x] += 1.0f; }

namespace {
cudaStream_t g_stream;
}

void uses_global(float *x, int n)
{
    for (int i = 0; i < n; i++)
        shift<<<1, 32>>>(x); // expect: SYNC101 expect-severity: warning
}

void init_global(float *x)
{
    cudaStreamCreate(&g_stream); // expect: SYNC103 expect-severity: note
    shift<<<1, 1, 0, g_stream>>>(x);
}
