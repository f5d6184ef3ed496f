// readback_then_upload_per_thread.cu: readback_then_upload.cu's shape compiled with the per-thread
// default stream. Lint does not take a synchronous copy there for a drain of the device (other
// threads' default streams are not waited for), so the upload is no "drained" note and the
// readback keeps its warning.
// lint-args: -DCUDA_API_PER_THREAD_DEFAULT_STREAM
#include <cuda_runtime.h>

__global__ void shrink(int *count, int *size, int n)
{
    if (threadIdx.x == 0)
        *count = n / 2 + *size;
}

void phases(int *d_count, int *d_size, int n, int rounds)
{
    int edges = 0;
    for (int r = 0; r < rounds; r++) {
        shrink<<<(n + 255) / 256, 256>>>(d_count, d_size, n);
        cudaMemcpy(&edges, d_count, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        n = n - 1;
        cudaMemcpy(d_size, &n, sizeof(int), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: warning
    }
}
