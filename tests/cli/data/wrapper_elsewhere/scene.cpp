// scene.cpp: the simulation's steps; the grid's functions are grid.cu's.
#include "grid.h"
static void InitLevels(Grid *grid, float **levels, int count, int n)
{
    for (int l = 0; l < count; l++)
        grid->InitBins(levels[l], n);
}
int main(int argc, char **argv)
{
    Grid grid;
    float *p = nullptr;
    int n = 1 << 20;
    InitLevels(&grid, &p, argc, n);
    for (int step = 0; step < 500; step++) {
        grid.rebuild(p, n);
        grid.query(p, n, 0);
        cudaDeviceSynchronize();
        grid.prefetch(p, n);
        cudaDeviceSynchronize();
        grid.scrubbed(p, n);
    }
    grid.summary(p, n);
    return 0;
}
