// bounded_warm_up.cu: a loop with a constant trip count of at most 16 (literal bounds, a macro,
// a constexpr constant, a fixed-size std::array), nested in no other loop, in a function that
// runs once, beside a loop of the same run whose count is not bounded (the work that repeats,
// in the function or in a function it calls), runs a fixed few times per program: priming
// rounds before the solve. What is a warning only because of that loop becomes a note.
// Warnings stay for a count from a variable or a parameter, one above 16, a counter the body
// changes, such a loop inside another loop, one in a function a loop calls, and one that is
// its function's only loop (the program's work written with a literal count).
#include <array>
#include <cuda_runtime.h>
#include <stdlib.h>

#define SEED_PASSES 3
constexpr int kFlushRounds = 2;

__global__ void smooth(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i > 0 && i < n - 1)
        out[i] = 0.25f * (in[i - 1] + 2.0f * in[i] + in[i + 1]);
}

static void iterate(float *x, float *y, int n, int steps, cudaStream_t s, float *h)
{
    for (int k = 0; k < steps; ++k) {
        smooth<<<n / 128, 128, 0, s>>>(y, x, n);
        cudaMemcpyAsync(h, y + n / 2, sizeof(float), cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: warning
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
    }
}

// Its only loop: the work itself, written with a literal count.
static void eight_steps(float *x, float *y, int n, cudaStream_t s)
{
    for (int k = 0; k < 8; k++) {
        smooth<<<n / 128, 128, 0, s>>>(y, x, n);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
    }
}

// Called from a loop of main: its bounded loop runs on every pass of that loop.
static void reprime(float *x, float *y, int n, cudaStream_t s)
{
    for (int r = 0; r < 2; ++r) {
        cudaMemcpyAsync(y, x, n * sizeof(float), cudaMemcpyDeviceToDevice, s);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
    }
}

// Priming rounds, then the repeated work in the function it calls.
static void primed_run(float *x, float *y, int n, int steps, cudaStream_t s, float *h)
{
    for (int r = 0; r < 3; ++r) {
        cudaMemcpyAsync(y, x, n * sizeof(float), cudaMemcpyDeviceToDevice, s);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: bounded: the loop at line 53 runs at most 3 times (a constant count), outside any other loop, beside the loop at line 25 ('iterate', called at line 57), whose count is not bounded; and 'primed_run' is called once, from 'main'
    }
    iterate(x, y, n, steps, s, h);
}

// Called only from main's priming rounds: runs there a fixed few times.
static void push_and_wait(float *x, float *y, int n, cudaStream_t s)
{
    cudaMemcpyAsync(y, x, n * sizeof(float), cudaMemcpyDeviceToDevice, s);
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: bounded: the loop at bounded_warm_up.cu:155 runs at most 2 times (a constant count), outside any other loop, beside the loop at bounded_warm_up.cu:160, whose count is not bounded; and 'main' runs once
}

// Called from main's priming rounds and from its loop that repeats: a warning.
static void push_twice(float *x, float *y, int n, cudaStream_t s)
{
    cudaMemcpyAsync(y, x, n * sizeof(float), cudaMemcpyDeviceToDevice, s);
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
}

// Must stay warnings, beside a loop whose count is not bounded.
static void stays(float *x, float *y, int n, int steps, int passes, cudaStream_t s,
                  cudaStream_t *lanes, float *h)
{
    int rounds = 4;
    for (int r = 0; r < rounds; ++r) {
        cudaMemcpyAsync(y, x, n * sizeof(float), cudaMemcpyDeviceToDevice, s);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
    }
    for (int r = 0; r < passes; ++r) {
        cudaMemcpyAsync(x, y, n * sizeof(float), cudaMemcpyDeviceToDevice, s);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
    }
    for (int r = 0; r < 64; ++r) {
        cudaMemcpyAsync(y, x, n * sizeof(float), cudaMemcpyDeviceToDevice, s);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
    }
    for (int r = 0; r < 4; ++r) {
        cudaMemcpyAsync(x, y, n * sizeof(float), cudaMemcpyDeviceToDevice, s);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        if (*h > 1.0f)
            --r;
    }
    for (int pass = 0; pass < passes; ++pass) {
        for (int r = 0; r < 4; ++r) {
            cudaMemcpyAsync(y, x, n * sizeof(float), cudaMemcpyDeviceToDevice, s);
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        }
    }
    bool done = false;
    while (!done) {
        for (int l = 0; l < 4; ++l)
            smooth<<<n / 128, 128, 0, lanes[l]>>>(y, x, n);
        for (int l = 0; l < 4; l++)
            cudaStreamSynchronize(lanes[l]); // expect: SYNC401 expect-severity: warning
        done = *h < 0.5f;
    }
    iterate(x, y, n, steps, s, h);
}

int main(int argc, char **argv)
{
    const int n = 1 << 16;
    int steps = argc > 1 ? atoi(argv[1]) : 100;
    float *x, *y, *h;
    cudaStream_t s, lanes[4];
    std::array<cudaStream_t, 2> pair;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    for (int l = 0; l < 4; ++l)
        cudaStreamCreateWithFlags(&lanes[l], cudaStreamNonBlocking);
    for (cudaStream_t &p : pair)
        cudaStreamCreateWithFlags(&p, cudaStreamNonBlocking);
    cudaMallocAsync(&x, n * sizeof(float), s);
    cudaMallocAsync(&y, n * sizeof(float), s);
    cudaMallocHost(&h, sizeof(float));

    for (int r = 0; r < 4; ++r) {
        cudaMemcpyAsync(y, x, n * sizeof(float), cudaMemcpyDeviceToDevice, s);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: bounded: the loop at line 130 runs at most 4 times (a constant count), outside any other loop, beside the loop at line 160, whose count is not bounded; and 'main' runs once
    }
    for (int r = 0; r <= 2; r++) {
        cudaMemcpyAsync(x, y, n * sizeof(float), cudaMemcpyDeviceToDevice, s);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: the loop at line 134 runs at most 3 times (a constant count)
    }
    for (int r = 0; r != 4; r += 1) {
        cudaMemcpyAsync(y, x, n * sizeof(float), cudaMemcpyDeviceToDevice, s);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: the loop at line 138 runs at most 4 times (a constant count)
    }
    for (int r = SEED_PASSES; r > 0; --r) {
        cudaMemcpyAsync(x, y, n * sizeof(float), cudaMemcpyDeviceToDevice, s);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: the loop at line 142 runs at most 3 times (a constant count)
    }
    for (int r = 0; r < kFlushRounds; ++r) {
        cudaMemcpyAsync(y, x, n * sizeof(float), cudaMemcpyDeviceToDevice, s);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: the loop at line 146 runs at most 2 times (a constant count)
    }
    for (cudaStream_t p : pair) {
        cudaMemcpyAsync(x, y, n * sizeof(float), cudaMemcpyDeviceToDevice, p);
        cudaStreamSynchronize(p); // expect: SYNC401 expect-severity: note expect-message: the loop at line 150 runs at most 2 times (a constant count)
    }

    for (int r = 0; r < 2; ++r)
        push_and_wait(x, y, n, s);
    for (int r = 0; r < 2; ++r)
        push_twice(x, y, n, s);

    for (int k = 0; k < steps; ++k) {
        smooth<<<n / 128, 128, 0, s>>>(y, x, n);
        reprime(x, y, n, s);
        push_twice(x, y, n, s);
    }
    primed_run(x, y, n, steps, s, h);
    stays(x, y, n, steps, argc, s, lanes, h);
    eight_steps(x, y, n, s);
    cudaFreeAsync(x, s);
    cudaFreeAsync(y, s);
    cudaStreamSynchronize(s);
    return 0;
}
