// drained_metric.cu: a value read back on some iterations only (the last micro-step's loss),
// where a device-wide wait follows it with nothing queued between and is reached on the other
// ways too: that wait is the stall (a warning), and the readback adds none of its own (a note
// that names the wait). Read back synchronously on every way to the wait, the readback is the
// stall and the wait has nothing left to wait for (a note: once per step, beside waiting steps).
#include <cuda_runtime.h>

struct Model {
    float *d_loss;
    float loss;
};

__global__ void backward_kernel(float *loss, int n) { loss[0] += (float)n; }

void backward(Model *m, cudaStream_t s, int micro, int micros)
{
    backward_kernel<<<1, 1, 0, s>>>(m->d_loss, micro);
    if (micro == micros - 1) {
        cudaMemcpyAsync(&m->loss, m->d_loss, sizeof(float), cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: note expect-message: drained anyway: 'cudaDeviceSynchronize' at line 21 waits for the whole device next, with no work queued between, and on other ways too
    }
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    if (micro == micros - 1)
        m->loss /= micros;
}

void backward_always(Model *m, cudaStream_t s, int micro)
{
    backward_kernel<<<1, 1, 0, s>>>(m->d_loss, micro);
    cudaMemcpy(&m->loss, m->d_loss, sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: once per pass: the loop at line 36 blocks the host on each of its iterations (line 37)
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained: the device has nothing queued here: 'cudaMemcpy' at drained_metric.cu:29 drained it (a synchronous copy
}

void train(Model *m, cudaStream_t s, int steps, int micros)
{
    for (int step = 0; step < steps; step++) {
        for (int micro = 0; micro < micros; micro++)
            backward(m, s, micro, micros);
        backward_always(m, s, 0);
    }
}

// The unit creates its streams blocking: a synchronous copy waits for all work.
void make_stream(cudaStream_t *s) { cudaStreamCreate(s); } // expect: SYNC103
