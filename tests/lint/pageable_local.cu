// pageable_local.cu: SYNC201 for arrays and objects on the stack or in globals, struct
// members set in the function, '&a[i]' and both arms of '?:'.
#include <cuda_runtime.h>
#include <stdlib.h>

float g_table[256];
int g_count;
__device__ float d_table[256];

struct Job {
    float *input;
    float scratch[8];
    int n;
};

void local_array(float *d, cudaStream_t s)
{
    float coeffs[16] = {0};
    cudaMemcpyAsync(d, coeffs, sizeof coeffs, cudaMemcpyHostToDevice, s); // expect: SYNC201
    cudaMemcpyAsync(d, &coeffs[4], 4 * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201
    static float cache[16];
    cudaMemcpyAsync(cache, d, sizeof cache, cudaMemcpyDeviceToHost, s); // expect: SYNC201
}

void globals(float *d, int *dn, cudaStream_t s)
{
    cudaMemcpyAsync(d, g_table, sizeof g_table, cudaMemcpyHostToDevice, s); // expect: SYNC201
    cudaMemcpyAsync(dn, &g_count, sizeof g_count, cudaMemcpyHostToDevice, s); // expect: SYNC201
}

void address_of_local(int *dn, cudaStream_t s)
{
    int count = 0;
    cudaMemcpyAsync(&count, dn, sizeof(int), cudaMemcpyDeviceToHost, s); // expect: SYNC201
}

void struct_members(float *d, size_t n, cudaStream_t s)
{
    Job job;
    job.input = (float *)malloc(n * sizeof(float));
    job.n = (int)n;
    cudaMemcpyAsync(d, job.input, n * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201
    cudaMemcpyAsync(d, job.scratch, sizeof job.scratch, cudaMemcpyHostToDevice, s); // expect: SYNC201
    cudaMemcpyAsync(&job.n, d, sizeof(int), cudaMemcpyDeviceToHost, s); // expect: SYNC201
}

void member_of_someone_else(float *d, Job *job, cudaStream_t s)
{
    /* The struct lives wherever the caller put it, and its pointer field is unknown. */
    cudaMemcpyAsync(d, job->input, job->n * sizeof(float), cudaMemcpyHostToDevice, s);
}

void ternary_both_arms(float *d, size_t n, bool small, cudaStream_t s)
{
    float stack_buf[64];
    float *h = small ? stack_buf : (float *)malloc(n * sizeof(float));
    cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201
}

void ternary_mixed(float *d, float *pinned, size_t n, bool small, cudaStream_t s)
{
    float *h = small ? pinned : (float *)malloc(n * sizeof(float));
    cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
}

void element_address(float *d, int i, cudaStream_t s)
{
    float *block = (float *)malloc(1024 * sizeof(float));
    float *row = &block[i * 32];
    cudaMemcpyAsync(d, row, 32 * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201
}

void device_symbol(float *h_pinned, cudaStream_t s)
{
    /* A __device__ array is not host memory. */
    cudaMemcpyAsync(h_pinned, d_table, sizeof(float), cudaMemcpyDefault, s);
}
