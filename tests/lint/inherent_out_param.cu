// inherent_out_param.cu: a one-value readback whose next statement hands the value (an element
// or member of the buffer it read into) to the caller through an out parameter: a reference
// parameter ('vmin = resf[0];'), a structure built from it ('lim = Range(resf[0], resf[1]);'),
// or what a pointer parameter points to ('*out = c.n;'). The caller asked for the value now:
// inherent, a note. Stored in a global, it stays a warning.
#include <cuda_runtime.h>

__global__ void reduce(unsigned *d) { d[threadIdx.x] += 1u; }

struct Range {
    unsigned lo, hi;
    Range(unsigned a, unsigned b) : lo(a), hi(b) {}
};

struct Count {
    unsigned n;
    unsigned pad;
};

void limits(unsigned *d, unsigned &vmin, unsigned &vmax, cudaStream_t s)
{
    reduce<<<1, 32, 0, s>>>(d);
    unsigned resf[2];
    cudaMemcpy(resf, d, sizeof(unsigned) * 2, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent: the next statement needs the value (line 25 hands it to the caller through 'vmin')
    vmin = resf[0];
    vmax = resf[1];
}

void range(unsigned *d, Range &lim, cudaStream_t s)
{
    reduce<<<1, 32, 0, s>>>(d);
    unsigned resf[2];
    cudaMemcpy(resf, d, sizeof(unsigned) * 2, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: hands it to the caller through 'lim'
    lim = Range(resf[0], resf[1]);
}

void count(unsigned *d, unsigned *out, cudaStream_t s)
{
    reduce<<<1, 32, 0, s>>>(d);
    Count c;
    cudaMemcpy(&c, d, sizeof(Count), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: hands it to the caller through 'out'
    *out = c.n;
}

unsigned last_seen;

void kept(unsigned *d, cudaStream_t s)
{
    reduce<<<1, 32, 0, s>>>(d);
    unsigned resf[2];
    cudaMemcpy(resf, d, sizeof(unsigned) * 2, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: how often it runs is not shown
    last_seen = resf[0];
}

// Since session 32 a warning whose call is in no loop that lint sees ends as the note "how often
// it runs is not shown" (docs/lint.md, "Warning or note", item 5): such a case that stays a
// warning above is that note here, asserted by its words (no other reason for a note applies).
