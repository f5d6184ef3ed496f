// readback_then_upload_streams.cu: readback_then_upload.cu's shape in a unit whose streams all
// block. The readback on the legacy stream waits for the kernel on 's' (a blocking stream), and
// so does the synchronous upload after it: the readback is a note ("drained anyway"), the upload
// keeps its "drained" note. An asynchronous upload on 's' returns without waiting for the queued
// work (a few bytes are staged at once): the readback keeps its warning.
#include <cuda_runtime.h>

__global__ void shrink(int *count, int *size, int n)
{
    if (threadIdx.x == 0)
        *count = n / 2 + *size;
}

void phases(int *d_count, int *d_size, int n, int rounds)
{
    cudaStream_t s;
    cudaStreamCreate(&s); // expect: SYNC103
    int edges = 0;
    for (int r = 0; r < rounds; r++) {
        shrink<<<(n + 255) / 256, 256, 0, s>>>(d_count, d_size, n);
        cudaMemcpy(&edges, d_count, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: drained anyway: the next device call, 'cudaMemcpy' at line 23, a synchronous copy to the device, waits for the same work: from pageable or pinned memory alike it returns only once the work queued before it is done (on the legacy stream, which waits for the work of the unit's other streams: it creates them blocking)
        n = n - 1;
        cudaMemcpy(d_size, &n, sizeof(int), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: note expect-message: 'cudaMemcpy' at readback_then_upload_streams.cu:21 drained it
    }
    for (int r = 0; r < rounds; r++) {
        shrink<<<(n + 255) / 256, 256, 0, s>>>(d_count, d_size, n);
        cudaMemcpy(&edges, d_count, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        n = n - 1;
        cudaMemcpyAsync(d_size, &n, sizeof(int), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: note expect-message: small: a copy of 4 bytes
    }
    cudaStreamDestroy(s);
}
