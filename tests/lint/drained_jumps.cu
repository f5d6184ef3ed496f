// drained_jumps.cu: the drained flow follows jumps. A wait reached by a goto past the copy, a
// case label that a switch enters directly, a handler entered from a throw, or a break out of the
// loop before the wait, may be reached with work queued: a warning. Where every way in is drained
// (each goto to a label jumps from a drained device) the note stays. A copy whose next wait a
// goto or a throw may skip is no "drained anyway" note. The unit's streams block, so a
// synchronous copy to the host drains the device.
#include <cuda_runtime.h>
__global__ void fill(float *d) { d[threadIdx.x] = 1.0f; }
static cudaStream_t s;
void make() { cudaStreamCreate(&s); } // expect: SYNC103 expect-severity: note

float by_goto(float *d, int iters, int skip)
{
    float h = 0;
    for (int i = 0; i < iters; i++) {
        fill<<<1, 32, 0, s>>>(d);
        if (i % skip)
            goto wait;
        cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: drained anyway: 'cudaDeviceSynchronize' at line 21
    wait:
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
    return h;
}

float wait_goto(float *d, int iters, int skip)
{
    for (int i = 0; i < iters; i++) {
        fill<<<1, 32, 0, s>>>(d);
        if (i % skip)
            goto again;
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    again:
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
    return 0;
}

float both_drained(float *d, int iters, int skip)
{
    float h = 0;
    for (int i = 0; i < iters; i++) {
        fill<<<1, 32, 0, s>>>(d);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        if (i % skip)
            goto wait;
        cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note
    wait:
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained: the device has nothing queued here
    }
    return h;
}

float by_switch(float *d, int iters, int skip)
{
    float h = 0;
    for (int i = 0; i < iters; i++) {
        fill<<<1, 32, 0, s>>>(d);
        switch (i % skip) {
        case 0:
            cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: drained anyway
        default:
            cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        }
    }
    return h;
}

float switch_break(float *d, int iters, int skip)
{
    float h = 0;
    for (int i = 0; i < iters; i++) {
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: 'cudaDeviceSynchronize' at drained_jumps.cu:82 drained it
        switch (i % skip) {
        case 0:
            fill<<<1, 32, 0, s>>>(d);
            break;
        default:
            cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
            break;
        }
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
    return h;
}

static void maybe_throw(int i)
{
    if (i % 2)
        throw i;
}

float by_throw(float *d, int iters)
{
    float h = 0;
    for (int i = 0; i < iters; i++) {
        fill<<<1, 32, 0, s>>>(d);
        try {
            maybe_throw(i);
            cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        } catch (int) {
        }
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
    return h;
}

float in_handler(float *d, int iters)
{
    float h = 0;
    for (int i = 0; i < iters; i++) {
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained: the device has nothing queued here
        try {
            maybe_throw(i);
        } catch (int) {
            fill<<<1, 32, 0, s>>>(d);
            cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        }
    }
    return h;
}

float by_break(float *d, int iters, int stop)
{
    for (int j = 0; j < iters; j++) {
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: 'cudaDeviceSynchronize' at drained_jumps.cu:133 drained it
        for (int i = 0; i < iters; i++) {
            fill<<<1, 32, 0, s>>>(d);
            if (i == stop)
                break;
            cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        }
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
    return 0;
}

float copy_then_goto(float *d, float *h, int iters, int skip)
{
    for (int i = 0; i < iters; i++) {
        fill<<<1, 32, 0, s>>>(d);
        cudaMemcpyAsync(h, d, sizeof *h, cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: warning expect-no-message: drained anyway
        if (i % skip)
            goto next;
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    next:
        *h += 1;
    }
    return *h;
}

float copy_then_throw(float *d, float *h, int iters)
{
    for (int i = 0; i < iters; i++) {
        fill<<<1, 32, 0, s>>>(d);
        cudaMemcpyAsync(h, d, sizeof *h, cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: warning expect-no-message: drained anyway
        if (i == iters - 1)
            throw i;
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
    return *h;
}

float copy_then_wait(float *d, float *h, int iters)
{
    for (int i = 0; i < iters; i++) {
        fill<<<1, 32, 0, s>>>(d);
        cudaMemcpyAsync(h, d, sizeof *h, cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: note expect-message: drained anyway
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
    return *h;
}

// A throw or a goto after the wait, in its own error check, skips no wait: the note stays.
static void check(cudaError_t e)
{
    if (e != cudaSuccess)
        throw e;
}

float copy_then_checked_wait(float *d, float *h, int iters)
{
    for (int i = 0; i < iters; i++) {
        fill<<<1, 32, 0, s>>>(d);
        cudaMemcpyAsync(h, d, sizeof *h, cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: note expect-message: drained anyway: 'cudaDeviceSynchronize' at line 186
        check(cudaDeviceSynchronize()); // expect: SYNC401 expect-severity: warning
    }
    return *h;
}

int copy_then_wait_or_fail(float *d, float *h, int iters)
{
    for (int i = 0; i < iters; i++) {
        fill<<<1, 32, 0, s>>>(d);
        cudaMemcpyAsync(h, d, sizeof *h, cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: note expect-message: drained anyway: 'cudaDeviceSynchronize' at line 196
        if (cudaDeviceSynchronize() != cudaSuccess) // expect: SYNC401 expect-severity: warning
            goto fail;
    }
    return 0;
fail:
    return 1;
}
