#include "cells.h"

void Run(int n, int *c, int *nl, int steps)
{
    for (int s = 0; s < steps; s++)
        NeighborList(n, c, nl);
}
