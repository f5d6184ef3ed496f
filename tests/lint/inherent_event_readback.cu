// inherent_event_readback.cu: a wait for an event that the unit records only right after an
// asynchronous copy to the host, on the copy's stream with nothing queued between, so that the
// event completes when the copy does; the statements right after the wait go through the
// copied buffer (a loop over it, a host function given it), also when the copy fills the other
// of two buffers that the recording function's caller then swaps with the one read. The host
// waits for data it reads at once: notes ("inherent: ..."), where the record is in another
// function of the unit (a decoder's per-frame copies, consumed by its host workers) or in the
// same function. Still warnings: one value read back to decide whether to go on, a kernel
// queued between the copy and the record (the event waits for more than the copy), a stream
// wait between them (the record waits for another stream's work), an event recorded elsewhere
// too without a copy before it, an event handed to a function, a buffer that the host does not
// read next, and buffers swapped where the record does not come first.
#include <cuda_runtime.h>
#include <utility>

__global__ void expand(float *q, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        q[i] += 1.0f;
}

void move_to_vector(const float *src, int n, float *out);
void enqueue_more(cudaEvent_t e);
bool converged(const float *flags, int n);

class Decoder {
  public:
    void Decode(int frames);

  private:
    void CopyToHost();
    void Consume();
    void ConsumeScalar();
    void ConsumeOther();
    void ConsumeGap();
    void ConsumeWaited();
    void ConsumeTwice();
    void ConsumeHanded();
    void Reorder();
    float *d_costs_, *d_info_, *d_flag_;
    float *h_costs_, *h_costs_tmp_, *h_info_, *h_info_tmp_, *h_other_;
    float h_flag_;
    float *out_;
    int n_;
    bool done_;
    cudaStream_t compute_st_, copy_st_;
    cudaEvent_t ready_evt_, costs_evt_, info_evt_, flag_evt_, gap_evt_, waited_evt_, twice_evt_,
        handed_evt_;
};

#define CHECK(call)                                                                                \
    do {                                                                                           \
        if ((call) != cudaSuccess)                                                                 \
            return;                                                                                \
    } while (0)

void Decoder::CopyToHost()
{
    int n = n_;
    if (n > 0) {
        CHECK(cudaMemcpyAsync(h_costs_tmp_, d_costs_, n * sizeof(float), cudaMemcpyDeviceToHost,
                              copy_st_));
    }
    CHECK(cudaEventRecord(costs_evt_, copy_st_));
    cudaMemcpyAsync(h_info_tmp_, d_info_, n * sizeof(float), cudaMemcpyDeviceToHost, copy_st_);
    int m = n + 1;
    cudaEventRecord(info_evt_, copy_st_);
    cudaMemcpyAsync(&h_flag_, d_flag_, sizeof(float), cudaMemcpyDeviceToHost, copy_st_);
    cudaEventRecord(flag_evt_, copy_st_);
    cudaMemcpyAsync(h_other_, d_info_, m * sizeof(float), cudaMemcpyDeviceToHost, copy_st_);
    expand<<<1, 32, 0, copy_st_>>>(d_info_, n);
    cudaEventRecord(gap_evt_, copy_st_);
    cudaMemcpyAsync(h_other_, d_info_, m * sizeof(float), cudaMemcpyDeviceToHost, copy_st_);
    cudaStreamWaitEvent(copy_st_, ready_evt_, 0);
    cudaEventRecord(waited_evt_, copy_st_);
    cudaMemcpyAsync(h_other_, d_info_, m * sizeof(float), cudaMemcpyDeviceToHost, copy_st_);
    cudaEventRecord(twice_evt_, copy_st_);
    cudaEventRecord(handed_evt_, copy_st_);
}

void Decoder::Reorder()
{
    expand<<<1, 32, 0, copy_st_>>>(d_info_, n_);
    cudaEventRecord(twice_evt_, copy_st_);
    enqueue_more(handed_evt_);
}

// The copy filled the buffer before last; the swap makes it the one read.
void Decoder::Consume()
{
    CHECK(cudaEventSynchronize(costs_evt_)); // expect: SYNC401 expect-severity: note expect-message: inherent: the next statement needs the value (line 93 reads 'h_costs_' in a loop): the unit records 'costs_evt_' only right after the copy into 'h_costs_tmp_' on 'copy_st_' (line 62), which line 148 swaps with it, so the event completes when the copy does
    for (int i = 0; i < n_; i++)
        move_to_vector(h_costs_ + i, 1, out_);
    cudaEventSynchronize(info_evt_); // expect: SYNC401 expect-severity: note expect-message: inherent: the next statement needs the value (line 96 passes 'h_info_' to 'move_to_vector()'): the unit records 'info_evt_' only right after the copy into 'h_info_tmp_' on 'copy_st_' (line 66), which line 149 swaps with it, so the event completes when the copy does
    move_to_vector(h_info_, n_, out_);
}

