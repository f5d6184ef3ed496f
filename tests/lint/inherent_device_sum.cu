// inherent_device_sum.cu: a norm reduced across GPUs. Each device's partial sum is read back
// (one value per device, in a loop that sets the device), the host adds them up and launches
// the next kernel with the total as an argument: the host needs the values before it can
// launch, so the readback is a note, and so are the join that waits for the readbacks and a
// stream wait right before a readback, which the join covers. Still warnings: one device
// whose value goes straight into the launch (the kernel could read it from device memory), a
// readback whose values only decide whether the loop goes on, and a wait before a readback
// with no join over the devices after the loop.
#include <cuda_runtime.h>
#include <math.h>

__global__ void reduce(float *out, const float *in) { out[0] = in[0]; }
__global__ void scale(float *a, float f) { a[0] *= f; }

void normalize(float **img, float **part, float *h_part, int ndev, int iters, cudaStream_t *work,
               cudaStream_t *copy)
{
    for (int it = 0; it < iters; it++) {
        for (int d = 0; d < ndev; d++) {
            cudaSetDevice(d);
            reduce<<<1, 128, 0, work[d]>>>(part[d], img[d]);
            cudaStreamSynchronize(work[d]); // expect: SYNC401 expect-severity: note expect-message: subsumed: 'cudaDeviceSynchronize' at line 27 waits for each device's work anyway, for the readback at line 23
            cudaMemcpyAsync(h_part + d, part[d], sizeof(float), cudaMemcpyDeviceToHost, copy[d]); // expect: SYNC301 expect-severity: note expect-message: inherent: the host needs the value to launch the next kernel: the loop at line 19 reads one value back from each device; line 30 combines 'h_part' into 'total', and line 35 passes it to kernel 'scale'
        }
        for (int d = 0; d < ndev; d++) {
            cudaSetDevice(d);
            cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: inherent: it waits for the values the loop at line 19 reads back from each device
        }
        float total = 0.0f;
        for (int d = 0; d < ndev; d++)
            total += h_part[d];
        float norm = sqrtf(total) + 1e-6f;
        for (int d = 0; d < ndev; d++) {
            cudaSetDevice(d);
            scale<<<60, 256, 0, work[d]>>>(img[d], 1.0f / norm);
        }
    }
}

void one_device(float *img, float *part, float *h_part, int iters, cudaStream_t s)
{
    for (int it = 0; it < iters; it++) {
        reduce<<<1, 128, 0, s>>>(part, img);
        cudaMemcpyAsync(h_part, part, sizeof(float), cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: warning
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        scale<<<60, 256, 0, s>>>(img, 1.0f / sqrtf(h_part[0]));
    }
}

void until_small(float **img, float **part, float *h_part, int ndev, float tol, cudaStream_t *s)
{
    float total = tol + 1.0f;
    while (total > tol) {
        for (int d = 0; d < ndev; d++) {
            cudaSetDevice(d);
            reduce<<<1, 128, 0, s[d]>>>(part[d], img[d]);
            cudaMemcpyAsync(&h_part[d], part[d], sizeof(float), cudaMemcpyDeviceToHost, s[d]); // expect: SYNC301 expect-severity: warning
        }
        for (int d = 0; d < ndev; d++) {
            cudaSetDevice(d);
            cudaStreamSynchronize(s[d]); // expect: SYNC401 expect-severity: warning
        }
        total = 0.0f;
        for (int d = 0; d < ndev; d++)
            total += h_part[d];
    }
}

void no_join(float **img, float **part, float *h_part, int ndev, int iters, cudaStream_t *s,
             cudaStream_t *copy)
{
    for (int it = 0; it < iters; it++) {
        for (int d = 0; d < ndev; d++) {
            cudaSetDevice(d);
            reduce<<<1, 128, 0, s[d]>>>(part[d], img[d]);
            cudaStreamSynchronize(s[d]); // expect: SYNC401 expect-severity: warning
            cudaMemcpy(&h_part[d], part[d], sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent: the host needs the value to launch the next kernel
        }
        float total = 0.0f;
        for (int d = 0; d < ndev; d++)
            total += h_part[d];
        for (int d = 0; d < ndev; d++) {
            cudaSetDevice(d);
            scale<<<60, 256, 0, s[d]>>>(img[d], total);
        }
    }
}
