// The loop that calls lib.cu's two steps on every iteration.
#include <cuda_runtime.h>
void step_a(float *x, cudaStream_t s);
void step_b(float *x, cudaStream_t s);
int main()
{
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    for (int i = 0; i < 10; i++) {
        step_a(nullptr, s);
        step_b(nullptr, s);
    }
}
