#include "kernels.h"
#include <cstring>
#include <cstddef>
static unsigned *h_memset, *h_sizeof, *h_cond, *h_and, *h_tmpl, *h_arith, *h_write;
static unsigned total;
static bool verbose;
static unsigned *saved;
template <class T> void later(T *p, cudaStream_t s)
{
    for (int i = 0; i < 100; i++)
        launch_tmpl(p, s); /* no read after: a hot-path stall */
}
void run(cudaStream_t s, int steps)
{
    cudaMallocHost((void **)&h_memset, 64);
    cudaMallocHost((void **)&h_sizeof, 64);
    cudaMallocHost((void **)&h_cond, 64);
    cudaMallocHost((void **)&h_and, 64);
    cudaMallocHost((void **)&h_tmpl, 64);
    cudaMallocHost((void **)&h_arith, 64);
    cudaMallocHost((void **)&h_write, 64);
    for (int i = 0; i < steps; i++) {
        launch_memset(h_memset, s);
        memset(h_memset, 0, 64); /* overwrites the output: no read */
        launch_sizeof(h_sizeof, s);
        size_t z = sizeof(h_sizeof[0]); /* unevaluated: no read */
        total += (unsigned)z;
        launch_cond(h_cond, s);
        total += verbose ? h_cond[0] : 0u; /* read only when verbose */
        launch_and(h_and, s);
        if (verbose && h_and[0] > 1) /* read only when verbose */
            total++;
        launch_tmpl(h_tmpl, s);
        total += h_tmpl[0];
        launch_arith(h_arith, s);
        saved = h_arith + 0; /* no read */
        launch_write(h_write, s);
        h_write[0] = 0; /* a store: the output is discarded */
    }
}
void other(cudaStream_t s) { later(h_tmpl, s); }
