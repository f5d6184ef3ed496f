// set_up_chain_errors.cu: in a unit with errors, a call clang could not make sense of is not in
// the call graph, though it may run a set-up function in a loop, and a loop clang could not
// read may have become a block: a loop that only set-up code reaches (set_up_chain.cu) is a
// note only where every mention of each function on the way is one the graph knows and no
// function whose calls it relies on holds an error. Here 'init_tables' is also mentioned in a
// frame loop, in a call with an undeclared argument, and 'init_extra' is called by a function
// that holds an error: their helpers' waits stay warnings. 'init_copies' has neither: its
// helper's wait is a note.
// expect-error: use of undeclared identifier 'frame_buffer'
// expect-error: use of undeclared identifier 'FOR_EACH_FRAME'
// expect-error: expected ';' after expression
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
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: set-up: the loop at line 28 runs during set-up: every call of 'upload_copies' is made during set-up, in 'init_copies', which sets up (its name says so) and is called only outside loops, from 'main'
    }
}

static void init_copies(float *t, int n) { upload_copies(t, n); }

static void upload_extra(float *t, int n)
{
    for (int i = 0; i < n; i++) {
        step<<<1, 64>>>(t + 64 * i); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}

static void init_extra(float *t, int n) { upload_extra(t, n); }

static void frames(float *t, int count)
{
    for (int f = 0; f < count; f++)
        init_tables(frame_buffer, 4);
}

static void extras(float *t, int count)
{
    FOR_EACH_FRAME(count) { init_extra(t, 4); }
}

int main(int argc, char **argv)
{
    float *t;
    cudaMalloc(&t, 1 << 20);
    init_tables(t, 4);
    init_copies(t, 4);
    frames(t, argc);
    extras(t, argc);
    return 0;
}
