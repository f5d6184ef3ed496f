// drained_join_loop.cu: a loop that sets each device in turn and waits for it ('for (g...) {
// cudaSetDevice(g); cudaDeviceSynchronize(); }') joins every device: after it nothing is queued
// anywhere, as after one device-wide wait. Work on the legacy stream right after such a join,
// with no work on another stream after it to the end of its function (nor after the calls of
// that function in the unit), serializes with nothing: a note "after a join". A copy after the
// join has nothing to wait for either. A wait only on some ways, a continue/break, a loop not
// from device 0, stream work after the join or after the legacy work keep the warnings.
#include <cuda_runtime.h>

__global__ void force(double *f) { f[threadIdx.x] = 1.0; }
__global__ void collect(const double *t, double *f) { f[threadIdx.x] += t[threadIdx.x]; }

struct Gpu {
    cudaStream_t stream;
    double *f;
};
static Gpu gpus[8];
static double *tmp, *total;

void setup(int n)
{
    for (int g = 0; g < n; ++g) {
        cudaSetDevice(g);
        cudaStreamCreate(&gpus[g].stream); // expect: SYNC103
    }
    cudaSetDevice(0);
}

// Each device computes on its own stream; the join; then a serial gather on the legacy stream.
void gather(int n, size_t bytes)
{
    for (int g = 0; g < n; ++g) {
        cudaSetDevice(g);
        force<<<1, 64, 0, gpus[g].stream>>>(gpus[g].f);
    }
    for (int g = 0; g < n; ++g) {
        cudaSetDevice(g);
        cudaDeviceSynchronize();
    }
    cudaSetDevice(0);
    for (int g = 0; g < n; ++g) {
        cudaMemcpy(tmp, gpus[g].f, bytes, cudaMemcpyDeviceToDevice); // expect: SYNC102 expect-severity: note expect-message: after a join: 'cudaDeviceSynchronize' at drained_join_loop.cu:38 drained the device, and no work on another stream is queued between it and this call, nor after this call in 'gather'
        collect<<<1, 64>>>(tmp, total); // expect: SYNC101 expect-severity: note expect-message: after a join: 'cudaDeviceSynchronize' at drained_join_loop.cu:38
    }
}

// The same join, then a readback: nothing is queued on any device for it to wait for.
void readback(int n, double *h, size_t bytes)
{
    for (int step = 0; step < 100; ++step) {
        for (int g = 0; g < n; ++g) {
            cudaSetDevice(g);
            force<<<1, 64, 0, gpus[g].stream>>>(gpus[g].f);
        }
        for (int g = 0; g < n; ++g) {
            cudaSetDevice(g);
            cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        }
        cudaMemcpy(h, gpus[0].f, bytes, cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: note expect-message: drained: the device has nothing queued here: 'cudaDeviceSynchronize' at drained_join_loop.cu:57 drained it
    }
}

// The wait only for device 0: the other devices' streams may still run.
void gather_one_joined(int n, size_t bytes)
{
    for (int g = 0; g < n; ++g) {
        cudaSetDevice(g);
        force<<<1, 64, 0, gpus[g].stream>>>(gpus[g].f);
    }
    for (int g = 0; g < n; ++g) {
        cudaSetDevice(g);
        if (g == 0)
            cudaDeviceSynchronize();
    }
    for (int g = 0; g < n; ++g)
        collect<<<1, 64>>>(gpus[g].f, total); // expect: SYNC101 expect-severity: warning
}

// A join that skips device 0: device 0's streams may still run.
void gather_skip_first(int n)
{
    for (int g = 0; g < n; ++g) {
        cudaSetDevice(g);
        force<<<1, 64, 0, gpus[g].stream>>>(gpus[g].f);
    }
    for (int g = 0; g < n; ++g) {
        if (g == 0)
            continue;
        cudaSetDevice(g);
        cudaDeviceSynchronize();
    }
    cudaSetDevice(0);
    collect<<<1, 64>>>(gpus[0].f, total); // expect: SYNC101 expect-severity: note expect-message: how often it runs is not shown
}

// A join from device 1 on: device 0 is not joined.
void gather_from_one(int n)
{
    for (int g = 0; g < n; ++g) {
        cudaSetDevice(g);
        force<<<1, 64, 0, gpus[g].stream>>>(gpus[g].f);
    }
    for (int g = 1; g < n; ++g) {
        cudaSetDevice(g);
        cudaDeviceSynchronize();
    }
    cudaSetDevice(0);
    collect<<<1, 64>>>(gpus[0].f, total); // expect: SYNC101 expect-severity: note expect-message: how often it runs is not shown
}

// A join that stops early: the devices after the first failure are not joined.
void gather_until_error(int n)
{
    for (int g = 0; g < n; ++g) {
        cudaSetDevice(g);
        force<<<1, 64, 0, gpus[g].stream>>>(gpus[g].f);
    }
    for (int g = 0; g != n; g += 1) {
        cudaSetDevice(g);
        if (cudaDeviceSynchronize() != cudaSuccess)
            break;
    }
    cudaSetDevice(0);
    collect<<<1, 64>>>(gpus[0].f, total); // expect: SYNC101 expect-severity: note expect-message: how often it runs is not shown
}

// A launch on a created stream after the join: the legacy work waits for it.
void gather_after_more(int n)
{
    for (int g = 0; g < n; ++g) {
        cudaSetDevice(g);
        cudaDeviceSynchronize();
    }
    cudaSetDevice(0);
    force<<<1, 64, 0, gpus[0].stream>>>(gpus[0].f);
    collect<<<1, 64>>>(gpus[0].f, total); // expect: SYNC101 expect-severity: note expect-message: how often it runs is not shown
}

// Work on a created stream after the legacy work: it waits for the legacy work.
void gather_then_more(int n)
{
    for (int g = 0; g < n; ++g) {
        cudaSetDevice(g);
        cudaDeviceSynchronize();
    }
    cudaSetDevice(0);
    collect<<<1, 64>>>(gpus[0].f, total); // expect: SYNC101 expect-severity: note expect-message: how often it runs is not shown
    force<<<1, 64, 0, gpus[1].stream>>>(gpus[1].f);
}

// A step of the unit's own loop: the next step's stream work comes after the gather. (It is
// given a stream it does not use: legacy work with a stream at hand is a warning.)
static void join_and_gather(cudaStream_t unused)
{
    (void)unused;
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    collect<<<1, 64>>>(gpus[0].f, total); // expect: SYNC101 expect-severity: warning
}

void run(int n, int steps)
{
    for (int s = 0; s < steps; ++s) {
        for (int g = 0; g < n; ++g) {
            cudaSetDevice(g);
            force<<<1, 64, 0, gpus[g].stream>>>(gpus[g].f);
        }
        join_and_gather(gpus[0].stream);
    }
}

// Since session 32 a warning whose call is in no loop that lint sees ends as the note "how often
// it runs is not shown" (docs/lint.md, "Warning or note", item 5): such a case that stays a
// warning above is that note here, asserted by its words (no other reason for a note applies).
