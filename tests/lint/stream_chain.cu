// stream_chain.cu: a stream variable copied from variable to variable is followed through four
// copies to its value, by SYNC101/SYNC102 as by SYNC202 (SYNC101 stopped one copy short: five
// variables ending in 0 were not reported); a sixth variable is past the limit: not reported,
// and counted as a stream other than the legacy one.
// (five() takes a stream it does not use: legacy work with a stream at hand is a warning.)
#include <cuda_runtime.h>

__global__ void step(int *x) { *x = 0; }

void five(int *d, cudaStream_t unused)
{
    (void)unused;
    cudaStream_t s1 = 0;
    cudaStream_t s2 = s1;
    cudaStream_t s3 = s2;
    cudaStream_t s4 = s3;
    cudaStream_t s5 = s4;
    step<<<1, 1, 0, s5>>>(d); // expect: SYNC101 expect-severity: note expect-message: on the legacy default stream (stream 's5')
    cudaMemsetAsync(d, 0, sizeof(int), s5); // expect: SYNC102 expect-severity: note expect-message: convention:
}

void six(int *d)
{
    cudaStream_t s1 = 0;
    cudaStream_t s2 = s1;
    cudaStream_t s3 = s2;
    cudaStream_t s4 = s3;
    cudaStream_t s5 = s4;
    cudaStream_t s6 = s5;
    step<<<1, 1, 0, s6>>>(d);
}
