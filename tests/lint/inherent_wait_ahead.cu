// inherent_wait_ahead.cu: a pageable upload after which the host only queues device work (a
// launch, a memset, a launch wrapper of the unit, a copy back that stages nothing) and then
// waits for the upload's stream or the whole device (itself, through a function of the unit,
// or through an event recorded on the stream) before it does anything of its own: the host
// waits for the copy there anyway, and the copy's staging holds up nothing it could have done
// meanwhile: a note. Still warnings: host work between (a loop, a call lint cannot see into,
// another pageable upload, a virtual call), work on another stream (it could have run while a
// pinned copy did), a wait for another stream, no wait before the function returns, a wait on
// one branch only, a helper that works on the host before its wait, and a pageable copy to the
// host (it returns only once done: the work queued after it waits for the host to queue it).
#include <cuda_runtime.h>
#include <vector>

#define CHECK(op)                                                                                \
    do {                                                                                         \
        cudaError_t status = (op);                                                               \
        if (status != cudaSuccess)                                                               \
            throw status;                                                                        \
    } while (0)

__global__ void scale(float *d, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        d[i] *= 2.0f;
}

void score_on(cudaStream_t stream, float *d, int n);
void plan_next(std::vector<float> &v);

static void launch_scale(float *d, int n, cudaStream_t stream)
{
    scale<<<(n + 255) / 256, 256, 0, stream>>>(d, n);
    CHECK(cudaGetLastError());
}

static void finish(cudaStream_t stream) { CHECK(cudaStreamSynchronize(stream)); }

static void tally_then_finish(std::vector<float> &v, cudaStream_t stream)
{
    float total = 0.0f;
    for (float x : v)
        total += x;
    v.push_back(total);
    CHECK(cudaStreamSynchronize(stream));
}