// One value, read to decide whether to go on: the device could test it.
void Decoder::ConsumeScalar()
{
    cudaEventSynchronize(flag_evt_); // expect: SYNC401 expect-severity: warning
    done_ = converged(&h_flag_, 1);
}

// A buffer the host does not read next.
void Decoder::ConsumeOther()
{
    cudaEventSynchronize(costs_evt_); // expect: SYNC401 expect-severity: warning
    move_to_vector(h_other_, n_, out_);
}

// A kernel queued between the copy and the record: the event waits for it too.
void Decoder::ConsumeGap()
{
    cudaEventSynchronize(gap_evt_); // expect: SYNC401 expect-severity: warning
    move_to_vector(h_other_, n_, out_);
}

// The record waits for another stream's work as well.
void Decoder::ConsumeWaited()
{
    cudaEventSynchronize(waited_evt_); // expect: SYNC401 expect-severity: warning
    move_to_vector(h_other_, n_, out_);
}

// Recorded again in Reorder(), after a kernel.
void Decoder::ConsumeTwice()
{
    cudaEventSynchronize(twice_evt_); // expect: SYNC401 expect-severity: warning
    move_to_vector(h_other_, n_, out_);
}

// Handed to a function that may record it elsewhere.
void Decoder::ConsumeHanded()
{
    cudaEventSynchronize(handed_evt_); // expect: SYNC401 expect-severity: warning
    move_to_vector(h_other_, n_, out_);
}

void Decoder::Decode(int frames)
{
    for (int f = 0; f < frames; f++) {
        expand<<<1, 32, 0, compute_st_>>>(d_costs_, n_);
        cudaEventRecord(ready_evt_, compute_st_);
        cudaStreamWaitEvent(copy_st_, ready_evt_, 0);
        CopyToHost();
        std::swap(h_costs_tmp_, h_costs_);
        std::swap(h_info_tmp_, h_info_);
        Consume();
        ConsumeScalar();
        ConsumeOther();
        ConsumeGap();
        ConsumeWaited();
        ConsumeTwice();
        ConsumeHanded();
        Reorder();
    }
}

// A local event recorded right after the copy, in the same function.
float drain_losses(float *h, const float *d, int n, int steps, cudaStream_t s)
{
    float total = 0.0f;
    cudaEvent_t copied;
    cudaEventCreate(&copied);
    for (int t = 0; t < steps; t++) {
        expand<<<1, 32, 0, s>>>((float *)d, n);
        cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
        cudaEventRecord(copied, s);
        cudaEventSynchronize(copied); // expect: SYNC401 expect-severity: note expect-message: inherent: the next statement needs the value (line 172 reads 'h' in a loop): the unit records 'copied' only right after the copy into 'h' on 's' (line 169), so the event completes when the copy does
        for (int i = 0; i < n; i++)
            total += h[i];
    }
    cudaEventDestroy(copied);
    return total;
}

// Swapped before the record: the buffer read is the other one, not the one being copied.
struct Pair {
    float *h_a, *h_b, *d;
    int n;
    cudaStream_t s;
    cudaEvent_t e;
    void fill()
    {
        cudaMemcpyAsync(h_a, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
        cudaEventRecord(e, s);
    }
    void step(float *out)
    {
        std::swap(h_a, h_b);
        fill();
        cudaEventSynchronize(e); // expect: SYNC401 expect-severity: warning
        move_to_vector(h_b, n, out);
    }
    void run(float *out, int steps)
    {
        for (int t = 0; t < steps; t++) {
            expand<<<1, 32, 0, s>>>(d, n);
            step(out);
        }
    }
};

// A stream wait whose stream's last work, a few host statements before, is the copy.
float sum_after_host_work(float *h, const float *d, int n, int steps, cudaStream_t s,
                          cudaStream_t other)
{
    float total = 0.0f;
    for (int t = 0; t < steps; t++) {
        expand<<<1, 32, 0, s>>>((float *)d, n);
        cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
        int half = n / 2;
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: inherent: the next statement needs the value (line 216 reads 'h' in a loop): the copy into 'h' at line 213 is the last work queued on 's' before the wait
        for (int i = 0; i < half; i++)
            total += h[i];
        // The copy is on another stream than the one waited for.
        cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, other);
        half = n / 4;
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        for (int i = 0; i < half; i++)
            total += h[i];
        // A kernel queued after the copy: the wait is for it too.
        cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
        expand<<<1, 32, 0, s>>>((float *)d, n);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        for (int i = 0; i < half; i++)
            total += h[i];
    }
    return total;
}

// Runs the ping-pong pair's loop (a function that another unit may call).
void run_pair(Pair &p, float *out, int steps) { p.run(out, steps); }
