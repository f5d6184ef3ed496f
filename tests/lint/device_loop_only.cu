// device_loop_only.cu: a loop over the GPUs whose only device work is the reported call itself
// (kmcuda's FOR_EACH_DEVI: 'for (d...) { cudaSetDevice(d); copy; }') runs that call once per
// device and puts it between no other work: the loop does not make it "per iteration". The
// finding gets what it gets outside loops: an upload keeps its own severity (a warning, without
// the loop's words); a count read back from each device and tested at once is inherent, a note.
// With a kernel launched beside the call in the loop, or in a loop that does not set the device
// (chunks of one upload), the call runs per iteration, a warning.
#include <cuda_runtime.h>
#include <vector>

#define FOR_EACH_DEVI(...)                                                                       \
    do {                                                                                         \
        for (size_t devi = 0; devi < devs.size(); devi++) {                                      \
            cudaSetDevice(devs[devi]);                                                           \
            __VA_ARGS__;                                                                         \
        }                                                                                        \
    } while (false)

__global__ void scale(float *x, unsigned *count) { x[threadIdx.x] *= (float)*count; }

int upload(const std::vector<int> &devs, std::vector<float *> &dst, std::vector<cudaStream_t> &streams, size_t n)
{
    std::vector<float> sorted(n);
    for (size_t i = 0; i < n; i++)
        sorted[i] = (float)(n - i);
    FOR_EACH_DEVI(cudaMemcpyAsync(dst[devi], sorted.data(), n * sizeof(float), cudaMemcpyHostToDevice, streams[devi])); // expect: SYNC201 expect-severity: warning expect-no-message: on every iteration
    return 0;
}

unsigned largest(const std::vector<int> &devs, std::vector<unsigned *> &counts, std::vector<cudaStream_t> &streams)
{
    unsigned most = 0;
    for (size_t d = 0; d < devs.size(); d++) {
        cudaSetDevice(devs[d]);
        unsigned c = 0;
        cudaMemcpyAsync(&c, counts[d], sizeof c, cudaMemcpyDeviceToHost, streams[d]); // expect: SYNC201, SYNC301 expect-severity: note expect-message: inherent: the next statement needs the value (line 38 branches on it)
        cudaStreamSynchronize(streams[d]); // expect: SYNC401 expect-severity: warning
        if (c > most)
            most = c;
    }
    return most;
}

void step(const std::vector<int> &devs, std::vector<float *> &x, std::vector<unsigned *> &counts, const float *h,
          size_t n, std::vector<cudaStream_t> &streams)
{
    std::vector<float> staged(h, h + n);
    FOR_EACH_DEVI(scale<<<1, 256, 0, streams[devi]>>>(x[devi], counts[devi]); cudaMemcpyAsync(x[devi], staged.data(), n * sizeof(float), cudaMemcpyHostToDevice, streams[devi])); // expect: SYNC201 expect-severity: warning expect-message: it runs on every iteration of the loop at line 48, which enqueues device work
}

void upload_chunks(float *dst, size_t n, size_t chunk, cudaStream_t s)
{
    std::vector<float> h(n);
    for (size_t off = 0; off < n; off += chunk)
        cudaMemcpyAsync(dst + off, h.data() + off, chunk * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: warning expect-message: it runs on every iteration of the loop at line 54, which enqueues device work
}

void make_streams(std::vector<cudaStream_t> &streams)
{
    for (auto &s : streams)
        cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
}
