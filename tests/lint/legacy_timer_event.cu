// legacy_timer_event.cu: a timer class records its events without a stream, in a unit that
// uses a blocking stream, and reads them back with cudaEventElapsedTime: on the legacy stream a
// record marks the point after the earlier work of every blocking stream, which a timer of the
// whole step asks for, so the records are notes. An event recorded without a stream that
// nothing times (a marker another stream waits for) stays a warning.
#include <cuda_runtime.h>

__global__ void step_kernel(float *x) { x[threadIdx.x] += 1.0f; }

class StepTimer {
  public:
    StepTimer()
    {
        cudaEventCreate(&startEvent);
        cudaEventCreate(&stopEvent);
    }
    void start() { cudaEventRecord(startEvent); } // expect: SYNC102 expect-severity: note expect-message: a timing event: the elapsed time at legacy_timer_event.cu:22 reads 'startEvent'
    void stop() { cudaEventRecord(stopEvent); } // expect: SYNC102 expect-severity: note
    float ms()
    {
        float t = 0.0f;
        cudaEventElapsedTime(&t, startEvent, stopEvent);
        return t;
    }

  private:
    cudaEvent_t startEvent, stopEvent;
};

void run(float *d, int steps, StepTimer &timer, cudaEvent_t ready)
{
    cudaStream_t s;
    cudaStreamCreate(&s); // expect: SYNC103 expect-severity: note
    for (int i = 0; i < steps; i++) {
        timer.start();
        step_kernel<<<1, 32, 0, s>>>(d);
        timer.stop();
        cudaEventRecord(ready); // expect: SYNC102 expect-severity: note expect-message: convention:
        cudaStreamWaitEvent(s, ready, 0);
    }
    cudaStreamDestroy(s);
}
