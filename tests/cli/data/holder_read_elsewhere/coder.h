// coder.h: an image coder whose encode steps the driver of another unit calls per frame.
#include <cuda_runtime.h>
#include <stddef.h>

struct Segment {
    int offset, size;
};

struct Coder {
    cudaStream_t st;
    short *d_coef, *h_coef;   // h_coef: pinned
    Segment *d_segs, *h_segs; // h_segs: pinned
    int segs, timed, layout;
    size_t count;
    cudaEvent_t stop;
};

int pack(Coder *c); // reads c->h_coef (defined at the end of coder.cu)
int encode_packed(Coder *c);
size_t encode_segments(Coder *c);
int encode_unread(Coder *c);
