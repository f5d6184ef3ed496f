// unparsed_function.cu: a warning in a function that holds a parse error becomes a note: clang's
// recovery may have dropped the statement that needs the value, a wait or the loop's exit, so
// lint's reading of that function is not sure ("unsure: ..."; the message keeps what lint read).
// A function of the same unit with no error keeps its warning. CUDASW4's gridsearch.cu
// (held-out-28), whose 'main' does not compile (an '#include' without its opening quote, and
// the types it would declare).
// expect-error: use of undeclared identifier 'Buffer'
#include <cuda_runtime.h>

__global__ void step(float *x, int *n) { *n = (int)x[threadIdx.x]; }

int main()
{
    float *d;
    int *dn;
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    cudaMalloc(&d, 256);
    cudaMalloc(&dn, sizeof(int));
    Buffer<float> scores(64);
    for (int i = 0; i < 100; i++) {
        step<<<1, 64, 0, s>>>(d, dn);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: the GPU drains and idles while the host catches up; unsure: 'main' has a parse error at line 20, and what clang could not read of it may use the value or wait; fix the error and lint again
    }
    return 0;
}

void parsed(float *d, int *dn, cudaStream_t s)
{
    for (int i = 0; i < 100; i++) {
        step<<<1, 64, 0, s>>>(d, dn);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: unsure
    }
}
