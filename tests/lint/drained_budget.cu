// drained_budget.cu: lint follows the device's state through the unit's functions only so far:
// past a budget of statements for one finding (a fan-out of 60 calls three deep here, after the
// drain), the device counts as busy and the copy stays a warning. Below it (10 calls three
// deep) the same shape is a note.
#include <cuda_runtime.h>

#define TEN(x) x; x; x; x; x; x; x; x; x; x
#define SIXTY(x) TEN(x); TEN(x); TEN(x); TEN(x); TEN(x); TEN(x)

__global__ void step(float *x, int n) { x[threadIdx.x % n] += 1.0f; }

static int counter;

void leaf() { SIXTY(counter += 1); }
void middle() { SIXTY(leaf()); }
void wide() { SIXTY(middle()); }

void small_leaf() { TEN(counter += 1); }
void small_middle() { TEN(small_leaf()); }
void narrow() { TEN(small_middle()); }

void train_wide(float *d, const float *h, int n, int steps, cudaStream_t *s)
{
    cudaStreamCreate(s); // expect: SYNC103
    for (int i = 0; i < steps; i++) {
        step<<<1, 32, 0, *s>>>(d, n);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        wide();
        cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: warning
    }
}

void train_narrow(float *d, const float *h, int n, int steps, cudaStream_t s)
{
    for (int i = 0; i < steps; i++) {
        step<<<1, 32, 0, s>>>(d, n);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        narrow();
        cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: note expect-message: drained: the device has nothing queued here: 'cudaDeviceSynchronize' at drained_budget.cu:37 drained it
    }
}
