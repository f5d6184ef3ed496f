// periodic_work.cu: work a loop does only once in a while, under a test of a remainder against
// 0 ('if (step % log_every == 0)': logging, evaluation, checkpoints every N steps), costs a
// fraction of an iteration: a note that says so. A test that alternates ('i % 2', a constant
// divisor below 8: ping-pong buffers) does not make the work rare: it stays a warning, and so
// does a call that a loop also makes outside such a test.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void train_step(float *w) { w[threadIdx.x] -= 0.1f; }

// Reached only through the test in 'train': a loss read back for the log.
static float read_loss(const float *d_loss)
{
    float loss = 0.0f;
    cudaMemcpy(&loss, d_loss, sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: periodic: every call from a loop runs once in a while (line 26 tests 'step % log_every == 0')
    return loss;
}

// Reached from both loops of 'train', once outside a test: per iteration.
static void drain(void) { cudaDeviceSynchronize(); } // expect: SYNC401 expect-severity: warning

void train(float *w, float *d_loss, int steps, int log_every, cudaStream_t s)
{
    for (int step = 0; step < steps; step++) {
        train_step<<<1, 32, 0, s>>>(w);
        if (step % log_every == 0)
            printf("step %d loss %f\n", step, read_loss(d_loss));
        if (!(step % 100)) {
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: periodic: it runs once in a while (line 28 tests '!(step % 100)')
            drain();
        }
        if (step % 2 == 0)
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
    }
    for (int i = 0; i < steps; i++) {
        train_step<<<1, 32, 0, s>>>(w);
        drain();
    }
}
