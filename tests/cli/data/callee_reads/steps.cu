// steps.cu: each step relaxes the cells, waits for the whole device, then calls another unit's
// function that reads results back. Where that function opens with a synchronous copy between
// the host and the device on every way, the copy waits for the same work: the wait is a note.
#include "fetch.h"
#include <sys/time.h>
__global__ void relax(float *c, int n) { c[threadIdx.x % n] *= 0.5f; }

void steps(float *dev, float *host, int n, int count, bool up)
{
    for (int s = 0; s < count; s++) {
        relax<<<1, 64>>>(dev, n);
        cudaDeviceSynchronize();
        read_back(host, dev, n);
    }
    for (int s = 0; s < count; s++) {
        relax<<<1, 64>>>(dev, n);
        cudaDeviceSynchronize();
        read_either(host, dev, n, up);
    }
    for (int s = 0; s < count; s++) {
        relax<<<1, 64>>>(dev, n);
        cudaDeviceSynchronize();
        read_if(host, dev, n, up);
    }
    for (int s = 0; s < count; s++) {
        relax<<<1, 64>>>(dev, n);
        cudaDeviceSynchronize();
        launch_then_read(host, dev, n);
    }
    for (int s = 0; s < count; s++) {
        relax<<<1, 64>>>(dev, n);
        cudaDeviceSynchronize();
        read_async(host, dev, n);
    }
    for (int s = 0; s < count; s++) {
        relax<<<1, 64>>>(dev, n);
        cudaDeviceSynchronize();
        read_twice(host, dev, n);
    }
    for (int s = 0; s < count; s++) {
        relax<<<1, 64>>>(dev, n);
        cudaDeviceSynchronize();
        read_weak(host, dev, n);
    }
    for (int s = 0; s < count; s++) {
        relax<<<1, 64>>>(dev, n);
        cudaDeviceSynchronize();
        read_broken(host, dev, n);
    }
    for (int s = 0; s < count; s++) {
        finish(host, dev, n);
    }
}

// The wait serves a read of managed memory before the call.
void steps_managed(float *dev, float *host, const float *managed, int n, int count, float *firsts)
{
    for (int s = 0; s < count; s++) {
        relax<<<1, 64>>>(dev, n);
        cudaDeviceSynchronize();
        firsts[s] = managed[0];
        read_back(host, dev, n);
    }
}

// A timer's read between the wait and the call: the loop times its iterations.
void steps_timed(float *dev, float *host, int n, int count)
{
    struct timeval t;
    for (int s = 0; s < count; s++) {
        relax<<<1, 64>>>(dev, n);
        cudaDeviceSynchronize();
        gettimeofday(&t, 0);
        read_back(host, dev, n);
    }
}

// The callee's copy is in a checking macro written as 'do { ... } while (0)'.
void steps_checked(float *dev, float *host, int n, int count)
{
    for (int s = 0; s < count; s++) {
        relax<<<1, 64>>>(dev, n);
        cudaDeviceSynchronize();
        read_checked(host, dev, n);
    }
}

// The loops above never read what the callee copies back: the next iteration's copy overwrites
// it, so the copy's stall is the loop's to remove (warnings). These read it after the call.
__managed__ int limit;
float steps_read(float *dev, float *host, int n, int count, bool up)
{
    float sum = 0, one;
    const float &last = host[n - 1];
    for (int s = 0; s < count; s++) {
        relax<<<1, 64>>>(dev, n);
        cudaDeviceSynchronize();
        read_back(host, dev, n);
        sum += host[0];
    }
    for (int s = 0; s < count; s++) {
        relax<<<1, 64>>>(dev, n);
        cudaDeviceSynchronize();
        read_either(host, dev, n, false);
        if (host[1] > sum)
            break;
    }
    for (int s = 0; s < count; s++) {
        relax<<<1, 64>>>(dev, n);
        cudaDeviceSynchronize();
        read_back(&one, dev, 1);
        sum += one;
    }
    for (int s = 0; s < count; s++) {
        relax<<<1, 64>>>(dev, n);
        cudaDeviceSynchronize();
        read_either(host, dev, n, up);
        sum += host[0];
    }
    for (int s = 0; s < count; s++) {
        relax<<<1, 64>>>(dev, n);
        cudaDeviceSynchronize();
        read_back(host, dev, n);
        host[0] = sum;
        sum += host[1];
    }
    for (int s = 0; s < count; s++) {
        relax<<<1, 64>>>(dev, n);
        cudaDeviceSynchronize();
        int m = limit;
        read_back(host, dev, m);
        sum += host[0];
    }
    for (int s = 0; s < count; s++) {
        relax<<<1, 64>>>(dev, n);
        cudaDeviceSynchronize();
        read_back(host, dev, last > 0 ? n : 1);
        sum += host[0];
    }
    for (int s = 0; s < count; s++) {
        relax<<<1, 64>>>(dev, n);
        cudaDeviceSynchronize();
        read_counted(host, dev);
        sum += host[0];
    }
    for (int s = 0; s < count; s++) {
        relax<<<1, 64>>>(dev, n);
        cudaDeviceSynchronize();
        read_checked(host, dev, n);
        sum += host[0];
    }
    for (int s = 0; s < count; s++) {
        relax<<<1, 64>>>(dev, n);
        cudaDeviceSynchronize();
        read_back(host, dev, n);
        sum += s == count - 1 ? host[0] : 0.0f;
    }
    for (int s = 0; s < count; s++) {
        relax<<<1, 64>>>(dev, n);
        cudaDeviceSynchronize();
        read_back(host, dev, n);
        decltype(host[0]) last = sum;
        (void)last;
    }
    return sum;
}
