// broken.cpp: a unit with an error that may hide a call of any function it declares.
#include "kernels.h"
void broken(unsigned *h, cudaStream_t s)
{
    undeclared_thing(launch_direct(h, s));
}
