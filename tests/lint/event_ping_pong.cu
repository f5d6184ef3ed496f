// event_ping_pong.cu: a wait for an event recorded in an earlier iteration (double-buffered
// work: the event is recorded after the wait in the loop, or another element of the event
// array is recorded) does not drain the GPU: the work queued since stays queued. Not SYNC401.
// A wait for the event the same iteration recorded is.
#include <cuda_runtime.h>

__global__ void decode(float *x) { x[threadIdx.x] += 1.0f; }

void ping_pong(float *buf[2], cudaEvent_t done[2], cudaStream_t s, int n)
{
    for (int i = 0; i < n; i++) {
        int cur = i % 2, prev = 1 - cur;
        cudaEventSynchronize(done[prev]);
        decode<<<1, 32, 0, s>>>(buf[cur]);
        cudaEventRecord(done[cur], s);
    }
}

void recorded_after_the_wait(float *d, cudaEvent_t done, cudaStream_t s, int n)
{
    for (int i = 0; i < n; i++) {
        cudaEventSynchronize(done); // the previous iteration's record
        decode<<<1, 32, 0, s>>>(d);
        cudaEventRecord(done, s);
    }
}

void drained_each_iteration(float *d, cudaEvent_t done, cudaStream_t s, int n)
{
    for (int i = 0; i < n; i++) {
        decode<<<1, 32, 0, s>>>(d);
        cudaEventRecord(done, s);
        cudaEventSynchronize(done); // expect: SYNC401
    }
}

void same_element(float *d, cudaEvent_t done[2], cudaStream_t s, int n)
{
    for (int i = 0; i < n; i++) {
        decode<<<1, 32, 0, s>>>(d);
        cudaEventRecord(done[i % 2], s);
        cudaEventSynchronize(done[i % 2]); // expect: SYNC401
    }
}
