// sweep.cu: out-of-core sweeps. Each round rebuilds the frontier (another unit), cuts it into
// pieces (another unit's host method) and, for each piece, waits, uploads, launches and waits.
// The wait that opens a piece has nothing to wait for: the previous piece ended with a wait,
// and the first follows the readbacks of the rebuild and host arithmetic only.
#include "pieces.h"
__global__ void relax(const unsigned *piece, unsigned len, unsigned *marks)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < len)
        marks[piece[i]] = 0;
}
void sweep(Frontier &f, unsigned *d_piece, unsigned cap)
{
    Pieces p;
    f.rebuild();
    while (f.count > 0) {
        p.cut(f, cap);
        for (unsigned k = 0; k < p.count; k++) {
            cudaDeviceSynchronize(); // nothing queued: rebuild() and cut() leave none
            cudaMemcpy(d_piece, f.h_list + p.start[k], p.size[k] * 4, cudaMemcpyHostToDevice);
            relax<<<(p.size[k] + 255) / 256, 256>>>(d_piece, p.size[k], f.d_marks);
            cudaDeviceSynchronize();
        }
        f.rebuild();
    }
}
// touch() queues a launch and returns: the first piece's wait waits for it.
void sweep_touched(Frontier &f, unsigned *d_piece, unsigned cap)
{
    Pieces p;
    f.touch();
    while (f.count > 0) {
        p.cut(f, cap);
        for (unsigned k = 0; k < p.count; k++) {
            cudaDeviceSynchronize(); // the launch of touch() may be queued
            cudaMemcpy(d_piece, f.h_list + p.start[k], p.size[k] * 4, cudaMemcpyHostToDevice);
            relax<<<(p.size[k] + 255) / 256, 256>>>(d_piece, p.size[k], f.d_marks);
            cudaDeviceSynchronize();
        }
        f.touch();
    }
}
// A virtual call: whichever override runs is not known, so neither is what it leaves queued.
void sweep_virtual(Frontier &f, unsigned *d_piece, unsigned cap)
{
    Pieces p;
    f.redo();
    while (f.count > 0) {
        p.cut(f, cap);
        for (unsigned k = 0; k < p.count; k++) {
            cudaDeviceSynchronize(); // the work of redo() may be queued
            cudaMemcpy(d_piece, f.h_list + p.start[k], p.size[k] * 4, cudaMemcpyHostToDevice);
            relax<<<(p.size[k] + 255) / 256, 256>>>(d_piece, p.size[k], f.d_marks);
            cudaDeviceSynchronize();
        }
        f.redo();
    }
}
// The class templates' members, which pieces.cu instantiates: as sweep().
void sweep_grid(Grid<float> &g, unsigned *d_piece, unsigned *d_marks, unsigned cap)
{
    Slicer<float> s;
    g.refresh();
    while (g.live > 0) {
        s.slice(g, cap);
        for (unsigned k = 0; k < s.count; k++) {
            cudaDeviceSynchronize(); // nothing queued: refresh() and slice() leave none
            cudaMemcpy(d_piece, g.h_cells + s.start[k], s.size[k] * 4, cudaMemcpyHostToDevice);
            relax<<<(s.size[k] + 255) / 256, 256>>>(d_piece, s.size[k], d_marks);
            cudaDeviceSynchronize();
        }
        g.refresh();
    }
}
