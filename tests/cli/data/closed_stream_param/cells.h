// cells.h: the neighbor list of the single-stream solver.
#include <cuda_runtime.h>

void CellList(int n, int *c, cudaStream_t spare = NULL);
void NeighborList(int n, int *c, int *nl, cudaStream_t spare = NULL);
