// drained_device.cu: a copy or a wait where nothing is queued on the device, because a
// device-wide wait (or a synchronous copy, all streams of the unit being blocking) drained it
// and nothing but memsets was queued since, on every way the unit reaches the call: in the
// function before it, at the end of a function called just before, at the end of the loop's
// previous iteration, or before each call of the function. A note that says which drain.
// With a launch after the drain, or a caller that queues work, it stays a warning.
#include <cuda_runtime.h>

__global__ void step(float *x, int n) { x[threadIdx.x % n] += 1.0f; }
__global__ void grad(float *x, int n) { x[threadIdx.x % n] *= 0.5f; }

// Ends every call by draining the device: a true per-iteration stall.
void forward(float *d, int n)
{
    step<<<1, 32>>>(d, n); // expect: SYNC101
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
}

// Its upload comes right after forward() drained the device, on each of its calls.
void backward(float *d, const float *h, float *g, int n)
{
    cudaMemset(g, 0, n * sizeof(float));
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: note expect-message: drained: the device has nothing queued here: 'cudaDeviceSynchronize' at drained_device.cu:16 drained it, and no work but memsets is queued between
    grad<<<1, 32>>>(d, n); // expect: SYNC101
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
}

// The same upload, but its caller queues a kernel between the drain and the call.
void backward_after_work(float *d, const float *h, int n)
{
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: warning
    grad<<<1, 32>>>(d, n); // expect: SYNC101
}

void evaluate(float *d, float *h, int n)
{
    step<<<1, 32>>>(d, n); // expect: SYNC101
    cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: warning
    h[n - 1] = 0.0f;
    h[0] = 1.0f;
    h[1] = 1.0f;
    // The synchronous copy above already waited for everything: nothing is left to wait for.
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained: the device has nothing queued here: 'cudaMemcpy' at drained_device.cu:38 drained it (a synchronous copy, which waits for all work: the unit creates its streams blocking)
}

void train(float *d, float *h, float *g, int n, int steps)
{
    for (int s = 0; s < steps; s++) {
        // The previous iteration ended with backward()'s drain.
        cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: note expect-message: 'cudaDeviceSynchronize' at drained_device.cu:57 drained it
        forward(d, n);
        backward(d, h, g, n);
        forward(d, n);
        grad<<<1, 32>>>(g, n); // expect: SYNC101
        backward_after_work(d, h, n);
        evaluate(d, h, n);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: 'cudaDeviceSynchronize' at drained_device.cu:43 drained it
    }
}

// The unit creates its streams blocking: a synchronous copy waits for all work.
void make_stream(cudaStream_t *s) { cudaStreamCreate(s); } // expect: SYNC103

// A function of the project defined in another unit may queue work: the copy after it is not
// known to find the device drained.
void enqueue_elsewhere(float *d, int n);

void after_external(float *d, const float *h, int n, int steps)
{
    for (int s = 0; s < steps; s++) {
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        enqueue_elsewhere(d, n);
        cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: warning
        grad<<<1, 32>>>(d, n); // expect: SYNC101
    }
}
