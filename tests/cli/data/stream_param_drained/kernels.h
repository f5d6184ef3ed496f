// kernels.h: a solver's device steps; Update works on a stream that defaults to the legacy one.
#include <cuda_runtime.h>

void Update(float *ar, unsigned n, cudaStream_t stm = NULL);
void Step(float *ar, unsigned n, cudaStream_t spare = NULL);
float Radius(unsigned body);
