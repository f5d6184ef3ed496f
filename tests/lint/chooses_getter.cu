// chooses_getter.cu: a getter that reads one value back and returns it (Gardenia's
// 'Worklist2::nitems()'), called only in this unit, every call of which in a loop stores the
// value in a local that the host needs before any other device work: it sizes the next launch's
// grid, or the loop's condition or a branch choosing the next launch tests it. The finding sits
// at the getter's copy, named for a caller's loop: inherent, a note (chooses.c) that names each
// call. A call outside any loop, in a function no loop reaches, runs once and is passed over.
// chooses_getter_kept.cu has the twins that stay warnings.
#include <cuda_runtime.h>

__global__ void expand(int *depth, int n) { depth[threadIdx.x % n] = n; }
__global__ void top_down(int *depth, int *scout) { *scout = depth[threadIdx.x]; }

static int zero = 0;

struct Worklist {
    int *d_index;
    int nitems()
    {
        int index;
        cudaMemcpy(&index, d_index, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent: each call of 'Worklist::nitems()' in a loop of the unit needs the value before any other device work: chooses_getter.cu:35 (line 41, the loop's condition, tests it before any launch), chooses_getter.cu:54 (line 57 sizes a launch with 'blocks', computed from it), chooses_getter.cu:59 (line 65, the loop's condition, tests it before any launch)
        return index;
    }
    void reset() { cudaMemcpy(d_index, &zero, sizeof(int), cudaMemcpyHostToDevice); } // expect: SYNC202 expect-severity: note
};

// Gardenia's linear BFS: the size sizes the launch, then the loop's condition tests the next
// (static: a function another unit may call counts its call before the loop as a loop's).
static int linear(Worklist *in, Worklist *out, int *depth)
{
    int rounds = 0;
    int n = in->nitems();
    do {
        int blocks = (n - 1) / 256 + 1;
        expand<<<blocks, 256>>>(depth, n); // expect: SYNC101
        n = out->nitems();
        Worklist *tmp = in;
        in = out;
        out = tmp;
        out->reset();
        rounds++;
    } while (n > 0);
    return rounds;
}

// Gardenia's hybrid BFS: the top-down branch reads the size first and sizes its launch with it.
void hybrid(Worklist *in, Worklist *out, int *depth, int *d_scout, int edges)
{
    int scout = 1, n = 1;
    do {
        if (scout > edges / 15) {
            expand<<<64, 256>>>(depth, 1); // expect: SYNC101
            scout = 1;
        } else {
            n = in->nitems();
            int blocks = (n - 1) / 256 + 1;
            cudaMemcpy(d_scout, &zero, sizeof(int), cudaMemcpyHostToDevice); // expect: SYNC202
            top_down<<<blocks, 256>>>(depth, d_scout); // expect: SYNC101
            cudaMemcpy(&scout, d_scout, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent: the value chooses the next device work (line 50's 'if' tests it before any launch, in the loop's next round)
            n = out->nitems();
            Worklist *tmp = in;
            in = out;
            out = tmp;
            out->reset();
        }
    } while (n > 0);
}
