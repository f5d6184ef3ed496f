// inherent_helper_readback.cu: per batch, a function of this unit queues the asynchronous
// readback of a buffer on the stream, the caller waits for the stream right after the call and
// then goes through the buffer on the host (it sizes the next launch with it): the wait is for
// the data the host needs next, as where the copy is written before the wait. Inherent, a note:
// for a helper copying into a buffer of the unit, into the buffer it is given (the stream given
// too), for a method copying into its object's members, and for a copy under a mode (as a copy
// written in place under the same 'if'). Warnings stay where the helper copies on another stream,
// queues work after its copy, copies one value, is a method of another object, where the caller
// queues work between the call and the wait, or where the host does not read the buffer next.
#include <cuda_runtime.h>

__global__ void forward(const char *seqs, short *ends, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        ends[i] = (short)(seqs[i] & 63);
}

__global__ void reverse(const char *seqs, short *scores, int n)
{
    if ((int)blockIdx.x < n)
        scores[blockIdx.x] = (short)(seqs[blockIdx.x] + threadIdx.x);
}

static cudaStream_t stream, side;
static char *seqs_d;
static short *ends_h, *ends_d, *scores_d;
static int *count_h, *count_d;
static bool with_ends = true;

void set_up(int n)
{
    cudaMallocHost(&ends_h, n * sizeof(short));
    cudaMallocHost(&count_h, sizeof(int));
}

static int longest_end(const short *ends, int n)
{
    int longest = 1;
    for (int i = 0; i < n; i++)
        if (ends[i] > longest)
            longest = ends[i];
    return longest;
}

static void copy_ends(int n)
{
    cudaMemcpyAsync(ends_h, ends_d, n * sizeof(short), cudaMemcpyDeviceToHost, stream);
}

void batches(int n, int count)
{
    for (int b = 0; b < count; b++) {
        forward<<<(n + 255) / 256, 256, 0, stream>>>(seqs_d, ends_d, n);
        copy_ends(n);
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: note expect-message: inherent: the next statement needs the value (line 57 passes 'ends_h' to 'longest_end()'): the copy into 'ends_h' that 'copy_ends()' queues at line 48 (called at line 55) is the last work queued on 'stream' before the wait
        int longest = longest_end(ends_h, n);
        reverse<<<n, longest, 0, stream>>>(seqs_d, scores_d, n);
    }
}

// The buffer and the stream given to the helper.
static void copy_into(short *out, const short *from, int n, cudaStream_t s)
{
    cudaMemcpyAsync(out, from, n * sizeof(short), cudaMemcpyDeviceToHost, s);
}

void batches_given(int n, int count)
{
    for (int b = 0; b < count; b++) {
        forward<<<(n + 255) / 256, 256, 0, stream>>>(seqs_d, ends_d, n);
        copy_into(ends_h, ends_d, n, stream);
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: note expect-message: the copy into 'ends_h' that 'copy_into()' queues at line 65 (called at line 72) is the last work queued on 'stream' before the wait
        int longest = longest_end(ends_h, n);
        reverse<<<n, longest, 0, stream>>>(seqs_d, scores_d, n);
    }
}

// Under a mode, as a copy written before the wait under the same 'if'.
static void copy_ends_if_asked(int n)
{
    if (with_ends)
        cudaMemcpyAsync(ends_h, ends_d, n * sizeof(short), cudaMemcpyDeviceToHost, stream);
}

void batches_mode(int n, int count)
{
    for (int b = 0; b < count; b++) {
        forward<<<(n + 255) / 256, 256, 0, stream>>>(seqs_d, ends_d, n);
        copy_ends_if_asked(n);
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: note expect-message: the copy into 'ends_h' that 'copy_ends_if_asked()' queues at line 83
        if (with_ends) {
            int longest = longest_end(ends_h, n);
            reverse<<<n, longest, 0, stream>>>(seqs_d, scores_d, n);
        }
    }
}

void batches_mode_in_place(int n, int count)
{
    for (int b = 0; b < count; b++) {
        forward<<<(n + 255) / 256, 256, 0, stream>>>(seqs_d, ends_d, n);
        if (with_ends)
            cudaMemcpyAsync(ends_h, ends_d, n * sizeof(short), cudaMemcpyDeviceToHost, stream);
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: note expect-message: inherent: the next statement needs the value (line 106 passes 'ends_h' to 'longest_end()')
        if (with_ends) {
            int longest = longest_end(ends_h, n);
            reverse<<<n, longest, 0, stream>>>(seqs_d, scores_d, n);
        }
    }
}

