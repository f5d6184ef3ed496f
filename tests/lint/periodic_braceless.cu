// periodic_braceless.cu: an 'if' that tests a remainder against 0 makes its branch periodic
// whether the branch is a block or a single statement without braces ('if (step % every == 0)
// cudaStreamSynchronize(s);'), in the loop and on the way from a loop through the call graph.
// Still warnings: the 'else' of such an 'if' (it runs on the other iterations), a braceless
// branch under 'step % every != 0', and a braceless call of a function that a loop also calls
// without the test.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void train_step(float *w) { w[threadIdx.x] -= 0.1f; }

// Reached from the loop of 'train' only through a braceless periodic branch.
static float read_loss(const float *d_loss)
{
    float loss = 0.0f;
    cudaMemcpy(&loss, d_loss, sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: periodic: every call from a loop runs once in a while (line 38 tests 'step % every == 0')
    printf("loss %f\n", loss);
    return loss;
}

// Reached braceless under the test in 'train', and without it in 'evaluate'.
static void drain(void) { cudaDeviceSynchronize(); } // expect: SYNC401 expect-severity: warning

void train(float *w, float *d_loss, int steps, int every, cudaStream_t s)
{
    for (int step = 0; step < steps; step++) {
        train_step<<<1, 32, 0, s>>>(w);
        if (step % every == 0)
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: periodic: it runs once in a while (line 28 tests 'step % every == 0')
        if (step % 64 == 0)
            drain();
        if (step % every == 0)
            printf("step %d\n", step);
        else
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        if (step % every != 0)
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        if (step % every == 0)
            read_loss(d_loss);
    }
}

void evaluate(float *w, int steps, cudaStream_t s)
{
    for (int step = 0; step < steps; step++) {
        train_step<<<1, 32, 0, s>>>(w);
        drain();
    }
}
