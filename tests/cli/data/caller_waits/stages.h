// stages.h: the stages of a frame, each ending with a wait for the stream it is given.
#include <cuda_runtime.h>
int stage_sync(float *d, int n, cudaStream_t s);
int stage_timed(float *d, int n, cudaStream_t s);
int stage_device(float *d, int n, cudaStream_t s);
int stage_event(float *d, int n, cudaStream_t s);
int stage_next(float *d, int n, cudaStream_t s);
int stage_mixed(float *d, int n, cudaStream_t s);
int stage_pointer(float *d, int n, cudaStream_t s);
int stage_count(float *d, int *count, int n, cudaStream_t s);
int finish(float *d, int n, cudaStream_t s);
void pipeline(float *d, int *count, int n, int frames, cudaStream_t s);
