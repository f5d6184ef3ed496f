// The device side of a small grid solver: driver.c calls these functions, solver.cu calls none
// of them in a loop.
#include <cuda_runtime.h>

struct Grid {
    float *cells;
    int count;
    unsigned *bins;
    size_t binCap;
    float *scratch;
    size_t scratchCap;
    float *halo;
};

__global__ void relax(float *c, int n) { int i = threadIdx.x; if (i < n) c[i] *= 0.5f; }
__global__ void tally(const float *c, unsigned *bins, int n) { int i = threadIdx.x; if (i < n) bins[i % 64] += c[i] > 1.0f; }

static void histogram(struct Grid *g)
{
    unsigned *bins;
    cudaMalloc(&bins, 64 * sizeof(unsigned));
    tally<<<1, 256>>>(g->cells, bins, g->count);
    cudaFree(bins);
}

static void resizeBins(struct Grid *g, size_t n)
{
    cudaFree(g->bins);
    cudaMalloc(&g->bins, n * sizeof(unsigned));
}

extern "C" struct Grid *newGrid(int cells)
{
    static struct Grid grid;
    grid.count = cells;
    cudaMalloc(&grid.cells, cells * sizeof(float));
    return &grid;
}

extern "C" void relaxGrid(struct Grid *g) { relax<<<1, 256>>>(g->cells, g->count); }

extern "C" void rebin(struct Grid *g) { histogram(g); }

extern "C" void reserveBins(struct Grid *g, size_t n)
{
    if (n > g->binCap) {
        resizeBins(g, n);
        g->binCap = n;
    }
}

extern "C" void growScratch(struct Grid *g, size_t n)
{
    if (n > g->scratchCap) {
        cudaFree(g->scratch);
        cudaMalloc(&g->scratch, n * sizeof(float));
        g->scratchCap = n;
    }
}

extern "C" void attachHalo(struct Grid *g)
{
    if (g->halo == NULL)
        cudaMalloc(&g->halo, 256 * sizeof(float));
}

extern "C" void stageRows(struct Grid *g, int rows)
{
    float *rowBuf = NULL;
    size_t rowCap = 0;
    if ((size_t)rows > rowCap) {
        cudaMalloc(&rowBuf, rows * sizeof(float));
        rowCap = rows;
    }
    relax<<<1, 256>>>(rowBuf, rows);
    cudaFree(rowBuf);
}

extern "C" void seedLevel(struct Grid *g, int level)
{
    float *seed;
    cudaMalloc(&seed, g->count * sizeof(float));
    relax<<<1, 256>>>(seed, g->count + level);
    cudaFree(seed);
}

extern "C" void probeMemory(size_t bytes)
{
    void *p;
    cudaMalloc(&p, bytes);
    cudaFree(p);
}

static float *table;

extern "C" void resizeTable(size_t n)
{
    cudaFree(table);
    cudaMalloc(&table, n * sizeof(float));
}
