/* converge_pair.cu: a Jacobi solver whose loop reads its convergence value back, as lint's
 * "inherent as written" note describes (docs/lint.md, "A value the loop only tests"), in the
 * form as written (interval 1: the L1 change read back and tested every iteration, the way
 * Gardenia's PageRank and cuda-samples' jacobiCudaGraphs do) and as the note says to rewrite
 * it (interval K: the change computed and read back every K-th iteration only, so the loop may
 * run up to K-1 iterations past convergence).
 * The system: n x n dense, diagonally dominant (a_ii = 1.05 x the row's other entries), so the
 * solve takes a few hundred iterations; n sets the GPU time of one iteration.
 * Usage: converge_pair INTERVAL [n] [max iterations] [repeats]
 * Prints, for the last of 'repeats' solves (the first ones warm up):
 *   steady: <us> us per iteration (<iterations> iterations after 0 warm-up)
 *   solve: <us> us, <iterations> iterations, change <value> */
#include "whatif_common.h"

/* One Jacobi sweep: xn = (b - (A - D) x) / D, one row a block; with 'diff' set, the L1 change
 * of the sweep is added to *diff. */
static __global__ void sweep(const float *a, const float *b, const float *x, float *xn, int n,
                             float *diff)
{
    __shared__ float part[256];
    int row = blockIdx.x;
    float s = 0.f;
    for (int j = threadIdx.x; j < n; j += blockDim.x)
        if (j != row)
            s += a[(size_t)row * n + j] * x[j];
    part[threadIdx.x] = s;
    __syncthreads();
    for (int w = blockDim.x / 2; w > 0; w /= 2) {
        if ((int)threadIdx.x < w)
            part[threadIdx.x] += part[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        float v = (b[row] - part[0]) / a[(size_t)row * n + row];
        xn[row] = v;
        if (diff != NULL)
            atomicAdd(diff, fabsf(v - x[row]));
    }
}

static __global__ void fill(float *a, float *b, int n)
{
    int row = blockIdx.x;
    float off = 0.f;
    for (int j = threadIdx.x; j < n; j += blockDim.x) {
        float v = j == row ? 0.f : 1.f / (1.f + (float)abs(j - row));
        a[(size_t)row * n + j] = v;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int j = 0; j < n; j++)
            off += a[(size_t)row * n + j];
        a[(size_t)row * n + row] = 1.05f * off;
        b[row] = 1.f;
    }
}

/* The loop as written: the change read back and tested every iteration (lint: a note,
 * "inherent as written: the loop only tests it ..."). Returns the iterations. */
static int solve_written(const float *a, const float *b, float *x, float *xn, float *d_diff,
                         int n, int max_iter, float eps, float *change)
{
    float h_diff = 0.f;
    int iter = 0;
    do {
        CHECK(cudaMemsetAsync(d_diff, 0, sizeof(float), 0));
        sweep<<<n, 256>>>(a, b, x, xn, n, d_diff);
        float *t = x;
        x = xn;
        xn = t;
        iter++;
        CHECK(cudaMemcpy(&h_diff, d_diff, sizeof(float), cudaMemcpyDeviceToHost));
    } while (h_diff > eps && iter < max_iter);
    *change = h_diff;
    return iter;
}

/* The loop as the note says: the change computed and read back every 'interval'-th iteration
 * only. Returns the iterations. */
static int solve_every(const float *a, const float *b, float *x, float *xn, float *d_diff,
                       int n, int interval, int max_iter, float eps, float *change)
{
    float h_diff = 1.f;
    int iter = 0;
    while (h_diff > eps && iter < max_iter) {
        int check = (iter + 1) % interval == 0;
        if (check)
            CHECK(cudaMemsetAsync(d_diff, 0, sizeof(float), 0));
        sweep<<<n, 256>>>(a, b, x, xn, n, check ? d_diff : NULL);
        float *t = x;
        x = xn;
        xn = t;
        iter++;
        if (check)
            CHECK(cudaMemcpy(&h_diff, d_diff, sizeof(float), cudaMemcpyDeviceToHost));
    }
    *change = h_diff;
    return iter;
}

/* One solve from x = 0; returns its iterations, the time in *us, the last change in *change. */
static int solve(const float *a, const float *b, float *x, float *xn, float *d_diff, int n,
                 int interval, int max_iter, double *us, float *change)
{
    const float eps = 1e-4f;
    int iter;
    CHECK(cudaMemset(x, 0, n * sizeof(float)));
    CHECK(cudaDeviceSynchronize());
    double start = now_us();
    if (interval == 1)
        iter = solve_written(a, b, x, xn, d_diff, n, max_iter, eps, change);
    else
        iter = solve_every(a, b, x, xn, d_diff, n, interval, max_iter, eps, change);
    CHECK(cudaDeviceSynchronize());
    *us = now_us() - start;
    return iter;
}

int main(int argc, char **argv)
{
    int interval = (int)arg_or(argc, argv, 1, 1), n = (int)arg_or(argc, argv, 2, 2048);
    int max_iter = (int)arg_or(argc, argv, 3, 5000), repeats = (int)arg_or(argc, argv, 4, 3);
    float *a = NULL, *b = NULL, *x = NULL, *xn = NULL, *d_diff = NULL, change = 0.f;
    double us = 0;
    int iter = 0;
    if (interval < 1 || n < 2 || max_iter < 1 || repeats < 1) {
        fprintf(stderr, "usage: converge_pair INTERVAL [n] [max iterations] [repeats]\n");
        return 2;
    }
    CHECK(cudaMalloc(&a, (size_t)n * n * sizeof(float)));
    CHECK(cudaMalloc(&b, n * sizeof(float)));
    CHECK(cudaMalloc(&x, n * sizeof(float)));
    CHECK(cudaMalloc(&xn, n * sizeof(float)));
    CHECK(cudaMalloc(&d_diff, sizeof(float)));
    fill<<<n, 256>>>(a, b, n);
    CHECK(cudaGetLastError());
    for (int r = 0; r < repeats; r++)
        iter = solve(a, b, x, xn, d_diff, n, interval, max_iter, &us, &change);
    printf("steady: %.3f us per iteration (%d iterations after 0 warm-up)\n", us / iter, iter);
    printf("solve: %.1f us, %d iterations, change %g\nok\n", us, iter, change);
    return 0;
}
