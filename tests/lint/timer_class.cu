// timer_class.cu: a loop that ends each phase with a timer class's Stop (SHOC's Timer, defined
// in another unit) times its iterations, as one that reads the clock itself does: its waits
// are part of the measurement. A Stop of a class that is not a timer proves nothing.
#include <cuda_runtime.h>

class Timer
{
  public:
    static int Start();
    static double Stop(int handle, const char *description);
};

struct GpuTimer {
    void Start();
    void Stop();
    float ElapsedMillis();
};

class WorkerPool
{
  public:
    void stop();
};

__global__ void step(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += 1.0f;
}

double timed_phases(float *x, int n, int rounds)
{
    double total = 0.0;
    for (int r = 0; r < rounds; r++) {
        int handle = Timer::Start();
        step<<<(n + 255) / 256, 256>>>(x, n); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: the loop
                                 // times its iterations ('Stop'
        total += Timer::Stop(handle, "step");
    }
    return total;
}

float timed_by_member(float *x, int n, int rounds)
{
    GpuTimer timer;
    float total = 0.0f;
    for (int r = 0; r < rounds; r++) {
        timer.Start();
        step<<<(n + 255) / 256, 256>>>(x, n); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: the loop
                                 // times its iterations
        timer.Stop();
        total += timer.ElapsedMillis();
    }
    return total;
}

void not_a_timer(float *x, int n, int rounds, WorkerPool *pool)
{
    for (int r = 0; r < rounds; r++) {
        step<<<(n + 255) / 256, 256>>>(x, n); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize();              // expect: SYNC401 expect-severity: warning
        pool->stop();
    }
}
