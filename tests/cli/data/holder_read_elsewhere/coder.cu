#include "coder.h"

__global__ void quantize(short *coef, size_t count) { coef[threadIdx.x % count] >>= 1; }

int encode_packed(Coder *c)
{
    quantize<<<1, 256, 0, c->st>>>(c->d_coef, c->count);
    cudaMemcpyAsync(c->h_coef, c->d_coef, c->count * sizeof(short), cudaMemcpyDeviceToHost, c->st);
    cudaStreamSynchronize(c->st);
    if (c->timed) {
        cudaEventRecord(c->stop, c->st);
    }
    return pack(c);
}

size_t encode_segments(Coder *c)
{
    quantize<<<1, 256, 0, c->st>>>(c->d_coef, c->count);
    cudaMemcpyAsync(c->h_segs, c->d_segs, c->segs * sizeof(Segment), cudaMemcpyDeviceToHost, c->st);
    cudaStreamSynchronize(c->st);
    size_t total = 0;
    if (c->layout == 1) {
        for (int i = 0; i < c->segs; i++)
            total += c->h_segs[i].size;
    }
    return total;
}

int encode_unread(Coder *c)
{
    quantize<<<1, 256, 0, c->st>>>(c->d_coef, c->count);
    cudaMemcpyAsync(c->h_coef, c->d_coef, c->count * sizeof(short), cudaMemcpyDeviceToHost, c->st);
    cudaStreamSynchronize(c->st);
    return (int)c->count;
}

// The host coder: reads the coefficients the wait completed.
int pack(Coder *c)
{
    long sum = 0;
    for (size_t i = 0; i < c->count; ++i)
        sum += c->h_coef[i];
    return sum < 0;
}
