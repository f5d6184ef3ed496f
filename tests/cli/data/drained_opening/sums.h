// sums.h: what sums.cu defines.
#pragma once
#include <cuda_runtime.h>
float unit_sum(int n);
float side_sum(int n, int side);
void halve_all(float *v, int n);
void shift_all(float *v, int n);
extern "C" void must(cudaError_t status);
