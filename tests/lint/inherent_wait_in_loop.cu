// inherent_wait_in_loop.cu: a pageable copy that the next statement waits for costs nothing
// more than that wait, also inside a loop that launches: the copy is a note ("inherent"), and so
// is the wait: the host sorts the data and sends it back for the next launch (CenterPoint's
// detections), needing it at once (a sort on the device is a rewrite: the judging standard). The
// copy back runs on a stream the wait left idle: a note. Also when all are written in an
// error-checking macro that expands to a bare block (CenterPoint's checkCudaErrors).
#include <algorithm>
#include <cuda_runtime.h>
#include <stdlib.h>
#include <vector>

#define CHECK(op)                                                                                \
    {                                                                                            \
        auto status = (op);                                                                      \
        if (status != 0)                                                                         \
            abort();                                                                             \
    }

__global__ void detect(float *d) { d[threadIdx.x] = (float)threadIdx.x; }

void per_frame(float *d, int frames, cudaStream_t s)
{
    std::vector<float> h(256);
    for (int f = 0; f < frames; f++) {
        detect<<<1, 256, 0, s>>>(d);
        cudaMemcpyAsync(h.data(), d, 256 * sizeof(float), cudaMemcpyDeviceToHost, s); // expect: SYNC201 expect-severity: note expect-message: inherent: the next statement (line 27) waits for the copy anyway
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: inherent: the next statement needs the value (line 28 passes 'h' to 'std::sort()')
        std::sort(h.begin(), h.end());
        cudaMemcpyAsync(d, h.data(), 256 * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: note expect-message: idle: the stream 's' was synchronized at line 27
    }
}

void per_frame_checked(float *d, int frames, cudaStream_t s)
{
    std::vector<float> h(256);
    for (int f = 0; f < frames; f++) {
        detect<<<1, 256, 0, s>>>(d);
        CHECK(cudaMemcpyAsync(h.data(), d, 256 * sizeof(float), cudaMemcpyDeviceToHost, s)); // expect: SYNC201 expect-severity: note expect-message: inherent: the next statement (line 39) waits for the copy anyway
        CHECK(cudaStreamSynchronize(s)); // expect: SYNC401 expect-severity: note expect-message: inherent: the next statement needs the value (line 40 passes 'h' to 'std::sort()')
        std::sort(h.begin(), h.end());
        CHECK(cudaMemcpyAsync(d, h.data(), 256 * sizeof(float), cudaMemcpyHostToDevice, s)); // expect: SYNC201 expect-severity: note expect-message: idle: the stream 's' was synchronized at line 39
    }
}
