// set_up_chain_errors.cu: in a unit with errors, a call clang could not make sense of is not in
// the call graph, though it may run a set-up function in a loop: a loop that only set-up code
// reaches (set_up_chain.cu) is a note only where every mention of each function on the way is
// one the graph knows. Here 'init_tables' is also mentioned in a frame loop, in a call with an
// undeclared argument: the helper's wait stays a warning. 'init_copies' has no such mention:
// its helper's wait is a note.
// expect-error: use of undeclared identifier 'frame_buffer'
#include <cuda_runtime.h>

__global__ void step(float *x) { x[threadIdx.x] += 1.0f; }

static void upload_tables(float *t, int n)
{
    for (int i = 0; i < n; i++) {
        step<<<1, 64>>>(t + 64 * i); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}

static void init_tables(float *t, int n) { upload_tables(t, n); }

static void upload_copies(float *t, int n)
{
    for (int i = 0; i < n; i++) {
        step<<<1, 64>>>(t + 64 * i); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: set-up: the loop at line 24 runs during set-up: every call of 'upload_copies' is made during set-up, in 'init_copies', which sets up (its name says so) and is called only outside loops, from 'main'
    }
}

static void init_copies(float *t, int n) { upload_copies(t, n); }

int main(int argc, char **argv)
{
    float *t;
    cudaMalloc(&t, 1 << 20);
    init_tables(t, 4);
    init_copies(t, 4);
    for (int f = 0; f < argc; f++)
        init_tables(frame_buffer, 4);
    return 0;
}
