#include <cuda_runtime.h>
bool check(cudaError_t e, const char *what);
bool make_array(const float *data, cudaArray *&array, cudaTextureObject_t &tex, int n);
bool make_array_early(const float *data, cudaArray *&array, int n);
