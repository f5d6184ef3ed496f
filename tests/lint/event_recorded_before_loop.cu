// event_recorded_before_loop.cu: a wait in a loop for an event that nothing in the loop (or in
// what the loop calls) records again: it was recorded once before the loop, so the wait blocks
// at most once, on the first iteration, and not at all where the event was waited for before
// the loop too (a flag uploaded on a side stream, recorded and awaited, then awaited again at
// the top of every pass through a helper). Notes. It stays a warning where the loop records
// the event, where a function the loop calls records the member, where the event is handed to
// a function the loop calls, where a lambda handed away before the loop may record it while the
// loop runs, or where it is a parameter that the caller may record.
#include <cuda_runtime.h>

__global__ void pass(int *v, int level) { v[threadIdx.x] >>= level; }

struct Flag {
    int *host;
    int *dev;
    cudaEvent_t sent;
    void send(cudaStream_t s)
    {
        cudaMemcpyAsync(dev, host, sizeof(int), cudaMemcpyHostToDevice, s);
        cudaEventRecord(sent, s);
    }
    void wait_sent() { cudaEventSynchronize(sent); } // expect: SYNC401 expect-severity: note expect-message: the event is recorded only before the loop (event_recorded_before_loop.cu:42): after the first wait this one returns at once
};

struct Beacon {
    cudaEvent_t lit;
    void light(cudaStream_t s) { cudaEventRecord(lit, s); }
    void watch() { cudaEventSynchronize(lit); } // expect: SYNC401 expect-severity: warning
};

static Flag flag;
static Beacon beacon;

void one_pass(int *v, int level, cudaStream_t work)
{
    flag.wait_sent();
    pass<<<1, 32, 0, work>>>(v, level);
}

void levels(int *v, int count, cudaStream_t work, cudaStream_t side)
{
    flag.send(side);
    flag.wait_sent();
    for (int level = 0; level < count; ++level)
        one_pass(v, level, work);
}

void beacons(int *v, int count, cudaStream_t work)
{
    beacon.light(work);
    for (int level = 0; level < count; ++level) {
        pass<<<1, 32, 0, work>>>(v, level);
        beacon.watch();
        beacon.light(work);
    }
}

void local_waited(int *v, int count, cudaStream_t work)
{
    cudaEvent_t ready;
    cudaEventCreate(&ready);
    pass<<<1, 32, 0, work>>>(v, 0);
    cudaEventRecord(ready, work);
    cudaEventSynchronize(ready);
    for (int level = 1; level < count; ++level) {
        pass<<<1, 32, 0, work>>>(v, level);
        cudaEventSynchronize(ready); // expect: SYNC401 expect-severity: note expect-message: the event is recorded only before the loop (line 63): after the first wait this one returns at once
    }
}

void local_first(int *v, int count, cudaStream_t work)
{
    cudaEvent_t ready;
    cudaEventCreate(&ready);
    pass<<<1, 32, 0, work>>>(v, 0);
    cudaEventRecord(ready, work);
    for (int level = 1; level < count; ++level) {
        pass<<<1, 32, 0, work>>>(v, level);
        cudaEventSynchronize(ready); // expect: SYNC401 expect-severity: note expect-message: the event is recorded only before the loop (line 76): it blocks at most once, on the first iteration
    }
}

void local_recorded(int *v, int count, cudaStream_t work)
{
    cudaEvent_t ready;
    cudaEventCreate(&ready);
    cudaEventRecord(ready, work);
    for (int level = 1; level < count; ++level) {
        pass<<<1, 32, 0, work>>>(v, level);
        cudaEventRecord(ready, work);
        cudaEventSynchronize(ready); // expect: SYNC401 expect-severity: warning
    }
}

void mark_done(cudaEvent_t e, cudaStream_t s) { cudaEventRecord(e, s); }

void local_passed(int *v, int count, cudaStream_t work)
{
    cudaEvent_t ready;
    cudaEventCreate(&ready);
    cudaEventRecord(ready, work);
    for (int level = 1; level < count; ++level) {
        pass<<<1, 32, 0, work>>>(v, level);
        cudaEventSynchronize(ready); // expect: SYNC401 expect-severity: warning
        mark_done(ready, work);
    }
}

void given(int *v, int count, cudaStream_t work, cudaEvent_t ready)
{
    cudaEventRecord(ready, work);
    for (int level = 1; level < count; ++level) {
        pass<<<1, 32, 0, work>>>(v, level);
        cudaEventSynchronize(ready); // expect: SYNC401 expect-severity: warning
    }
}

// Runs 'f' now; a callback queue or a thread could keep it and run it while the loop runs.
template <typename F> void defer(F f) { f(); }

void local_deferred(int *v, int count, cudaStream_t work)
{
    cudaEvent_t ready;
    cudaEventCreate(&ready);
    cudaEventRecord(ready, work);
    defer([&] { cudaEventRecord(ready, work); });
    for (int level = 1; level < count; ++level) {
        pass<<<1, 32, 0, work>>>(v, level);
        cudaEventSynchronize(ready); // expect: SYNC401 expect-severity: warning
    }
}
