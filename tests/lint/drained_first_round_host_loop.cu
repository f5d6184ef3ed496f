// drained_first_round_host_loop.cu: the first round of a flag loop (an upload drained on the
// back edge in every round but the first) with host work between the upload and the round's
// launch. A loop of host arithmetic there is work that could have overlapped the kernel queued
// before the loop, which the upload now waits for on the first round of every pass: a warning,
// as with a call there; two plain statements between keep the note ("waits for anyway").
#include <cuda_runtime.h>

__global__ void prime(int *v, int n) { v[n - 1] = 0; }
__global__ void step(int *v, int n, int *flag) { if (v[0] > n) *flag = 1; }

int host_loop_between(int *v, int n, int *d_flag, int passes, float *h, long m)
{
    int rounds = 0;
    for (int p = 0; p < passes; p++) {
        prime<<<1, 32>>>(v, n); // expect: SYNC101
        int flag;
        do {
            flag = 0;
            cudaMemcpy(d_flag, &flag, sizeof flag, cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: warning
            for (long i = 1; i < m; i++)
                h[i] = h[i - 1] * 0.5f + h[i];
            step<<<1, 32>>>(v, n, d_flag); // expect: SYNC101
            cudaDeviceSynchronize(); // expect: SYNC401
            cudaMemcpy(&flag, d_flag, sizeof flag, cudaMemcpyDeviceToHost); // expect: SYNC301
            rounds++;
        } while (flag);
    }
    return rounds;
}

int plain_between(int *v, int n, int *d_flag, int passes)
{
    int rounds = 0;
    for (int p = 0; p < passes; p++) {
        prime<<<1, 32>>>(v, n); // expect: SYNC101
        int flag;
        do {
            flag = 0;
            cudaMemcpy(d_flag, &flag, sizeof flag, cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: note expect-message: waits for anyway on the legacy default stream
            rounds++;
            step<<<1, 32>>>(v, n, d_flag); // expect: SYNC101
            cudaDeviceSynchronize(); // expect: SYNC401
            cudaMemcpy(&flag, d_flag, sizeof flag, cudaMemcpyDeviceToHost); // expect: SYNC301
        } while (flag);
    }
    return rounds;
}
