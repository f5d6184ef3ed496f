/* plain.c: a C file: no default arguments, NULL is ((void *)0). */
#include <cuda_runtime.h>
#include <stddef.h>

void clear(void *device, size_t n, cudaStream_t s)
{
    cudaMemsetAsync(device, 0, n, 0);    /* expect: SYNC102 */
    cudaMemsetAsync(device, 0, n, NULL); /* expect: SYNC102 */
    cudaMemsetAsync(device, 0, n, s);
}
