// The device side of a small solver: each function uploads a table in parts and waits after
// each part's kernel. app.cpp calls them all, none is called from here.
#include <cuda_runtime.h>

__global__ void bake(float *t, int n) { t[threadIdx.x % n] *= 2.0f; }

#define PARTS(NAME)                                                                              \
    void NAME(float *t, const float *h, int n, int parts)                                        \
    {                                                                                            \
        for (int p = 0; p < parts; p++) {                                                        \
            cudaMemcpy(t, h + p * n, n * sizeof(float), cudaMemcpyHostToDevice);                 \
            bake<<<1, 32>>>(t, n);                                                               \
            cudaDeviceSynchronize();                                                             \
        }                                                                                        \
    }

// Only app.cpp's set-up calls it, outside loops, once per run: a note.
PARTS(load_tables)
// Set-up calls it, and so does the step loop: a warning.
PARTS(refresh_tables)
// Only a set-up function calls it, but that function runs on every step: a warning.
PARTS(reset_tables)
// Only set-up calls it, but its address is taken too: a warning.
PARTS(drop_tables)
// Called by a plain helper that only set-up calls: a note.
PARTS(seed_tables)
// Only a set-up function nothing calls calls it (a library's API: any time): a warning.
PARTS(fill_tables)
// A set-up function calls it inside a loop of its own: a warning.
PARTS(level_tables)

// A helper that the loops of two functions reach: a note where both run only during set-up
// (load_rows, load_cols), a warning where one of them runs on every step (feed_rows).
void put_row(float *t, const float *h, int n)
{
    cudaMemcpy(t, h, n * sizeof(float), cudaMemcpyHostToDevice);
    bake<<<1, 32>>>(t, n);
    cudaDeviceSynchronize();
}

void load_rows(float *t, const float *h, int n)
{
    for (int r = 0; r < 8; r++)
        put_row(t, h + r * n, n);
}

void load_cols(float *t, const float *h, int n)
{
    for (int c = 0; c < 8; c++)
        put_row(t, h + c, n);
}

void put_edge(float *t, const float *h, int n)
{
    cudaMemcpy(t, h, n * sizeof(float), cudaMemcpyHostToDevice);
    bake<<<1, 32>>>(t, n);
    cudaDeviceSynchronize();
}

void load_edges(float *t, const float *h, int n)
{
    for (int e = 0; e < 4; e++)
        put_edge(t, h + e, n);
}

void feed_edges(float *t, const float *h, int n)
{
    for (int e = 0; e < 4; e++)
        put_edge(t, h + e, n);
}

// A helper that only a set-up function's loop reaches in this unit, but that app.cpp's step
// loop calls through a function of this unit without a loop: a warning.
void put_col(float *t, const float *h, int n)
{
    cudaMemcpy(t, h, n * sizeof(float), cudaMemcpyHostToDevice);
    bake<<<1, 32>>>(t, n);
    cudaDeviceSynchronize();
}

void load_grid(float *t, const float *h, int n)
{
    for (int c = 0; c < 8; c++)
        put_col(t, h + c, n);
}

void step_col(float *t, const float *h, int n) { put_col(t, h, n); }
