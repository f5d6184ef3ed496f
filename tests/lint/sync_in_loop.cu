// sync_in_loop.cu: SYNC401 (explicit synchronization in a loop that enqueues device work)
// for every loop kind, through a local lambda, and the cases that are not reported.
#include <cuda_runtime.h>

#include <vector>

__global__ void step(float *x, int n) { x[threadIdx.x % n] += 1.0f; }

void for_loop(float *x, int n, cudaStream_t s)
{
    for (int i = 0; i < n; i++) {
        step<<<1, 32, 0, s>>>(x, n);
        cudaStreamSynchronize(s); // expect: SYNC401
    }
}

void while_loop(float *x, int n, cudaStream_t s)
{
    int i = 0;
    while (i++ < n) {
        cudaMemsetAsync(x, 0, sizeof(float), s);
        cudaDeviceSynchronize(); // expect: SYNC401
    }
}

void do_loop(float *x, int n, cudaStream_t s, cudaEvent_t done)
{
    int i = 0;
    do {
        step<<<1, 32, 0, s>>>(x, n);
        cudaEventRecord(done, s);
        cudaEventSynchronize(done); // expect: SYNC401
    } while (++i < n);
}

void range_for(std::vector<float *> &buffers, int n, cudaStream_t s)
{
    for (float *b : buffers) {
        cudaStreamSynchronize(s); // expect: SYNC401
        step<<<1, 32, 0, s>>>(b, n);
    }
}

void nested(float *x, int n, cudaStream_t s)
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++)
            step<<<1, 32, 0, s>>>(x, n);
        cudaStreamSynchronize(s); // expect: SYNC401
    }
}

void through_lambda(float *x, int n, cudaStream_t s)
{
    auto iterate = [&](int i) {
        step<<<1, 32, 0, s>>>(x, i);
        cudaStreamSynchronize(s); // expect: SYNC401
    };
    for (int i = 0; i < n; i++)
        iterate(i);
}

void sync_in_lambda_called_in_loop(float *x, int n, cudaStream_t s)
{
    auto wait = [&]() { cudaStreamSynchronize(s); }; // expect: SYNC401
    for (int i = 0; i < n; i++) {
        step<<<1, 32, 0, s>>>(x, n);
        wait();
    }
}

/* Not reported: the synchronization is after the loop. */
void sync_after_loop(float *x, int n, cudaStream_t s)
{
    for (int i = 0; i < n; i++)
        step<<<1, 32, 0, s>>>(x, n);
    cudaStreamSynchronize(s);
}

/* Not reported: the loop enqueues no device work. */
void loop_without_work(cudaStream_t *streams, int n)
{
    for (int i = 0; i < n; i++)
        cudaStreamSynchronize(streams[i]);
}

/* Not reported: no loop at all. */
void straight_line(float *x, int n, cudaStream_t s)
{
    step<<<1, 32, 0, s>>>(x, n);
    cudaDeviceSynchronize();
}
