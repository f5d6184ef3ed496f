// grow_only_callee.cu: buffers that grow in other shapes than 'if (n > capacity) { malloc;
// capacity = n; }': a pinned staging vector re-registered after a resize that makes it larger,
// and a growing method that the loops call only under "the buffer is too small". Each runs
// when a buffer grows, a few times in a run: notes. A method some loop calls without such a
// guard runs on every iteration of that loop: warnings.
#include <cuda_runtime.h>
#include <vector>

__global__ void scale(float *d, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        d[i] *= 2.0f;
}

struct Staging {
    std::vector<float> host;
    size_t Dim() const { return host.size(); }
    void Resize(size_t n) { host.resize(n); }
};

void upload_all(const float *const *inputs, const size_t *sizes, int count, float *d,
                cudaStream_t s)
{
    Staging staging;
    for (int i = 0; i < count; i++) {
        if (staging.Dim() < sizes[i]) {
            if (staging.Dim() != 0)
                cudaHostUnregister(staging.host.data()); // expect: SYNC402 expect-severity: note expect-message: grow-only: it runs when the buffer grows (line 27 compares with 'staging' and the branch resizes it)
            staging.Resize(2 * sizes[i]);
            cudaHostRegister(staging.host.data(), staging.Dim() * sizeof(float), 0); // expect: SYNC402 expect-severity: note expect-message: grow-only: it runs when the buffer grows (line 27 compares with 'staging' and the branch resizes it)
        }
        cudaMemcpyAsync(d, inputs[i], sizes[i] * sizeof(float), cudaMemcpyHostToDevice, s);
        scale<<<(unsigned)((sizes[i] + 255) / 256), 256, 0, s>>>(d, sizes[i]);
    }
}

struct DeviceBuffer {
    float *data = nullptr;
    size_t capacity = 0;
    void release()
    {
        if (data)
            cudaFree(data); // expect: SYNC402 expect-severity: note expect-message: grow-only: every call from a loop runs when a buffer grows (grow_only_callee.cu:58 compares with 'capacity' and the branch records the new size)
        data = nullptr;
    }
    void reallocate(size_t n)
    {
        release();
        cudaMalloc(&data, n * sizeof(float)); // expect: SYNC402 expect-severity: note expect-message: grow-only: every call from a loop runs when a buffer grows (grow_only_callee.cu:58 compares with 'capacity' and the branch records the new size)
        capacity = n;
    }
};

void run_batches(DeviceBuffer &buf, const size_t *sizes, int batches, cudaStream_t s)
{
    for (int b = 0; b < batches; b++) {
        if (sizes[b] > buf.capacity)
            buf.reallocate(sizes[b]);
        scale<<<(unsigned)((sizes[b] + 255) / 256), 256, 0, s>>>(buf.data, sizes[b]);
    }
}

struct Scratch {
    float *data = nullptr;
    size_t capacity = 0;
    void reallocate(size_t n)
    {
        cudaFree(data); // expect: SYNC402 expect-severity: warning
        cudaMalloc(&data, n * sizeof(float)); // expect: SYNC402 expect-severity: warning
        capacity = n;
    }
};

void grow_when_needed(Scratch &scratch, const size_t *sizes, int batches, cudaStream_t s)
{
    for (int b = 0; b < batches; b++) {
        if (sizes[b] > scratch.capacity)
            scratch.reallocate(sizes[b]);
        scale<<<(unsigned)((sizes[b] + 255) / 256), 256, 0, s>>>(scratch.data, sizes[b]);
    }
}

void reallocate_every_batch(Scratch &scratch, const size_t *sizes, int batches, cudaStream_t s)
{
    for (int b = 0; b < batches; b++) {
        scratch.reallocate(sizes[b]);
        scale<<<(unsigned)((sizes[b] + 255) / 256), 256, 0, s>>>(scratch.data, sizes[b]);
    }
}
