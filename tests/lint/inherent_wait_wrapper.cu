// inherent_wait_wrapper.cu: a stream wait inside a function that only waits (a stream object's
// sync(), a helper given the stream), called from a loop that enqueues device work. The call of
// the helper is the wait: where it comes right after a copy to the host, made by the caller or
// as the last device work of a function the caller calls (which copies into the buffer it is
// given), and a statement soon after reads that buffer as a whole (the host builds its next
// step from the device's results: a tree grown on the host from candidates the device
// evaluated), the wait is inherent, as when it is written in the loop: a note, provided every
// call of the helper from a loop is such a call. Still warnings: a helper whose call follows a
// launch, a buffer nobody reads after the wait, one value copied back (a flag the device could
// test), a callee whose last work is a launch after its copy, and a helper that one loop calls
// so and another without a copy before. Data the host then sends back to the device: a note.
#include <cuda_runtime.h>
#include <vector>

__global__ void evaluate_kernel(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * 2.0f;
}

static void check(cudaError_t e)
{
    if (e != cudaSuccess)
        throw e;
}

struct StreamRef {
    cudaStream_t s;
    void sync() { check(cudaStreamSynchronize(s)); } // expect: SYNC401 expect-severity: note expect-message: inherent: every call from a loop waits for a copy to the host whose data the caller needs next (the call at inherent_wait_wrapper.cu:53: line 54 passes 'best' to 'Queue::push()', and 'Grower::evaluate()' before it ends by copying into 'best' (inherent_wait_wrapper.cu:46))
};

struct Queue {
    std::vector<float> items;
    void push(const float *begin, const float *end) { items.insert(items.end(), begin, end); }
    bool empty() const { return items.empty(); }
};

struct Grower {
    StreamRef stream;
    float *d_in, *d_out;

    void evaluate(int n, float *out)
    {
        evaluate_kernel<<<(n + 255) / 256, 256, 0, stream.s>>>(d_out, d_in, n);
        cudaMemcpyAsync(out, d_out, n * sizeof(float), cudaMemcpyDefault, stream.s);
    }

    void grow(Queue *queue, float *best, int n, int depth)
    {
        for (int level = 0; level < depth && !queue->empty(); level++) {
            evaluate(n, best);
            stream.sync();
            queue->push(best, best + n);
        }
    }
};

void grow_tree(Grower *grower, Queue *queue, float *best, int n)
{
    grower->grow(queue, best, n, 8);
}

static void wait_direct(cudaStream_t s)
{
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: inherent: every call from a loop waits for a copy to the host whose data the caller needs next (the call at inherent_wait_wrapper.cu:75: line 76 reads 'h' in a loop, and the copy into 'h' comes right before it (line 74))
}

float sum_levels(float *h, const float *d, float *d_in, int n, int steps, cudaStream_t s)
{
    float total = 0.0f;
    for (int k = 0; k < steps; k++) {
        evaluate_kernel<<<1, 256, 0, s>>>(d_in, d, n);
        cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
        wait_direct(s);
        for (int i = 0; i < n; i++)
            total += h[i];
    }
    return total;
}

static void wait_after_launch(cudaStream_t s)
{
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
}

void launch_then_wait(float *h, const float *d, float *d_in, int n, int steps, cudaStream_t s)
{
    for (int k = 0; k < steps; k++) {
        cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
        evaluate_kernel<<<1, 256, 0, s>>>(d_in, d, n);
        wait_after_launch(s);
        h[0] += h[1];
    }
}

static void wait_unread(cudaStream_t s)
{
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
}

void copy_unread(float *h, const float *d, float *d_in, int n, int steps, cudaStream_t s)
{
    for (int k = 0; k < steps; k++) {
        evaluate_kernel<<<1, 256, 0, s>>>(d_in, d, n);
        cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
        wait_unread(s);
    }
}

static void wait_flag(cudaStream_t s)
{
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
}

static void read_flag(float *h_flag, const float *d_flag, cudaStream_t s)
{
    cudaMemcpyAsync(h_flag, d_flag, sizeof(float), cudaMemcpyDeviceToHost, s);
}

void until_done(Queue *queue, float *h_flag, const float *d_flag, float *d, int n, cudaStream_t s)
{
    do {
        evaluate_kernel<<<1, 256, 0, s>>>(d, d, n);
        read_flag(h_flag, d_flag, s);
        wait_flag(s);
        queue->push(h_flag, h_flag + 1);
    } while (*h_flag > 0.0f);
}

static void wait_after_callee_launch(cudaStream_t s)
{
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
}

static void copy_then_launch(float *out, float *d, int n, cudaStream_t s)
{
    cudaMemcpyAsync(out, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
    evaluate_kernel<<<1, 256, 0, s>>>(d, d, n);
}

void callee_launches_last(Queue *queue, float *best, float *d, int n, int steps, cudaStream_t s)
{
    for (int k = 0; k < steps; k++) {
        copy_then_launch(best, d, n, s);
        wait_after_callee_launch(s);
        queue->push(best, best + n);
    }
}

static void wait_round_trip(cudaStream_t s)
{
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: line 162 passes 'h' to 'Queue::push()', and the copy into 'h' comes right before it (line 160)
}

void round_trip(Queue *queue, float *h, float *d, int n, int steps, cudaStream_t s)
{
    for (int k = 0; k < steps; k++) {
        evaluate_kernel<<<1, 256, 0, s>>>(d, d, n);
        cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
        wait_round_trip(s);
        queue->push(h, h + n);
        cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
    }
}

static void wait_shared(cudaStream_t s)
{
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
}

void shared_after_copy(Queue *queue, float *h, float *d, int n, int steps, cudaStream_t s)
{
    for (int k = 0; k < steps; k++) {
        evaluate_kernel<<<1, 256, 0, s>>>(d, d, n);
        cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
        wait_shared(s);
        queue->push(h, h + n);
    }
}

void shared_after_launch(float *d, int n, int steps, cudaStream_t s)
{
    for (int k = 0; k < steps; k++) {
        evaluate_kernel<<<1, 256, 0, s>>>(d, d, n);
        wait_shared(s);
    }
}
