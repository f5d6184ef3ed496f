// Excluded by the root configuration: never parsed (it would not even parse).
#include <cuda_runtime.h>
this is not C++;
