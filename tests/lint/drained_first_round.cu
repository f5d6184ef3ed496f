// drained_first_round.cu: an upload at the top of a loop whose rounds end by draining the
// device (a wait and a readback of a flag, the loop's condition) waits for queued work in its
// first round only: the work queued just before the loop. Nested in another loop, that is once
// per pass of the outer loop; where the next launch waits for the same work anyway on the
// legacy stream (in order), a note; where the next statement does host work first, a warning.
// As its function's only loop, once per call: a note that names the work (at 24668ac it said
// "no work is queued between it and this call on any way the unit reaches it").
#include <cuda_runtime.h>

__global__ void seed(int *v, int n) { v[n - 1] = 0; }
__global__ void relax(int *v, int n, int *changed) { if (v[0] > n) *changed = 1; }

void prepare(int *host, int n);

int settle_blocks(int *v, int n, int *d_changed, int blocks)
{
    int rounds = 0;
    for (int b = 0; b < blocks; b++) {
        seed<<<1, 32>>>(v, n); // expect: SYNC101
        int changed;
        do {
            changed = 0;
            rounds++;
            cudaMemcpy(d_changed, &changed, sizeof(int), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: note expect-message: drained in every round but the first; the first round waits for 'seed' at line 19, once per pass of the loop at line 18, work that the next launch, 'relax' (line 25), waits for anyway on the legacy default stream
            relax<<<1, 32>>>(v, n, d_changed); // expect: SYNC101
            cudaDeviceSynchronize(); // expect: SYNC401
            cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301
        } while (changed);
    }
    return rounds;
}

int settle_once(int *v, int n, int *d_changed)
{
    seed<<<1, 32>>>(v, n); // expect: SYNC101
    int changed;
    do {
        changed = 0;
        cudaMemcpy(d_changed, &changed, sizeof(int), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: note expect-message: drained in every round but the first; the first round waits for 'seed' at line 35, once per call of 'settle_once', as a copy before the loop would
        relax<<<1, 32>>>(v, n, d_changed); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401
        cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301
    } while (changed);
    return changed;
}

// The host prepares its buffer between the upload and the launch: the first round's wait for
// 'seed' holds that work up, once per pass; a warning.
void settle_prepared(int *v, int *host, int n, int *d_changed, int blocks)
{
    for (int b = 0; b < blocks; b++) {
        seed<<<1, 32>>>(v, n); // expect: SYNC101
        int changed;
        do {
            changed = 0;
            cudaMemcpy(d_changed, &changed, sizeof(int), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: warning expect-message: drained in every round but the first; the first round waits for 'seed' at line 52, once per pass of the loop at line 51, work that the round's next launch does not wait for anyway
            prepare(host, n);
            relax<<<1, 32>>>(v, n, d_changed); // expect: SYNC101
            cudaDeviceSynchronize(); // expect: SYNC401
            cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301
        } while (changed);
    }
}

// A fixed count of rounds with no wait in them: every round's upload waits for the previous
// round's launch; a warning as before.
void sweep_blocks(int *v, int n, int *d_changed, int blocks, int rounds)
{
    for (int b = 0; b < blocks; b++) {
        seed<<<1, 32>>>(v, n); // expect: SYNC101
        for (int r = 0; r < rounds; r++) {
            int changed = 0;
            cudaMemcpy(d_changed, &changed, sizeof(int), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: warning expect-no-message: drained in every round but the first
            relax<<<1, 32>>>(v, n, d_changed); // expect: SYNC101
        }
    }
    cudaDeviceSynchronize();
}

// A wait before the loop: the first round finds the device drained too; the note says so.
int settle_after_wait(int *v, int n, int *d_changed)
{
    seed<<<1, 32>>>(v, n); // expect: SYNC101
    cudaDeviceSynchronize();
    int changed;
    do {
        changed = 0;
        cudaMemcpy(d_changed, &changed, sizeof(int), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: note expect-no-message: every round but the first
        relax<<<1, 32>>>(v, n, d_changed); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401
        cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301
    } while (changed);
    return changed;
}

// A call of another unit's function between the launch and the loop may wait itself: the walk
// back from the loop stops there, and the note keeps the "drained" words.
void log_block(int b);

int settle_logged(int *v, int n, int *d_changed)
{
    seed<<<1, 32>>>(v, n); // expect: SYNC101
    log_block(0);
    int changed;
    do {
        changed = 0;
        cudaMemcpy(d_changed, &changed, sizeof(int), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: note expect-no-message: every round but the first
        relax<<<1, 32>>>(v, n, d_changed); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401
        cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301
    } while (changed);
    return changed;
}
