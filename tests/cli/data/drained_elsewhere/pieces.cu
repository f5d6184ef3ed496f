// pieces.cu: Frontier::rebuild() and Grid<T>::refresh() end with synchronous readbacks, which
// leave nothing queued; Frontier::touch() and Frontier::redo() launch and return; the cutting
// methods do host arithmetic only. The class templates are instantiated here for float; their
// members' operators and constructions on dependent types are host work too.
#include "pieces.h"
__global__ void mark(unsigned *marks, unsigned *list, unsigned n, unsigned *count)
{
    unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n && marks[v])
        list[atomicAdd(count, 1u)] = v;
}
void Frontier::rebuild()
{
    mark<<<(n + 255) / 256, 256>>>(d_marks, d_list, n, d_list + n);
    cudaMemcpy(&count, d_list + n, sizeof(unsigned), cudaMemcpyDeviceToHost);
    cudaMemcpy(h_list, d_list, count * sizeof(unsigned), cudaMemcpyDeviceToHost);
}
void Frontier::touch()
{
    mark<<<(n + 255) / 256, 256>>>(d_marks, d_list, n, d_list + n);
}
void Frontier::redo()
{
    mark<<<(n + 255) / 256, 256>>>(d_marks, d_list, n, d_list + n);
}
void Pieces::cut(const Frontier &f, unsigned cap)
{
    count = 0;
    for (unsigned at = 0; at < f.count && count < 8; at += cap) {
        start[count] = at;
        size[count] = f.count - at < cap ? f.count - at : cap;
        count++;
    }
}
template <class T> __global__ void settle(T *cells, unsigned n) { cells[n] = cells[0]; }
template <class T> void Grid<T>::refresh()
{
    settle<<<1, 1>>>(d_cells, n);
    cudaMemcpy(&live, d_cells + n, sizeof(unsigned), cudaMemcpyDeviceToHost);
    Tally tally = Tally(d_cells, live);
    live = tally.count;
}
template <class T> void Slicer<T>::slice(const Grid<T> &g, unsigned cap)
{
    count = 0;
    for (unsigned at = 0; at < g.live && count < 8; at += cap) {
        start[count] = at;
        size[count] = g.live - at < cap ? g.live - at : cap;
        count++;
    }
}
template struct Grid<float>;
template struct Slicer<float>;
