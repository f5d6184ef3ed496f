// chooses_async.cu: a value read back asynchronously and waited for (instant-ngp's
// NerfTracer::trace: 'cudaMemcpyAsync(&n_alive, ...)' then 'cudaStreamSynchronize' inside a bare
// block, then 'if (n_alive == 0) break;' and the program's own calls before the next launch) that
// the loop's exit test needs before any other device work: the readback and the wait for it are
// notes that name the test (chooses.c), as for a synchronous readback (chooses_next.cu). So is
// a parameter taken by value that the readback writes, and a getter whose one-value readback is
// asynchronous and waited for. Still warnings: a wait for the whole device (it also waits for
// other streams' work, which the value does not need), a wait that also completes another copy
// to the host, a value the host only prints or sums, a test that only does host work.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void compact(unsigned n, const float *in, float *out, unsigned *alive)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && in[i] > 0.0f)
        out[atomicAdd(alive, 1u)] = in[i];
}
__global__ void march(unsigned n, float *rays)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        rays[i] -= 0.25f;
}

unsigned steps_for(unsigned n);

// instant-ngp's shape: a bare block holds the readback and its wait; the exit test follows it,
// then a call of the program before the launch.
unsigned trace(float *a, float *b, unsigned *d_alive, unsigned n_rays, cudaStream_t stream)
{
    unsigned i = 1, n_alive = n_rays;
    while (i < 1024) {
        {
            cudaMemsetAsync(d_alive, 0, sizeof(unsigned), stream);
            compact<<<(n_alive + 255) / 256, 256, 0, stream>>>(n_alive, a, b, d_alive);
            cudaMemcpyAsync(&n_alive, d_alive, sizeof(unsigned), cudaMemcpyDeviceToHost, stream); // expect: SYNC201, SYNC301 expect-severity: note expect-message: inherent: the value chooses the next device work (line 40's 'if' tests it before any launch)
            cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: note expect-message: inherent: it waits for the value read back at line 37, which chooses the next device work (line 40's 'if' tests it before any launch)
        }
        if (n_alive == 0) {
            break;
        }
        unsigned k = steps_for(n_alive);
        march<<<(n_alive * k + 255) / 256, 256, 0, stream>>>(n_alive, b);
        i += k;
    }
    return i;
}

// The same value in a parameter taken by value, read back synchronously.
unsigned trace_param(float *a, float *b, unsigned *d_alive, unsigned n_alive)
{
    unsigned i = 1;
    while (i < 1024) {
        compact<<<(n_alive + 255) / 256, 256>>>(n_alive, a, b, d_alive); // expect: SYNC101
        cudaMemcpy(&n_alive, d_alive, sizeof(unsigned), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent: the value chooses the next device work (line 57's 'if' tests it before any launch)
        if (n_alive == 0)
            break;
        unsigned k = steps_for(n_alive);
        march<<<(n_alive * k + 255) / 256, 256>>>(n_alive, b); // expect: SYNC101
        i += k;
    }
    return i;
}

// A wait for the whole device: it also waits for other streams' work.
unsigned trace_device_wait(float *a, float *b, unsigned *d_alive, unsigned n_rays,
                           cudaStream_t stream)
{
    unsigned i = 1, n_alive = n_rays;
    while (i < 1024) {
        compact<<<(n_alive + 255) / 256, 256, 0, stream>>>(n_alive, a, b, d_alive);
        cudaMemcpyAsync(&n_alive, d_alive, sizeof(unsigned), cudaMemcpyDeviceToHost, stream); // expect: SYNC201, SYNC301 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        if (n_alive == 0)
            break;
        march<<<64, 256, 0, stream>>>(n_alive, b);
        i += 8;
    }
    return i;
}

// The wait also completes a copy of a whole buffer to the host, which the value does not need.
unsigned trace_two_copies(float *a, float *b, unsigned *d_alive, unsigned n_rays, float *h_rays,
                          cudaStream_t stream)
{
    unsigned i = 1, n_alive = n_rays;
    while (i < 1024) {
        compact<<<(n_alive + 255) / 256, 256, 0, stream>>>(n_alive, a, b, d_alive);
        cudaMemcpyAsync(h_rays, b, 4096 * sizeof(float), cudaMemcpyDeviceToHost, stream);
        cudaMemcpyAsync(&n_alive, d_alive, sizeof(unsigned), cudaMemcpyDeviceToHost, stream); // expect: SYNC201, SYNC301 expect-severity: note
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: warning
        if (n_alive == 0)
            break;
        march<<<64, 256, 0, stream>>>(n_alive, b);
        i += 8;
    }
    return i;
}

// The value is only printed: nothing on the host needs it before the next launch.
void trace_printed(float *a, float *b, unsigned *d_alive, unsigned n, cudaStream_t stream)
{
    for (int i = 0; i < 100; i++) {
        unsigned alive = 0;
        compact<<<(n + 255) / 256, 256, 0, stream>>>(n, a, b, d_alive);
        cudaMemcpyAsync(&alive, d_alive, sizeof(unsigned), cudaMemcpyDeviceToHost, stream); // expect: SYNC201, SYNC301 expect-no-message: chooses the next device work
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: warning
        printf("%u alive\n", alive);
        march<<<(n + 255) / 256, 256, 0, stream>>>(n, b);
    }
}

// The test only keeps the largest count on the host: it chooses no device work.
unsigned trace_kept(float *a, float *b, unsigned *d_alive, unsigned n, cudaStream_t stream)
{
    unsigned most = 0;
    for (int i = 0; i < 100; i++) {
        unsigned alive = 0;
        compact<<<(n + 255) / 256, 256, 0, stream>>>(n, a, b, d_alive);
        cudaMemcpyAsync(&alive, d_alive, sizeof(unsigned), cudaMemcpyDeviceToHost, stream); // expect: SYNC201, SYNC301 expect-no-message: chooses the next device work
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: warning
        if (alive > most)
            most = alive;
        march<<<(n + 255) / 256, 256, 0, stream>>>(n, b);
    }
    return most;
}

// A getter whose readback is asynchronous and waited for; its one caller's loop tests the value
// and leaves.
static unsigned alive_count(const unsigned *d_alive, cudaStream_t stream)
{
    unsigned n;
    cudaMemcpyAsync(&n, d_alive, sizeof(unsigned), cudaMemcpyDeviceToHost, stream); // expect: SYNC201, SYNC301 expect-severity: note expect-message: inherent: each call of 'alive_count()' in a loop of the unit needs the value before any other device work: chooses_async.cu:145 (line 146's 'if' tests it before any launch)
    cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: note expect-message: inherent: each call of 'alive_count()' in a loop of the unit needs the value
    return n;
}

unsigned trace_getter(float *a, float *b, unsigned *d_alive, unsigned n, cudaStream_t stream)
{
    unsigned i = 0;
    for (; i < 1024; i++) {
        compact<<<(n + 255) / 256, 256, 0, stream>>>(n, a, b, d_alive);
        unsigned alive = alive_count(d_alive, stream);
        if (alive == 0)
            break;
        march<<<(alive + 255) / 256, 256, 0, stream>>>(alive, b);
    }
    return i;
}
