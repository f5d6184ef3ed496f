// idle_stream_copy.cu: a pageable copy on a stream that the same block synchronized before it,
// with no device work queued since (the host sorted what it read back in between), has nothing
// to overlap with: a note. With a launch between the wait and the copy, or a wait on another
// stream, it stays a warning.
#include <algorithm>
#include <cuda_runtime.h>
#include <stdlib.h>
#include <vector>

#define CHECK(call)                                                                              \
    {                                                                                            \
        cudaError_t status = (call);                                                             \
        if (status != cudaSuccess)                                                               \
            abort();                                                                             \
    }

__global__ void decode(float *d, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        d[i] = -d[i];
}

void sort_on_host(float *d_boxes, int n, int tasks, cudaStream_t s)
{
    std::vector<float> boxes(n);
    for (int t = 0; t < tasks; t++) {
        decode<<<(n + 255) / 256, 256, 0, s>>>(d_boxes, n);
        CHECK(cudaMemcpyAsync(boxes.data(), d_boxes, n * sizeof(float), cudaMemcpyDeviceToHost, s)); // expect: SYNC201 expect-severity: note
        CHECK(cudaStreamSynchronize(s)); // expect: SYNC401 expect-severity: note expect-message: inherent: the next statement needs the value (line 31 passes 'boxes' to 'std::sort()')
        std::sort(boxes.begin(), boxes.end());
        CHECK(cudaMemcpyAsync(d_boxes, boxes.data(), n * sizeof(float), cudaMemcpyHostToDevice, s)); // expect: SYNC201 expect-severity: note expect-message: idle: the stream 's' was synchronized at line 30 and nothing was queued since: the copy has nothing to overlap with
        decode<<<(n + 255) / 256, 256, 0, s>>>(d_boxes, n);
    }
}

void refill_after_launch(float *d_boxes, int n, int tasks, cudaStream_t s, cudaStream_t other)
{
    std::vector<float> boxes(n);
    for (int t = 0; t < tasks; t++) {
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        decode<<<(n + 255) / 256, 256, 0, s>>>(d_boxes, n);
        cudaMemcpyAsync(d_boxes, boxes.data(), n * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: warning
        decode<<<(n + 255) / 256, 256, 0, s>>>(d_boxes, n);
        cudaStreamSynchronize(other); // expect: SYNC401 expect-severity: warning
        std::sort(boxes.begin(), boxes.end());
        cudaMemcpyAsync(d_boxes, boxes.data(), n * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: warning
        decode<<<(n + 255) / 256, 256, 0, s>>>(d_boxes, n);
    }
}
