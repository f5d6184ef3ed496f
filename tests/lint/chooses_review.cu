// chooses_review.cu: readbacks whose 'if' leaves nothing of the loop (a 'continue' that skips
// host code only, an inner loop's 'continue', a lambda's 'return'): the value chooses no device
// work, warnings; and a getter also called, outside any loop, by functions another unit may
// call (a wrapper that returns it, one that discards it): the warning stays.
#include <algorithm>
#include <cuda_runtime.h>

__global__ void relax(int *d, int r) { d[threadIdx.x] = r; }

long stats(int *d, int *d_moved, int rounds, int *hist)
{
    long total = 0;
    for (int r = 0; r < rounds; ++r) {
        relax<<<64, 256>>>(d, r); // expect: SYNC101
        int moved;
        cudaMemcpy(&moved, d_moved, sizeof moved, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        total += moved;
        if (moved == 0)
            continue;
        hist[r % 16] += moved;
    }
    return total;
}

long bits(int *d, int *d_moved, int rounds, int *hist)
{
    long total = 0;
    for (int r = 0; r < rounds; ++r) {
        relax<<<64, 256>>>(d, r); // expect: SYNC101
        int moved;
        cudaMemcpy(&moved, d_moved, sizeof moved, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        total += moved;
        if (moved > 0) {
            for (int b = 0; b < 32; b++) {
                if (!((moved >> b) & 1))
                    continue;
                hist[b]++;
            }
        }
    }
    return total;
}

long sorted(int *d, int *d_moved, int rounds, int *v)
{
    long total = 0;
    for (int r = 0; r < rounds; ++r) {
        relax<<<64, 256>>>(d, r); // expect: SYNC101
        int moved;
        cudaMemcpy(&moved, d_moved, sizeof moved, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        total += moved;
        if (moved > 0)
            std::sort(v, v + 16, [](int a, int b) { return a > b; });
    }
    return total;
}

struct Worklist {
    int *d_index;
    int nitems()
    {
        int index;
        cudaMemcpy(&index, d_index, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        return index;
    }
};

static void linear(Worklist *q, int *depth)
{
    int n = 1;
    do {
        relax<<<(n - 1) / 256 + 1, 256>>>(depth, n); // expect: SYNC101
        n = q->nitems();
    } while (n > 0);
}

int peek_size(Worklist *q) { return q->nitems(); }
void poke(Worklist *q) { q->nitems(); }
void run(Worklist *q, int *depth) { linear(q, depth); }
