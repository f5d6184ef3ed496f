// inherent_branch_local.cu: a count read back and tested, then turned into a block count by a
// local declared inside the branch before the launch it sizes ('if (n > 0) { int blocks = (n +
// 127) / 128; k<<<blocks, 128>>>(...); }'): the host cannot queue that launch without the
// count, so the readback is inherent (a note), as when the launch names the count itself.
// gpu-louvain's buckets (held-out-18, session 28's partitions). A block count from something
// else, or unused, sizes nothing, but the 'if' chooses whether it runs: a note of chooses.c.
// lint-args: -std=c++17
#include <cuda_runtime.h>
#include <thrust/execution_policy.h>
#include <thrust/partition.h>

__global__ void fill(int *v, int n) { v[threadIdx.x % n] = n; }

struct above {
    int lo;
    __host__ __device__ bool operator()(int x) const { return x >= lo; }
};

// The block count computed inside the branch from the count: inherent.
void split_blocks(int *d, int n, int rounds, dim3 block)
{
    for (int r = 0; r < rounds; ++r) {
        int *end = thrust::partition(thrust::device, d, d + n, above{r}); // expect: SYNC301 expect-severity: note expect-message: inherent: the next device work needs the value (line 25 branches on it, and line 27 sizes a launch with 'blocks', computed from 'count', computed from it)
        int count = end - d;
        if (count > 0) {
            int blocks = (count + block.y - 1) / block.y;
            fill<<<blocks, block>>>(d, count); // expect: SYNC101
        }
    }
}

// A copied count tested, its block count a local of the branch, with host work between: the
// same.
void copied_blocks(int *d, int *d_count, int rounds)
{
    for (int r = 0; r < rounds; ++r) {
        fill<<<1, 64>>>(d, r + 1); // expect: SYNC101
        int count = 0;
        cudaMemcpy(&count, d_count, sizeof count, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent: the next statement needs the value (line 40 branches on it, and line 43 sizes a launch with 'grid', computed from 'count')
        if (count > 0) {
            int shared = 4 * r;
            int grid = (count + 255) / 256;
            fill<<<grid, 256, shared>>>(d, count); // expect: SYNC101
        }
    }
}

// The local inside the branch does not come from the count, and the launch's size is fixed (the
// count is only its argument): the 'if' still chooses whether it runs, a note (chooses.c).
void unrelated_local(int *d, int *d_count, int rounds)
{
    for (int r = 0; r < rounds; ++r) {
        fill<<<1, 64>>>(d, r + 1); // expect: SYNC101
        int count = 0;
        cudaMemcpy(&count, d_count, sizeof count, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent: the value chooses the next device work (line 56's 'if' tests it before any launch)
        if (count > 0) {
            int grid = 2 * r + 1;
            fill<<<grid, 256>>>(d, count); // expect: SYNC101
        }
    }
}

// The block count is computed from the count but only printed: the launch it guards is of a
// fixed size, which the 'if' chooses to run (chooses.c).
void unused_local(int *d, int *d_count, int rounds)
{
    for (int r = 0; r < rounds; ++r) {
        fill<<<1, 64>>>(d, r + 1); // expect: SYNC101
        int count = 0;
        cudaMemcpy(&count, d_count, sizeof count, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent: the value chooses the next device work (line 71's 'if' tests it before any launch)
        if (count > 0) {
            int blocks = (count + 255) / 256;
            (void)blocks;
            fill<<<4, 256>>>(d, r); // expect: SYNC101
        }
    }
}

// The local is overwritten before the launch: the launch's size does not come from the count.
void overwritten_local(int *d, int *d_count, int rounds)
{
    for (int r = 0; r < rounds; ++r) {
        fill<<<1, 64>>>(d, r + 1); // expect: SYNC101
        int count = 0;
        cudaMemcpy(&count, d_count, sizeof count, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent: the value chooses the next device work (line 86's 'if' tests it before any launch)
        if (count > 0) {
            int blocks = (count + 255) / 256;
            blocks = 4;
            fill<<<blocks, 256>>>(d, r); // expect: SYNC101
        }
    }
}

// Its address is taken before the launch: it may be anything by then.
void local_through_pointer(int *d, int *d_count, int rounds)
{
    for (int r = 0; r < rounds; ++r) {
        fill<<<1, 64>>>(d, r + 1); // expect: SYNC101
        int count = 0;
        cudaMemcpy(&count, d_count, sizeof count, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent: the value chooses the next device work (line 101's 'if' tests it before any launch)
        if (count > 0) {
            int blocks = (count + 255) / 256;
            int *at = &blocks;
            *at = 8;
            fill<<<blocks, 256>>>(d, r); // expect: SYNC101
        }
    }
}

// The count's size, not its value: 'sizeof' reads no value (the count the launch's argument).
void size_of_count(int *d, int *d_count, int rounds)
{
    for (int r = 0; r < rounds; ++r) {
        fill<<<1, 64>>>(d, r + 1); // expect: SYNC101
        int count = 0;
        cudaMemcpy(&count, d_count, sizeof count, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent: the value chooses the next device work (line 117's 'if' tests it before any launch)
        if (count > 0) {
            int blocks = (int)sizeof(count) * 2;
            fill<<<blocks, 256>>>(d, count); // expect: SYNC101
        }
    }
}

// Two locals in one declaration, the launch sized by the one that does not come from the count.
void two_declarators(int *d, int *d_count, int rounds)
{
    for (int r = 0; r < rounds; ++r) {
        fill<<<1, 64>>>(d, r + 1); // expect: SYNC101
        int count = 0;
        cudaMemcpy(&count, d_count, sizeof count, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent: the value chooses the next device work (line 131's 'if' tests it before any launch)
        if (count > 0) {
            int blocks = 2 * r + 1, grid = (count + 255) / 256;
            fill<<<blocks, 256>>>(d, grid); // expect: SYNC101
        }
    }
}
