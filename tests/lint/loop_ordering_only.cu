// loop_ordering_only.cu: a loop whose only stream operations are event records and stream
// waits enqueues no device work, so allocations and syncs in it are not SYNC401/SYNC402;
// the same loop with a launch in it is.
#include <cuda_runtime.h>

__global__ void touch(int *x) { x[threadIdx.x] = 0; }

void setup(int count, int n, cudaStream_t *lanes, cudaEvent_t *ready, int **bufs)
{
    for (int i = 0; i < count; i++) {
        cudaStreamCreateWithFlags(&lanes[i], cudaStreamNonBlocking);
        cudaEventCreate(&ready[i]);
        cudaMalloc(&bufs[i], n * sizeof(int));
        cudaEventRecord(ready[i], lanes[i]);
        cudaStreamWaitEvent(lanes[0], ready[i], 0);
        cudaEventSynchronize(ready[i]);
    }
}

void working(int count, int n, cudaStream_t lane, cudaEvent_t ready, int **bufs)
{
    for (int i = 0; i < count; i++) {
        cudaMalloc(&bufs[i], n * sizeof(int)); // expect: SYNC402
        touch<<<1, 32, 0, lane>>>(bufs[i]);
        cudaEventRecord(ready, lane);
        cudaEventSynchronize(ready); // expect: SYNC401
    }
}
