// few_bytes_stream.cu: a layer with a stream of its own that carries nothing but copies of
// small arrays on the host's stack (a count per batch entry, a table of 15 sizes): a pageable
// copy there waits for no other work, only for copies of a few bytes; a note that says so. On a
// stream that a kernel also uses, a copy back stays a warning (one to the device of a few bytes
// does not wait for queued work: small_h2d_copy.cu).
#include <cuda_runtime.h>
#include <stddef.h>

__global__ void attend(const size_t *vars, const int *counts, float *out) { out[0] = (float)vars[0] + counts[0]; }

class Attention {
    cudaStream_t copy_stream_;
    cudaStream_t work_stream_;
    size_t *vars_device_;
    float *out_;

public:
    ~Attention() { cudaStreamDestroy(copy_stream_); }
    void forward(const int *counts_device, int batch);
};

void Attention::forward(const int *counts_device, int batch)
{
    int counts[batch];
    cudaMemcpyAsync(counts, counts_device, batch * sizeof(int), cudaMemcpyDeviceToHost, copy_stream_); // expect: SYNC201 expect-severity: note expect-message: idle: 'copy_stream_' carries nothing but copies of local arrays in this unit (2): a copy of a few bytes
    size_t vars[15];
    for (int i = 0; i < 15; i++)
        vars[i] = (size_t)counts[i % batch];
    cudaMemcpyAsync(vars_device_, vars, sizeof(vars), cudaMemcpyHostToDevice, copy_stream_); // expect: SYNC201 expect-severity: note
    cudaStreamSynchronize(copy_stream_);
    size_t more[4];
    cudaMemcpyAsync(more, vars_device_, sizeof(more), cudaMemcpyDeviceToHost, work_stream_); // expect: SYNC201 expect-severity: note expect-message: how often it runs is not shown
    attend<<<1, 1, 0, work_stream_>>>(vars_device_, counts_device, out_);
}

// Since session 32 a warning whose call is in no loop that lint sees ends as the note "how often
// it runs is not shown" (docs/lint.md, "Warning or note", item 5): such a case that stays a
// warning above is that note here, asserted by its words (no other reason for a note applies).