// A method that copies into its object's members, called on the same object.
class Aligner
{
  public:
    void run(int count);
    void run_other(Aligner &other, int count);

  private:
    void copy_back();
    cudaStream_t st_;
    short *h_ends_, *d_ends_;
    int n_;
};

void Aligner::copy_back()
{
    cudaMemcpyAsync(h_ends_, d_ends_, n_ * sizeof(short), cudaMemcpyDeviceToHost, st_);
}

void Aligner::run(int count)
{
    for (int b = 0; b < count; b++) {
        forward<<<(n_ + 255) / 256, 256, 0, st_>>>(seqs_d, d_ends_, n_);
        copy_back();
        cudaStreamSynchronize(st_); // expect: SYNC401 expect-severity: note expect-message: the copy into 'h_ends_' that 'Aligner::copy_back()' queues at line 129 (called at line 136)
        int longest = longest_end(h_ends_, n_);
        reverse<<<n_, longest, 0, st_>>>(seqs_d, scores_d, n_);
    }
}

// The other object's copy, on its own stream.
void Aligner::run_other(Aligner &other, int count)
{
    for (int b = 0; b < count; b++) {
        forward<<<(n_ + 255) / 256, 256, 0, st_>>>(seqs_d, d_ends_, n_);
        other.copy_back();
        cudaStreamSynchronize(st_); // expect: SYNC401 expect-severity: warning
        int longest = longest_end(h_ends_, n_);
        reverse<<<n_, longest, 0, st_>>>(seqs_d, scores_d, n_);
    }
}

// The helper's copy on another stream than the one waited for.
static void copy_ends_aside(int n)
{
    cudaMemcpyAsync(ends_h, ends_d, n * sizeof(short), cudaMemcpyDeviceToHost, side);
}

void batches_aside(int n, int count)
{
    for (int b = 0; b < count; b++) {
        forward<<<(n + 255) / 256, 256, 0, stream>>>(seqs_d, ends_d, n);
        copy_ends_aside(n);
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: warning
        int longest = longest_end(ends_h, n);
        reverse<<<n, longest, 0, stream>>>(seqs_d, scores_d, n);
    }
}

// The helper launches more work after its copy: the wait waits for it too.
static void copy_then_clear(int n)
{
    cudaMemcpyAsync(ends_h, ends_d, n * sizeof(short), cudaMemcpyDeviceToHost, stream);
    reverse<<<n, 32, 0, stream>>>(seqs_d, scores_d, n);
}

void batches_more_work(int n, int count)
{
    for (int b = 0; b < count; b++) {
        forward<<<(n + 255) / 256, 256, 0, stream>>>(seqs_d, ends_d, n);
        copy_then_clear(n);
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: warning
        int longest = longest_end(ends_h, n);
        reverse<<<n, longest, 0, stream>>>(seqs_d, scores_d, n);
    }
}

// The caller queues work between the helper's call and the wait.
void batches_work_between(int n, int count)
{
    for (int b = 0; b < count; b++) {
        forward<<<(n + 255) / 256, 256, 0, stream>>>(seqs_d, ends_d, n);
        copy_ends(n);
        reverse<<<n, 32, 0, stream>>>(seqs_d, scores_d, n);
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: warning
        int longest = longest_end(ends_h, n);
        reverse<<<n, longest, 0, stream>>>(seqs_d, scores_d, n);
    }
}

// One value: a count the device could keep.
static void copy_count()
{
    cudaMemcpyAsync(count_h, count_d, sizeof(int), cudaMemcpyDeviceToHost, stream);
}

void batches_count(int n, int count)
{
    for (int b = 0; b < count; b++) {
        forward<<<(n + 255) / 256, 256, 0, stream>>>(seqs_d, ends_d, n);
        copy_count();
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: warning
        int longest = longest_end(ends_h, *count_h);
        reverse<<<n, 64, 0, stream>>>(seqs_d, scores_d, longest);
    }
}

// The host does not read the buffer next.
void batches_unread(int n, int count)
{
    for (int b = 0; b < count; b++) {
        forward<<<(n + 255) / 256, 256, 0, stream>>>(seqs_d, ends_d, n);
        copy_ends(n);
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: warning
        reverse<<<n, 32, 0, stream>>>(seqs_d, scores_d, n);
    }
}
