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
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: the loop times its iterations ('Stop'
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
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: the loop times its iterations
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

/* Not timers' readings: a watchdog re-armed each step ('void stop'), a queue of timers and a
 * retimer's register (a double, but the class is no timer by its last word). */
class WatchdogTimer
{
  public:
    void start();
    void stop();
};

class TimerQueue
{
  public:
    double stop();
};

class RetimerConfig
{
  public:
    double read(int lane);
};

void watchdog(float *x, int n, int rounds, WatchdogTimer &dog, TimerQueue &queue,
              RetimerConfig &retimer)
{
    for (int r = 0; r < rounds; r++) {
        dog.start();
        step<<<(n + 255) / 256, 256>>>(x, n); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        dog.stop();
        queue.stop();
        retimer.read(r);
    }
}

/* A training loop that times its step with the timer and evaluates outside it: not a
 * benchmark; Timer::Start opens the region. */
static void evaluate(float *x, int n)
{
    step<<<(n + 255) / 256, 256>>>(x, n); // expect: SYNC101 expect-severity: note
}

double train(float *x, int n, int epochs)
{
    double t = 0.0;
    for (int e = 0; e < epochs; e++) {
        int h = Timer::Start();
        step<<<(n + 255) / 256, 256>>>(x, n); // expect: SYNC101 expect-severity: note
        t += Timer::Stop(h, "step");
        evaluate(x, n);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning expect-message: not a benchmark: the loop times lines 112 to 114
    }
    return t;
}
