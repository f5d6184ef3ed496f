// chooses_getter_kept.cu: twins of chooses_getter.cu whose getter's readback stays a warning: a
// call in a loop that discards the value, one that only prints it, one whose value no test or
// size reads before the next launch, one in a function that a loop calls (its caller's use is
// not followed), a virtual getter (an override may be called) and a getter of external
// linkage (another unit may call it from a loop lint does not see). Each getter also has a call
// that needs the value at once: one other call is enough to keep the warning.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void expand(int *depth, int n) { depth[threadIdx.x % n] = n; }

// The value discarded by one call.
struct Discarded {
    int *d_index;
    int nitems()
    {
        int index;
        cudaMemcpy(&index, d_index, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        return index;
    }
};

void discarded(Discarded *q, int *depth)
{
    int n = 1;
    do {
        expand<<<(n - 1) / 256 + 1, 256>>>(depth, n); // expect: SYNC101
        q->nitems();
        n = q->nitems();
    } while (n > 0);
}

// The value only printed, then a launch it does not size.
struct Printed {
    int *d_index;
    int nitems()
    {
        int index;
        cudaMemcpy(&index, d_index, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        return index;
    }
};

void printed(Printed *q, int *depth, int rounds)
{
    for (int r = 0; r < rounds; r++) {
        expand<<<4, 256>>>(depth, r); // expect: SYNC101
        int n = q->nitems();
        printf("%d\n", n);
    }
}

// The value summed, then a launch it does not size.
struct Summed {
    int *d_index;
    int nitems()
    {
        int index;
        cudaMemcpy(&index, d_index, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        return index;
    }
};

int summed(Summed *q, int *depth, int rounds)
{
    int total = 0;
    for (int r = 0; r < rounds; r++) {
        expand<<<4, 256>>>(depth, r); // expect: SYNC101
        int n = q->nitems();
        total += n;
    }
    return total;
}

// Called in a function that a loop calls: that caller's use is not followed.
struct Nested {
    int *d_index;
    int nitems()
    {
        int index;
        cudaMemcpy(&index, d_index, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        return index;
    }
};

static int size_of(Nested *q) { return q->nitems(); }

void nested(Nested *q, int *depth)
{
    int n = 1;
    do {
        expand<<<(n - 1) / 256 + 1, 256>>>(depth, n); // expect: SYNC101
        n = size_of(q);
    } while (n > 0);
}

// A virtual getter: a call may run an override.
struct Virtual {
    int *d_index;
    virtual int nitems()
    {
        int index;
        cudaMemcpy(&index, d_index, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        return index;
    }
};

void virtual_getter(Virtual *q, int *depth, int rounds)
{
    int n = 1;
    do {
        expand<<<(n - 1) / 256 + 1, 256>>>(depth, n); // expect: SYNC101
        n = q->nitems();
    } while (n > 0);
}

// A getter of external linkage: another unit may call it.
int count_of(int *d_index)
{
    int index;
    cudaMemcpy(&index, d_index, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
    return index;
}

void external(int *d_index, int *depth)
{
    int n = 1;
    do {
        expand<<<(n - 1) / 256 + 1, 256>>>(depth, n); // expect: SYNC101
        n = count_of(d_index);
    } while (n > 0);
}
