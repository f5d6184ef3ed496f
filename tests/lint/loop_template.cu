// loop_template.cu: loop and capture messages name the kernel of a dependent template launch
// (k<T><<<...>>> inside a function template) as it is spelled, and the API call of a
// type-dependent call.
#include <cuda_runtime.h>

template <typename T> __global__ void relax(T *x) { x[threadIdx.x] *= T(2); }

namespace solver {
template <typename T> __global__ void smooth(T *x) { x[threadIdx.x] += T(1); }
}

template <typename T> void iterate(T *d, T *h, int steps, cudaStream_t s)
{
    for (int i = 0; i < steps; i++) {
        relax<T><<<1, 32, 0, s>>>(d);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-message: (kernel 'relax' is launched at line 15)
    }
    for (int i = 0; i < steps; i++) {
        solver::smooth<T><<<1, 32, 0, s>>>(d);
        cudaMemcpy(h, d, sizeof(T), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-message: which launches kernel 'smooth' (line 19)
        T *scratch = nullptr;
        cudaMalloc(&scratch, sizeof(T)); // expect: SYNC402 expect-message: (kernel 'smooth' is launched at line 19)
    }
    for (int i = 0; i < steps; i++) {
        cudaMemcpyAsync(d, h, sizeof(T) * steps, cudaMemcpyHostToDevice, s);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-message: ('cudaMemcpyAsync' enqueues work at line 25)
    }
}

template <typename T> void captured(T *d, cudaStream_t s, cudaGraph_t *g)
{
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    relax<T><<<1, 32>>>(d); // expect: SYNC501, SYNC101 expect-message: 'relax' in 'captured' is called while stream 's'
    cudaStreamEndCapture(s, g);
}
