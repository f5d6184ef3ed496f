// out_param_callers.cu: a readback whose value the function hands to its caller through an out
// parameter, as its last statement, where every call from a loop gives that parameter a plain
// local whose next use in the caller sizes device work (a copy, a launch) is inherent: the host
// needs the value to queue that work, as where the caller reads it back itself (hornet's
// kcores_new, held-out-35's shape CN: the batch's size, then the batch's copy sized by it). A
// caller that only prints it or reads it after the loop, a second loop caller that does not
// need it, or a handover that is not the function's last statement keeps the warning.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void peel(int *c) { atomicAdd(c, 1); }

void batch(int *counter, int *batch_size)
{
    peel<<<1, 1>>>(counter); // expect: SYNC101
    int size = 0;
    cudaMemcpy(&size, counter, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent: it hands the value to its caller through 'batch_size', and every call from a loop is followed by device work that needs it (the call at out_param_callers.cu:26: the next statement needs the value (line 27 branches on it, and line 28 sizes a copy with it))
    *batch_size = size;
}

void peel_all(int *counter, int *out, int ne)
{
    int done = 0;
    while (done < ne) {
        int batch_size = 0;
        batch(counter, &batch_size);
        if (batch_size > 0) {
            cudaMemcpy(out + done, counter, batch_size * sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC202
            done += batch_size;
        }
    }
}

// Through a reference, the value sizing the next launch.
void count_ref(int *counter, int &n)
{
    peel<<<1, 1>>>(counter); // expect: SYNC101
    int size = 0;
    cudaMemcpy(&size, counter, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent: it hands the value to its caller through 'n'
    n = size;
}

void grow(int *counter, int steps)
{
    for (int i = 0; i < steps; i++) {
        int n = 0;
        count_ref(counter, n);
        peel<<<(n + 255) / 256, 256>>>(counter); // expect: SYNC101
    }
}

// The caller only prints the value: the stall is the loop's to remove.
void printed(int *counter, int *count)
{
    peel<<<1, 1>>>(counter); // expect: SYNC101
    int size = 0;
    cudaMemcpy(&size, counter, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
    *count = size;
}

void log_counts(int *counter, int steps)
{
    for (int i = 0; i < steps; i++) {
        int c = 0;
        printed(counter, &c);
        printf("%d\n", c);
    }
}

// One loop sizes a copy with it, another does not need it: a warning.
void mixed(int *counter, int *count)
{
    peel<<<1, 1>>>(counter); // expect: SYNC101
    int size = 0;
    cudaMemcpy(&size, counter, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
    *count = size;
}

void mixed_sized(int *counter, int *out, int steps)
{
    for (int i = 0; i < steps; i++) {
        int c = 0;
        mixed(counter, &c);
        cudaMemcpy(out, counter, c * sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC202
    }
}

void mixed_ignored(int *counter, int steps)
{
    for (int i = 0; i < steps; i++) {
        int c = 0;
        mixed(counter, &c);
        peel<<<1, 1>>>(counter); // expect: SYNC101
    }
}

// The handover is not the function's last statement: more device work follows it.
void not_last(int *counter, int *count)
{
    peel<<<1, 1>>>(counter); // expect: SYNC101
    int size = 0;
    cudaMemcpy(&size, counter, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
    *count = size;
    peel<<<1, 1>>>(counter); // expect: SYNC101
}

void not_last_loop(int *counter, int *out, int steps)
{
    for (int i = 0; i < steps; i++) {
        int c = 0;
        not_last(counter, &c);
        cudaMemcpy(out, counter, c * sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC202
    }
}
