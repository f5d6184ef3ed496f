// launch_template.cu: template kernels and launches inside function templates.
#include <cuda_runtime.h>

template <typename T> __global__ void axpy(T *y, const T *x, T a)
{
    y[threadIdx.x] += a * x[threadIdx.x];
}

template <typename T> void axpy_default(T *y, const T *x, T a)
{
    axpy<T><<<1, 128>>>(y, x, a); // expect: SYNC101
}

template <typename T> void axpy_on(T *y, const T *x, T a, cudaStream_t stream)
{
    axpy<T><<<1, 128, 0, stream>>>(y, x, a);
}

void instantiate(float *y, const float *x, double *yd, const double *xd, cudaStream_t s)
{
    axpy_default(y, x, 2.0f);
    axpy_default(yd, xd, 2.0);
    axpy_on(y, x, 1.0f, s);
    axpy<float><<<1, 128, 0, 0>>>(y, x, 3.0f); // expect: SYNC101
    axpy<double><<<1, 128, 0, s>>>(yd, xd, 3.0);
}
