// pipeline.cu: the frames, each stage followed at once by a wait for the same work: the
// stream's, the legacy stream's (the gate's), the device's, an event's, or finish's own. Not
// the second call of stage_mixed; stage_sync's wait is followed by one that the facts already
// make a note (it has nothing left to wait for); stage_pointer is named in a table.
#include "stages.h"
#include "gate.h"
typedef int (*stage_fn)(float *, int, cudaStream_t);
stage_fn table[] = {stage_pointer};
void pipeline(float *d, int *count, int n, int frames, cudaStream_t s)
{
    FrameGate gate;
    cudaEvent_t done;
    cudaEventCreate(&done);
    for (int f = 0; f < frames; f++) {
        stage_sync(d, n, s);
        cudaStreamSynchronize(s);
        stage_timed(d, n, s);
        int closed = gate.close();
        stage_device(d, n, s);
        cudaDeviceSynchronize();
        stage_event(d, n, s);
        cudaEventRecord(done, s);
        cudaEventSynchronize(done);
        stage_mixed(d, n, s);
        cudaDeviceSynchronize();
        stage_mixed(d, n, s);
        cudaMemsetAsync(d, 0, n * sizeof(float), s);
        stage_pointer(d, n, s);
        cudaDeviceSynchronize();
        stage_count(d, count, n, s);
        cudaDeviceSynchronize();
        stage_next(d, n, s);
        finish(d, n, s);
    }
}
