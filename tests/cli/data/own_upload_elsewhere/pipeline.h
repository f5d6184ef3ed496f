// pipeline.h: a feature pipeline whose batch() the driver of another unit calls per step.
#include <cuda_runtime.h>

struct Lane {
    int channel, frames;
};

struct Pipeline {
    Lane *h_lanes, *d_lanes;
    float *d_out;
    cudaEvent_t ev, ev_kernel;
    cudaStream_t st;
    Pipeline(int n = 32); // pins the table
    void batch(int n);
    void batch_kernel(int n);
};
