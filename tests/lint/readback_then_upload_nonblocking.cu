// readback_then_upload_nonblocking.cu: readback_then_upload.cu's shape in a unit that creates a
// non-blocking stream. A synchronous copy no longer drains the device to lint (work on 'side'
// goes on), so the upload is no "drained" note and the readback keeps its warning. An upload on
// 'side' does not wait for the legacy stream's work at all: a warning too.
#include <cuda_runtime.h>

__global__ void shrink(int *count, int *size, int n)
{
    if (threadIdx.x == 0)
        *count = n / 2 + *size;
}

void phases(int *d_count, int *d_size, int n, int rounds)
{
    cudaStream_t side;
    cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
    int edges = 0;
    for (int r = 0; r < rounds; r++) {
        shrink<<<(n + 255) / 256, 256>>>(d_count, d_size, n); // expect: SYNC101
        cudaMemcpy(&edges, d_count, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        n = n - 1;
        cudaMemcpy(d_size, &n, sizeof(int), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: warning
    }
    for (int r = 0; r < rounds; r++) {
        shrink<<<(n + 255) / 256, 256>>>(d_count, d_size, n); // expect: SYNC101
        cudaMemcpy(&edges, d_count, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        n = n - 1;
        cudaMemcpyAsync(d_size, &n, sizeof(int), cudaMemcpyHostToDevice, side); // expect: SYNC201 expect-severity: note expect-message: small: a copy of 4 bytes
    }
    cudaStreamDestroy(side);
}
