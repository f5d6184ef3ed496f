// sums.cu: weighted sums that open with Thrust work on the legacy default stream (a device
// vector filled with a value, whose fill synchronizes that stream when it ends), one through a
// helper whose arms each open so or only throw; a scaling that skips Thrust's synchronization;
// a step that only launches; a check of a CUDA call's status, declared extern "C".
#include "sums.h"
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>
#include <thrust/transform.h>

__global__ void shift(float *v, int n) { v[threadIdx.x] -= n; }

struct halve {
    float operator()(float x) const { return 0.5f * x; }
};

float unit_sum(int n)
{
    thrust::device_vector<float> ones(n, 1.f);
    return thrust::reduce(ones.begin(), ones.end(), 0.f, thrust::minimum<float>());
}

static float weighed(int n, float weight, int side)
{
    if (side == 0) {
        thrust::device_vector<float> w(n, weight);
        return thrust::reduce(w.begin(), w.end(), 0.f, thrust::minimum<float>());
    } else if (side == 1) {
        thrust::device_vector<float> w(2 * n, weight);
        return thrust::reduce(w.begin(), w.end(), 0.f, thrust::minimum<float>());
    } else {
        throw std::out_of_range("side");
    }
}

float side_sum(int n, int side)
{
    float weight = 0.25f;
    return weighed(n, weight, side);
}

void halve_all(float *v, int n)
{
    thrust::transform(thrust::cuda::par_nosync, v, v + n, v, halve());
}

void shift_all(float *v, int n) { shift<<<1, 64>>>(v, n); }

extern "C" void must(cudaError_t status)
{
    if (status != cudaSuccess) {
        fprintf(stderr, "%s\n", cudaGetErrorString(status));
        exit(1);
    }
}
