// bounded_warm_up_devices.cu: priming rounds over all the devices, a constant four times, each
// round pushing a halo from every device to the next and then waiting for each device's stream
// in a loop over the devices (nested in the bounded loop, once per device), before the solve
// whose count is not bounded. The waits of the rounds are notes; the solve's stay warnings, and
// so does a wait in an inner loop of the rounds whose count is neither constant nor the devices'.
// The device is set through an error-checking macro's block in one of the loops.
#include <cuda_runtime.h>
#include <stdlib.h>

#define CHECK(call)                                                                                \
    {                                                                                              \
        cudaError_t status_ = call;                                                                \
        if (status_ != cudaSuccess)                                                                \
            exit(1);                                                                               \
    }

__global__ void relax(float *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] *= 0.5f;
}

int main(int argc, char **argv)
{
    const int n = 1 << 18;
    int ndev = 0;
    float *buf[8];
    cudaStream_t st[8];
    cudaGetDeviceCount(&ndev);
    ndev = ndev > 8 ? 8 : ndev;
    for (int d = 0; d < ndev; ++d) {
        cudaSetDevice(d);
        cudaStreamCreateWithFlags(&st[d], cudaStreamNonBlocking);
        cudaMallocAsync(&buf[d], n * sizeof(float), st[d]);
    }
    for (int r = 0; r < 4; ++r) {
        for (int d = 0; d < ndev; ++d) {
            cudaSetDevice(d);
            cudaMemcpyAsync(buf[(d + 1) % ndev], buf[d], 64 * sizeof(float),
                            cudaMemcpyDeviceToDevice, st[d]);
        }
        for (int d = 0; d < ndev; ++d) {
            CHECK(cudaSetDevice(d));
            cudaStreamSynchronize(st[d]); // expect: SYNC401 expect-severity: note expect-message: bounded: the loop at line 37 runs at most 4 times (a constant count; the loop at line 43 inside it once per device), outside any other loop, beside the loop at line 58, whose count is not bounded; and 'main' runs once
        }
    }
    int iters = argc > 1 ? atoi(argv[1]) : 1000;
    for (int r = 0; r < 2; ++r) {
        for (int d = 0; d < ndev; ++d) {
            cudaSetDevice(d);
            cudaMemcpyAsync(buf[(d + 1) % ndev], buf[d], 64 * sizeof(float),
                            cudaMemcpyDeviceToDevice, st[d]);
        }
        for (int j = 0; j < argc; ++j)
            cudaStreamSynchronize(st[j]); // expect: SYNC401 expect-severity: warning
    }
    for (int it = 0; it < iters; ++it) {
        for (int d = 0; d < ndev; ++d) {
            cudaSetDevice(d);
            relax<<<n / 256, 256, 0, st[d]>>>(buf[d], n);
        }
        for (int d = 0; d < ndev; ++d) {
            cudaSetDevice(d);
            cudaStreamSynchronize(st[d]); // expect: SYNC401 expect-severity: warning
        }
    }
    return 0;
}
