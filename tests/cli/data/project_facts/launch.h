// launch.h: launch wrappers defined in kernels.cu, and a class whose methods post.cu defines.
#include <cuda_runtime.h>
int permute_launch(float *d, int n, cudaStream_t stream);
int launch_only(float *d, int n, cudaStream_t stream);
int wait_then_launch(float *d, int n, cudaStream_t stream);
int wait_other(float *d, int n, cudaStream_t stream);
int sync_then_launch(float *d, int n, cudaStream_t stream);
int wait_first(float *d, int n, cudaStream_t stream);
struct Post {
    int permute(float *d, int n, cudaStream_t stream);
    int scale(float *d, int n, cudaStream_t stream);
};
