// cells.h: the neighbor list of the single-stream solver.
#include <cuda_runtime.h>

void CellList(int n, int *c);
void NeighborList(int n, int *c, int *nl);
