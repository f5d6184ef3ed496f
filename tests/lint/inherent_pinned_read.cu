// inherent_pinned_read.cu: a kernel that writes pinned host memory directly (cudaMallocHost,
// or mapped memory through the device address cudaHostGetDevicePointer gives) is a readback by
// other means: a wait for it, on every iteration, is inherent where the host needs what the
// kernel wrote as it needs a copy's value there: the next device work is sized by it (after a
// guard that leaves), or the host goes through the buffer in a loop. Still warnings: a value
// the loop only tests, returns or counts with (one value, as for a copy's value), memory the
// kernel was not given or cannot write (a pointer to const), a pointer the unit also points at
// device memory or that a constructor sets to the caller's, device work between the launch and
// the wait, and a wait for another stream.
#include <cuda_runtime.h>

__global__ void count_boxes(unsigned *count) { atomicAdd(count, 1u); }
__global__ void decode(unsigned n, float *boxes) { boxes[threadIdx.x] = (float)n; }
__global__ void suppress(unsigned long long *mask, const float *boxes) { mask[threadIdx.x] = 1; }
__global__ void peek(const unsigned *count, float *boxes) { boxes[0] = (float)*count; }

struct Detector {
    unsigned *h_count;  // pinned
    unsigned *h_mapped; // pinned, mapped
    unsigned *d_mapped; // the device's address of h_mapped
    unsigned *h_other;  // pinned
    unsigned *scratch;  // pinned here, device memory there
    unsigned long long *h_mask;
    float *d_boxes;
    int keep[64];
    cudaStream_t st;

    void init()
    {
        cudaMallocHost((void **)&h_count, sizeof(unsigned));
        cudaHostAlloc((void **)&h_mapped, sizeof(unsigned), cudaHostAllocMapped);
        cudaHostGetDevicePointer((void **)&d_mapped, h_mapped, 0);
        cudaMallocHost((void **)&h_other, sizeof(unsigned));
        cudaMallocHost((void **)&h_mask, 64 * sizeof(unsigned long long));
        cudaMallocHost((void **)&scratch, sizeof(unsigned));
        cudaMalloc((void **)&scratch, sizeof(unsigned));
    }

    int sized()
    {
        *h_count = 0;
        count_boxes<<<1, 32, 0, st>>>(h_count);
        cudaStreamSynchronize(st); // expect: SYNC401 expect-severity: note expect-message: inherent: it waits for the kernel launched at line 42, which writes pinned host memory, and the next device work needs what it wrote (line 46 sizes a launch with it)
        if (*h_count == 0)
            return 0;
        decode<<<*h_count, 256, 0, st>>>(*h_count, d_boxes);
        return 1;
    }

    void mapped()
    {
        count_boxes<<<1, 32, 0, st>>>(d_mapped);
        cudaStreamSynchronize(st); // expect: SYNC401 expect-severity: note expect-message: inherent: it waits for the kernel launched at line 52, which writes pinned host memory, and the next statement reads it (line 54 sizes a launch with it)
        decode<<<*h_mapped, 256, 0, st>>>(1u, d_boxes);
    }

    void nms(int n)
    {
        suppress<<<1, 64, 0, st>>>(h_mask, d_boxes);
        cudaStreamSynchronize(st); // expect: SYNC401 expect-severity: note expect-message: inherent: the next statement needs the value (line 61 reads 'h_mask' in a loop): kernel 'suppress' launched at line 59 writes 'h_mask', pinned host memory, and the wait waits for it
        for (int i = 0; i < n; i++)
            keep[i] = h_mask[i] != 0;
    }

    int tested()
    {
        count_boxes<<<1, 32, 0, st>>>(h_count);
        cudaStreamSynchronize(st); // expect: SYNC401 expect-severity: warning
        if (*h_count == 0)
            return 0;
        return (int)*h_count;
    }

    void counted()
    {
        count_boxes<<<1, 32, 0, st>>>(h_count);
        cudaStreamSynchronize(st); // expect: SYNC401 expect-severity: warning
        for (unsigned i = 0; i < *h_count; i++)
            keep[i] = 1;
    }

    void unrelated()
    {
        count_boxes<<<1, 32, 0, st>>>(h_count);
        cudaStreamSynchronize(st); // expect: SYNC401 expect-severity: warning
        decode<<<*h_other, 256, 0, st>>>(1u, d_boxes);
    }

    void read_only()
    {
        peek<<<1, 32, 0, st>>>(h_count, d_boxes);
        cudaStreamSynchronize(st); // expect: SYNC401 expect-severity: warning
        decode<<<*h_count, 256, 0, st>>>(1u, d_boxes);
    }

    void device_too()
    {
        count_boxes<<<1, 32, 0, st>>>(scratch);
        cudaStreamSynchronize(st); // expect: SYNC401 expect-severity: warning
        decode<<<*scratch, 256, 0, st>>>(1u, d_boxes);
    }

    void work_between()
    {
        count_boxes<<<1, 32, 0, st>>>(h_count);
        cudaMemsetAsync(d_boxes, 0, 64 * sizeof(float), st);
        cudaStreamSynchronize(st); // expect: SYNC401 expect-severity: warning
        decode<<<*h_count, 256, 0, st>>>(1u, d_boxes);
    }

    void other_stream(cudaStream_t side)
    {
        count_boxes<<<1, 32, 0, st>>>(h_count);
        cudaStreamSynchronize(side); // expect: SYNC401 expect-severity: warning
        decode<<<*h_count, 256, 0, st>>>(1u, d_boxes);
    }
};

// A constructor may store the caller's pointer into the member: not known to be pinned.
struct Borrowed {
    unsigned *h_count;
    float *d_boxes;
    cudaStream_t st;
    explicit Borrowed(unsigned *given) : h_count(given) {}
    void init() { cudaMallocHost((void **)&h_count, sizeof(unsigned)); }
    void sized()
    {
        count_boxes<<<1, 32, 0, st>>>(h_count);
        cudaStreamSynchronize(st); // expect: SYNC401 expect-severity: warning
        decode<<<*h_count, 256, 0, st>>>(1u, d_boxes);
    }
};

int frames(Detector &d, Borrowed &b, int n, cudaStream_t side)
{
    int found = 0;
    for (int f = 0; f < n; f++) {
        found += d.sized();
        d.mapped();
        d.nms(64);
        found += d.tested();
        d.counted();
        d.unrelated();
        d.read_only();
        d.device_too();
        d.work_between();
        d.other_stream(side);
        b.sized();
    }
    return found;
}
