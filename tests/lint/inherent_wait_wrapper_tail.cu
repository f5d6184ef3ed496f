// inherent_wait_wrapper_tail.cu: a stream wait inside a function that only waits, called from a
// loop right after a call of a function of the unit that ends by copying its results to the host
// into the buffer it is given (inherent_wait_wrapper.cu), where that function's last statements
// after the copy only call another unit's functions (a profiler's stop): they queue nothing that
// lint sees, as statements between a readback and its wait, so the copy is still its last device
// work and the wait is the readback's: a note. Also a copy of cudaMemcpyDefault's kind written
// right before the call, whose destination the host then goes through: host memory, a readback.
// Still warnings: a call after the copy given the stream (work queued behind the copy), one given
// the buffer, a launch after such a call, more such calls than two, a buffer not read after
// the wait, the caller reading another buffer than the one copied into, a copy to the device.
#include <cuda_runtime.h>
#include <vector>

__global__ void score_kernel(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] + 1.0f;
}

/* Defined in another unit: lint cannot see whether they queue work. */
void timer_begin(const char *what);
void timer_end(const char *what);
void note_stream(cudaStream_t s);
void publish(const float *values, int n);

struct Frontier {
    std::vector<float> open;
    void add(const float *begin, const float *end) { open.insert(open.end(), begin, end); }
};

struct Lane {
    cudaStream_t s;
    void wait() { cudaStreamSynchronize(s); } // expect: SYNC401 expect-severity: note expect-message: inherent: every call from a loop waits for a copy to the host whose data the caller needs next (the call at inherent_wait_wrapper_tail.cu:53: line 54 passes 'scores' to 'Frontier::add()', and 'Search::score()' before it ends by copying into 'scores' (inherent_wait_wrapper_tail.cu:45))
};

struct Search {
    Lane lane;
    float *d_in, *d_out;

    void score(int n, float *out)
    {
        timer_begin("score");
        score_kernel<<<(n + 127) / 128, 128, 0, lane.s>>>(d_out, d_in, n);
        cudaMemcpyAsync(out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost, lane.s);
        timer_end("score");
    }

    void expand(Frontier *frontier, float *scores, int n, int rounds)
    {
        for (int r = 0; r < rounds; r++) {
            score(n, scores);
            lane.wait();
            frontier->add(scores, scores + n);
        }
    }
};

void run_search(Search *search, Frontier *frontier, float *scores, int n)
{
    search->expand(frontier, scores, n, 8);
}

static void wait_default(cudaStream_t s)
{
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: inherent: every call from a loop waits for a copy to the host whose data the caller needs next (the call at inherent_wait_wrapper_tail.cu:75: line 76 reads 'h_counts' in a loop, and the copy into 'h_counts' comes right before it (line 74))
}

int split_counts(int *h_counts, const int *d_counts, float *d, int n, int rounds, cudaStream_t s)
{
    int total = 0;
    for (int r = 0; r < rounds; r++) {
        score_kernel<<<1, 128, 0, s>>>(d, d, n);
        cudaMemcpyAsync(h_counts, d_counts, n * sizeof(int), cudaMemcpyDefault, s);
        wait_default(s);
        for (int i = 0; i < n; i++)
            total += h_counts[i];
    }
    return total;
}

static void wait_other_read(cudaStream_t s)
{
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
}

int other_buffer_read(int *h_counts, int *h_prev, const int *d_counts, int n, int rounds,
                      cudaStream_t s)
{
    int total = 0;
    for (int r = 0; r < rounds; r++) {
        cudaMemcpyAsync(h_counts, d_counts, n * sizeof(int), cudaMemcpyDefault, s);
        wait_other_read(s);
        for (int i = 0; i < n; i++)
            total += h_prev[i];
    }
    return total;
}

static void wait_given_stream(cudaStream_t s)
{
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
}

static void copy_then_note_stream(float *out, const float *d, int n, cudaStream_t s)
{
    cudaMemcpyAsync(out, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
    note_stream(s);
}

void tail_given_stream(Frontier *frontier, float *best, float *d, int n, int rounds,
                       cudaStream_t s)
{
    for (int r = 0; r < rounds; r++) {
        score_kernel<<<1, 128, 0, s>>>(d, d, n);
        copy_then_note_stream(best, d, n, s);
        wait_given_stream(s);
        frontier->add(best, best + n);
    }
}

static void wait_given_buffer(cudaStream_t s)
{
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
}

static void copy_then_publish(float *out, const float *d, int n, cudaStream_t s)
{
    cudaMemcpyAsync(out, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
    publish(out, n);
}

void tail_given_buffer(Frontier *frontier, float *best, float *d, int n, int rounds,
                       cudaStream_t s)
{
    for (int r = 0; r < rounds; r++) {
        score_kernel<<<1, 128, 0, s>>>(d, d, n);
        copy_then_publish(best, d, n, s);
        wait_given_buffer(s);
        frontier->add(best, best + n);
    }
}

static void wait_tail_launch(cudaStream_t s)
{
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
}

static void copy_stop_launch(float *out, float *d, int n, cudaStream_t s)
{
    cudaMemcpyAsync(out, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
    timer_end("copy");
    score_kernel<<<1, 128, 0, s>>>(d, d, n);
}

void tail_then_launch(Frontier *frontier, float *best, float *d, int n, int rounds,
                      cudaStream_t s)
{
    for (int r = 0; r < rounds; r++) {
        copy_stop_launch(best, d, n, s);
        wait_tail_launch(s);
        frontier->add(best, best + n);
    }
}

static void wait_long_tail(cudaStream_t s)
{
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
}

static void copy_long_tail(float *out, float *d, int n, cudaStream_t s)
{
    score_kernel<<<1, 128, 0, s>>>(d, d, n);
    cudaMemcpyAsync(out, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
    timer_end("a");
    timer_end("b");
    timer_end("c");
}

void long_tail(Frontier *frontier, float *best, float *d, int n, int rounds, cudaStream_t s)
{
    for (int r = 0; r < rounds; r++) {
        copy_long_tail(best, d, n, s);
        wait_long_tail(s);
        frontier->add(best, best + n);
    }
}

static void wait_unread_tail(cudaStream_t s)
{
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
}

static void copy_then_stop(float *out, float *d, int n, cudaStream_t s)
{
    score_kernel<<<1, 128, 0, s>>>(d, d, n);
    cudaMemcpyAsync(out, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
    timer_end("copy");
}

void unread_tail(float *best, float *d, int n, int rounds, cudaStream_t s)
{
    for (int r = 0; r < rounds; r++) {
        copy_then_stop(best, d, n, s);
        wait_unread_tail(s);
    }
}

static void wait_upload_tail(cudaStream_t s)
{
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
}

static void upload_then_stop(float *d, const float *in, int n, cudaStream_t s)
{
    score_kernel<<<1, 128, 0, s>>>(d, d, n);
    cudaMemcpyAsync(d, in, n * sizeof(float), cudaMemcpyHostToDevice, s);
    timer_end("upload");
}

void upload_tail(Frontier *frontier, float *h, float *d, int n, int rounds, cudaStream_t s)
{
    for (int r = 0; r < rounds; r++) {
        upload_then_stop(d, h, n, s);
        wait_upload_tail(s);
        frontier->add(h, h + n);
    }
}
