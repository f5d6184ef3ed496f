// utils.h: waits defined in utils.cpp, which the learner's unit sees only as declarations.
#include <cuda_runtime.h>
void SynchronizeDevice(const char *file, int line);
void SynchronizeStream(cudaStream_t stream);
void SynchronizeIf(int needed);
void SynchronizeThenCopy(float *d, int n, cudaStream_t stream);
struct Timer {
    void Stop();
};
// The learner's steps, for a caller outside this project: their stream parameters may be
// given any stream.
void Train(float *d, int n, int leaves, cudaStream_t stream, Timer *timer);
void Step(float *d, int n, int leaves, cudaStream_t stream);
