// pageable_malloc.cu: SYNC201 for host buffers from the C allocators, followed through
// assignments, casts and pointer arithmetic; pinned, managed and unknown buffers are fine.
#include <cuda_runtime.h>
#include <stdlib.h>

void from_malloc(float *d, size_t n, cudaStream_t s)
{
    float *h_in = (float *)malloc(n * sizeof(float));
    cudaMemcpyAsync(d, h_in, n * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201
}

void from_calloc_and_realloc(float *d, size_t n, cudaStream_t s)
{
    float *a = static_cast<float *>(calloc(n, sizeof(float)));
    cudaMemcpyAsync(d, a, n * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201
    a = (float *)realloc(a, 2 * n * sizeof(float));
    cudaMemcpyAsync(d, a, n * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201
}

void aligned(float *d, size_t n, cudaStream_t s)
{
    void *raw = aligned_alloc(64, n * sizeof(float));
    float *p = (float *)raw;
    cudaMemcpyAsync(d, p, n * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201
    void *q = nullptr;
    posix_memalign(&q, 64, n * sizeof(float));
    cudaMemcpyAsync(d, q, n * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201
}

void cast_and_arithmetic(char *d, size_t n, cudaStream_t s)
{
    char *base = (char *)malloc(4 * n);
    char *second = base + n;
    const void *third = (const void *)(second + n);
    cudaMemcpyAsync(d, third, n, cudaMemcpyHostToDevice, s); // expect: SYNC201
    cudaMemcpyAsync(d, &base[2 * n], n, cudaMemcpyHostToDevice, s); // expect: SYNC201
}

void advancing_in_a_loop(char *d, size_t n, int chunks, cudaStream_t s)
{
    char *h = (char *)malloc(n * chunks);
    for (int i = 0; i < chunks; i++) {
        cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, s); // expect: SYNC201
        h += n;
    }
}

void device_to_host_dst(float *d, size_t n, cudaStream_t s)
{
    float *out = (float *)malloc(n * sizeof(float));
    cudaMemcpyAsync(out, d, n * sizeof(float), cudaMemcpyDeviceToHost, s); // expect: SYNC201
    /* The host side of a host-to-device copy is its source: 'out' is not read here. */
    cudaMemcpyAsync(out, d, n * sizeof(float), cudaMemcpyHostToDevice, s);
    cudaMemcpyAsync(d, out, n * sizeof(float), cudaMemcpyDeviceToDevice, s);
}

void kind_in_a_variable(float *d, size_t n, cudaStream_t s)
{
    float *h = (float *)malloc(n * sizeof(float));
    cudaMemcpyKind kind = cudaMemcpyHostToDevice;
    cudaMemcpyAsync(d, h, n * sizeof(float), kind, s); // expect: SYNC201
}

void pinned_buffers(float *d, size_t n, cudaStream_t s)
{
    float *a = nullptr, *b = nullptr, *c = nullptr;
    cudaMallocHost(&a, n * sizeof(float));
    cudaHostAlloc((void **)&b, n * sizeof(float), cudaHostAllocDefault);
    cudaMallocManaged(&c, n * sizeof(float));
    cudaMemcpyAsync(d, a, n * sizeof(float), cudaMemcpyHostToDevice, s);
    cudaMemcpyAsync(d, b + 1, sizeof(float), cudaMemcpyHostToDevice, s);
    cudaMemcpyAsync(c, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
}

void registered_earlier(float *d, size_t n, cudaStream_t s)
{
    float *h = (float *)malloc(n * sizeof(float));
    cudaHostRegister(h, n * sizeof(float), cudaHostRegisterDefault);
    cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
    cudaMemcpyAsync(d, h + 4, sizeof(float), cudaMemcpyHostToDevice, s);
}

void registered_then_unregistered(float *d, size_t n, cudaStream_t s)
{
    float *h = (float *)malloc(n * sizeof(float));
    cudaHostRegister(h, n * sizeof(float), cudaHostRegisterDefault);
    cudaHostUnregister(h);
    cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201
}

void registered_too_late(float *d, size_t n, cudaStream_t s)
{
    float *h = (float *)malloc(n * sizeof(float));
    cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201
    cudaHostRegister(h, n * sizeof(float), cudaHostRegisterDefault);
}

void parameter(float *d, const float *h, size_t n, cudaStream_t s)
{
    /* Where 'h' comes from is the caller's business: unknown, not reported. */
    cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
}

float *make_buffer(size_t n);

void from_a_call(float *d, size_t n, cudaStream_t s, bool big)
{
    float *h = make_buffer(n);
    cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
    float *maybe = (float *)malloc(n);
    if (big)
        cudaMallocHost(&maybe, n);
    cudaMemcpyAsync(d, maybe, n, cudaMemcpyHostToDevice, s);
}
