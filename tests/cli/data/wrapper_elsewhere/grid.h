// grid.h: a grid of bins rebuilt on the device; defined in grid.cu.
#include <cuda_runtime.h>
struct Grid {
    void InitBins(float *p, int n);
    void rebuild(float *p, int n);
    void query(float *p, int n, cudaStream_t stream);
    void prefetch(float *p, int n);
    void summary(float *p, int n);
    void scrubbed(float *p, int n);
};