void objective(const std::vector<float> &labels, float *d, float *d_sum, float *out,
               cudaStream_t s)
{
    int n = (int)labels.size();
    CHECK(cudaMemcpyAsync(d, labels.data(), n * sizeof(float), cudaMemcpyHostToDevice, s)); // expect: SYNC201 expect-severity: note expect-message: inherent: line 58 waits for the copy anyway ('cudaStreamSynchronize'), and the statements before it only queue device work
    int blocks = (n + 255) / 256;
    CHECK(cudaMemsetAsync(d_sum, 0, sizeof(float), s));
    scale<<<blocks, 256, 0, s>>>(d, n);
    launch_scale(d_sum, 1, s);
    CHECK(cudaMemcpyAsync(out, d, n * sizeof(float), cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
}

void through_helper(const std::vector<float> &h, float *d, cudaStream_t s)
{
    int n = (int)h.size();
    cudaMemcpyAsync(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: note expect-message: inherent: line 66 waits for the copy anyway ('finish()' calls 'cudaStreamSynchronize' at line 37), and the statements before it only queue device work
    launch_scale(d, n, s);
    finish(s);
}

void through_event(const std::vector<float> &h, float *d, cudaEvent_t done, cudaStream_t s)
{
    int n = (int)h.size();
    cudaMemcpyAsync(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: note expect-message: inherent: line 75 waits for the copy anyway ('cudaEventSynchronize')
    scale<<<(n + 255) / 256, 256, 0, s>>>(d, n);
    cudaEventRecord(done, s);
    cudaEventSynchronize(done);
}

void whole_device(const std::vector<float> &h, float *d, cudaStream_t s)
{
    int n = (int)h.size();
    cudaMemcpyAsync(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: note expect-message: inherent: line 83 waits for the copy anyway ('cudaDeviceSynchronize')
    scale<<<(n + 255) / 256, 256, 0, s>>>(d, n);
    cudaDeviceSynchronize();
}

void host_loop_between(std::vector<float> &h, float *d, cudaStream_t s)
{
    int n = (int)h.size();
    cudaMemcpyAsync(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: warning
    scale<<<(n + 255) / 256, 256, 0, s>>>(d, n);
    for (int i = 0; i < n; i++)
        h[i] = 0.0f;
    cudaStreamSynchronize(s);
}

void unknown_call_between(std::vector<float> &h, float *d, cudaStream_t s)
{
    int n = (int)h.size();
    cudaMemcpyAsync(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: warning
    scale<<<(n + 255) / 256, 256, 0, s>>>(d, n);
    plan_next(h);
    cudaStreamSynchronize(s);
}

void other_stream_work_unknown(const std::vector<float> &h, float *d, cudaStream_t s)
{
    int n = (int)h.size();
    cudaMemcpyAsync(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: warning
    score_on(s, d, n);
    cudaStreamSynchronize(s);
}

void upload_between(const std::vector<float> &a, const std::vector<float> &b, float *d, float *e,
                    cudaStream_t s)
{
    int n = (int)a.size();
    cudaMemcpyAsync(d, a.data(), n * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: warning
    scale<<<(n + 255) / 256, 256, 0, s>>>(d, n);
    cudaMemcpyAsync(e, b.data(), n * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: note expect-message: inherent: the next statement (line 120) waits for the copy anyway
    cudaStreamSynchronize(s);
}

void other_stream_wait(const std::vector<float> &h, float *d, cudaStream_t s, cudaStream_t t)
{
    int n = (int)h.size();
    cudaMemcpyAsync(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: warning
    scale<<<(n + 255) / 256, 256, 0, s>>>(d, n);
    cudaStreamSynchronize(t);
}

void no_wait(const std::vector<float> &h, float *d, cudaStream_t s)
{
    int n = (int)h.size();
    cudaMemcpyAsync(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: warning
    scale<<<(n + 255) / 256, 256, 0, s>>>(d, n);
}

void wait_on_one_branch(const std::vector<float> &h, float *d, bool last, cudaStream_t s)
{
    int n = (int)h.size();
    cudaMemcpyAsync(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: warning
    scale<<<(n + 255) / 256, 256, 0, s>>>(d, n);
    if (last)
        cudaStreamSynchronize(s);
}

void leaves_before_wait(const std::vector<float> &h, float *d, bool skip, cudaStream_t s)
{
    int n = (int)h.size();
    cudaMemcpyAsync(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: warning
    scale<<<(n + 255) / 256, 256, 0, s>>>(d, n);
    if (skip)
        return;
    cudaStreamSynchronize(s);
}

void helper_works_first(std::vector<float> &h, float *d, cudaStream_t s)
{
    int n = (int)h.size();
    cudaMemcpyAsync(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: warning
    launch_scale(d, n, s);
    tally_then_finish(h, s);
}

void event_on_other_stream(const std::vector<float> &h, float *d, cudaEvent_t done, cudaStream_t s,
                           cudaStream_t t)
{
    int n = (int)h.size();
    cudaMemcpyAsync(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: warning
    scale<<<(n + 255) / 256, 256, 0, s>>>(d, n);
    cudaEventRecord(done, t);
    cudaEventSynchronize(done);
}

struct Stage {
    virtual void run(float *d, int n, cudaStream_t s) { scale<<<(n + 255) / 256, 256, 0, s>>>(d, n); }
    virtual ~Stage() {}
};

void virtual_stage_between(const std::vector<float> &h, float *d, Stage *stage, cudaStream_t s)
{
    int n = (int)h.size();
    cudaMemcpyAsync(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: warning
    stage->run(d, n, s);
    cudaStreamSynchronize(s);
}

void readback_on_other_stream(const std::vector<float> &h, float *d, float *out, cudaStream_t s,
                              cudaStream_t t)
{
    int n = (int)h.size();
    cudaMemcpyAsync(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: warning
    scale<<<(n + 255) / 256, 256, 0, s>>>(d, n);
    cudaMemcpyAsync(out, d, n * sizeof(float), cudaMemcpyDeviceToHost, t);
    cudaStreamSynchronize(s);
}

void download_then_work(std::vector<float> &h, float *d, cudaStream_t s)
{
    int n = (int)h.size();
    cudaMemcpyAsync(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost, s); // expect: SYNC201 expect-severity: warning
    scale<<<(n + 255) / 256, 256, 0, s>>>(d, n);
    cudaStreamSynchronize(s);
}

void other_stream_launch(const std::vector<float> &h, float *d, float *e, cudaStream_t s,
                         cudaStream_t t)
{
    int n = (int)h.size();
    cudaMemcpyAsync(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: warning
    scale<<<(n + 255) / 256, 256, 0, t>>>(e, n);
    cudaStreamSynchronize(s);
}

void event_recorded_again(const std::vector<float> &h, float *d, cudaEvent_t done, cudaStream_t s,
                          cudaStream_t t)
{
    int n = (int)h.size();
    cudaMemcpyAsync(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: warning
    scale<<<(n + 255) / 256, 256, 0, s>>>(d, n);
    cudaEventRecord(done, s);
    cudaEventRecord(done, t);
    cudaEventSynchronize(done);
}
