/* Found only through the include paths CMake puts in a response file. */
#include <cuda_runtime.h>
#define PROJECT_STREAMS 1
