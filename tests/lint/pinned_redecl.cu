// pinned_redecl.cu: a buffer declared 'extern' before the code that uses it and defined after
// it is one variable: a store into it through either declaration counts. 'result' is pinned in
// setup() but 'reset_to_host()' points it at malloc'ed memory through the definition, so the
// kernel does not always write pinned memory and the wait after it is no inherent wait for it
// (a warning; a note at 6b05f6f, which filed the store under the definition and looked it up
// under the extern declaration). 'flags', declared the same way and only ever pinned, keeps
// its note.
#include <cuda_runtime.h>
#include <stdlib.h>

__global__ void produce(unsigned *out) { out[0] = 1; }

extern unsigned *result;
extern unsigned *flags;

void setup()
{
    cudaMallocHost((void **)&result, 256);
    cudaMallocHost((void **)&flags, 256);
}

void run(cudaStream_t s)
{
    for (int i = 0; i < 100; i++) {
        produce<<<1, 1, 0, s>>>(result);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        produce<<<result[0], 256, 0, s>>>(result);
        produce<<<1, 1, 0, s>>>(flags);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: inherent: it waits for the kernel launched at line 28, which writes pinned host memory
        produce<<<flags[0], 256, 0, s>>>(flags);
    }
}

unsigned *result;
unsigned *flags;

void reset_to_host() { result = (unsigned *)malloc(64); }
