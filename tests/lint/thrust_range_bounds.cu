// thrust_range_bounds.cu: a value read back bounds the range of the next Thrust algorithm, and
// so sizes that work (the wait for it is inherent, a note), where it is the end of the first
// range and not its start ('first, first + n') or the count of an '_n' algorithm ('copy_n(policy,
// first, n, out)', 'fill_n'). A value that only moves a range of a fixed length ('d + n, d + n +
// 64', as a launch's pointer argument 'd + n' does), one a functor carries or one a constant
// iterator gives as the value could be read on the device instead: the warning stays (review 41).
// lint-args: -std=c++17
#include <cuda_runtime.h>
#include <thrust/copy.h>
#include <thrust/execution_policy.h>
#include <thrust/fill.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/scatter.h>
#include <thrust/transform.h>

__global__ void count(float *p, int *n) { *n = (int)p[0]; }

struct scale {
    float k;
    __host__ __device__ float operator()(float x) const { return x * k; }
};

// The count only moves the 64 elements the fill writes.
void offset(float *d, int *dn, cudaStream_t s, int steps)
{
    for (int i = 0; i < steps; i++) {
        count<<<1, 1, 0, s>>>(d, dn);
        int n = 0;
        cudaMemcpyAsync(&n, dn, sizeof(int), cudaMemcpyDeviceToHost, s); // expect: SYNC201, SYNC301
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        thrust::fill(thrust::cuda::par_nosync.on(s), d + n, d + n + 64, 0.0f);
    }
}

// The count is the copy's length.
void counted(float *d, float *o, int *dn, cudaStream_t s, int steps)
{
    for (int i = 0; i < steps; i++) {
        count<<<1, 1, 0, s>>>(d, dn);
        int n = 0;
        cudaMemcpyAsync(&n, dn, sizeof(int), cudaMemcpyDeviceToHost, s); // expect: SYNC201, SYNC301 expect-severity: note
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: (line 43 bounds the range of 'thrust::copy_n' with it)
        thrust::copy_n(thrust::cuda::par_nosync.on(s), d, n, o);
    }
}

// The count is the fill's length.
void counted_fill(float *d, int *dn, cudaStream_t s, int steps)
{
    for (int i = 0; i < steps; i++) {
        count<<<1, 1, 0, s>>>(d, dn);
        int n = 0;
        cudaMemcpyAsync(&n, dn, sizeof(int), cudaMemcpyDeviceToHost, s); // expect: SYNC201, SYNC301 expect-severity: note
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: (line 55 bounds the range of 'thrust::fill_n' with it)
        thrust::fill_n(thrust::cuda::par_nosync.on(s), d, n, 0.0f);
    }
}

// A functor carries the value.
void functor(float *d, float *o, int *dn, cudaStream_t s, int steps)
{
    for (int i = 0; i < steps; i++) {
        count<<<1, 1, 0, s>>>(d, dn);
        int n = 0;
        cudaMemcpyAsync(&n, dn, sizeof(int), cudaMemcpyDeviceToHost, s); // expect: SYNC201, SYNC301
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        thrust::transform(thrust::cuda::par_nosync.on(s), d, d + 64, o, scale{(float)n});
    }
}

// A constant iterator gives the value as what the scatter writes, 64 times.
void constant_value(float *d, int *dn, int *pos, cudaStream_t s, int steps)
{
    for (int i = 0; i < steps; i++) {
        count<<<1, 1, 0, s>>>(d, dn);
        int n = 0;
        cudaMemcpyAsync(&n, dn, sizeof(int), cudaMemcpyDeviceToHost, s); // expect: SYNC201, SYNC301
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        auto v = thrust::make_constant_iterator((float)n);
        thrust::scatter(thrust::cuda::par_nosync.on(s), v, v + 64, pos, d);
    }
}
