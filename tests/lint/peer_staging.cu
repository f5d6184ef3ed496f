// peer_staging.cu: a halo exchange between devices through one pinned host buffer, after each
// block of iterations: the neighbour's edge is copied to the host, waited for, and copied on
// to this device, and the buffer is reused for the next device. The loop over devices moves
// data through host memory and does nothing else, so its waits and copies are what staging
// through the host costs (a peer copy removes them): notes that name the remedy. The same wait
// stays a warning where the loop also launches a kernel, where the data stays on one device
// (no device switch: a device-to-device copy would do), or where the host reads the buffer
// instead of sending it on.
#include <cuda_runtime.h>

__global__ void relax(float *u) { u[0] += 1; }

void exchange_async(float **d_u, float *buf, size_t halo, size_t off, int ndev, int iters,
                    cudaStream_t *st)
{
    for (int i = 0; i < iters; i++) {
        for (int d = 0; d < ndev; d++) {
            cudaSetDevice(d);
            relax<<<60, 256, 0, st[2 * d]>>>(d_u[d]);
        }
        for (int d = 0; d + 1 < ndev; d++) {
            cudaSetDevice(d + 1);
            cudaMemcpyAsync(buf, d_u[d + 1], halo, cudaMemcpyDeviceToHost, st[2 * d + 3]);
            cudaSetDevice(d);
            cudaStreamSynchronize(st[2 * d + 3]); // expect: SYNC401 expect-severity: note expect-message: staged: the loop at line 21 only moves data between devices through host memory ('buf' is copied to the host at line 23 and on to another device at line 26, after 'cudaSetDevice' at line 24)
            cudaMemcpyAsync(d_u[d] + off, buf, halo, cudaMemcpyHostToDevice, st[2 * d + 1]);
            cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: a peer copy ('cudaMemcpyPeerAsync' on a stream, ordered by 'cudaEventRecord' and 'cudaStreamWaitEvent') moves the data with no host wait and no staging buffer
        }
    }
}

void exchange_sync(float **d_u, float *buf, size_t halo, size_t off, int ndev, int iters,
                   cudaStream_t *st)
{
    for (int i = 0; i < iters; i++) {
        for (int d = 0; d < ndev; d++) {
            cudaSetDevice(d);
            relax<<<60, 256, 0, st[d]>>>(d_u[d]);
        }
        for (int d = 0; d < ndev; d++) {
            if (d + 1 < ndev) {
                cudaSetDevice(d + 1);
                cudaMemcpy(buf, d_u[d + 1], halo, cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: note expect-message: staged: the loop at line 40
                cudaSetDevice(d);
                cudaMemcpy(d_u[d] + off, buf, halo, cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: note
            }
            cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: staged: the loop at line 40
            if (d > 0) {
                cudaSetDevice(d - 1);
                cudaMemcpyAsync(buf, d_u[d - 1] + off, halo, cudaMemcpyDeviceToHost); // expect: SYNC102 expect-severity: note expect-message: staged: the loop at line 40
                cudaSetDevice(d);
                cudaMemcpyAsync(d_u[d], buf, halo, cudaMemcpyHostToDevice); // expect: SYNC102 expect-severity: note
            }
        }
    }
}

void exchange_and_relax(float **d_u, float *buf, size_t halo, int ndev, int iters,
                        cudaStream_t *st)
{
    for (int i = 0; i < iters; i++) {
        for (int d = 0; d + 1 < ndev; d++) {
            cudaSetDevice(d + 1);
            relax<<<60, 256, 0, st[2 * d + 2]>>>(d_u[d + 1]);
            cudaMemcpyAsync(buf, d_u[d + 1], halo, cudaMemcpyDeviceToHost, st[2 * d + 2]);
            cudaSetDevice(d);
            cudaStreamSynchronize(st[2 * d + 2]); // expect: SYNC401 expect-severity: warning
            cudaMemcpyAsync(d_u[d], buf, halo, cudaMemcpyHostToDevice, st[2 * d]);
        }
    }
}

void bounce_on_one_device(float *d_a, float *d_b, float *buf, size_t n, int iters, cudaStream_t s)
{
    for (int i = 0; i < iters; i++) {
        relax<<<60, 256, 0, s>>>(d_a);
        for (int k = 0; k < 2; k++) {
            cudaMemcpyAsync(buf, d_a + k * n, n, cudaMemcpyDeviceToHost, s);
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
            cudaMemcpyAsync(d_b + k * n, buf, n, cudaMemcpyHostToDevice, s);
        }
    }
}

float gather_on_host(float **d_u, float *buf, size_t n, int ndev, int iters, cudaStream_t *st)
{
    float sum = 0;
    for (int i = 0; i < iters; i++) {
        for (int d = 0; d < ndev; d++) {
            cudaSetDevice(d);
            relax<<<60, 256, 0, st[d]>>>(d_u[d]);
        }
        for (int d = 0; d < ndev; d++) {
            cudaSetDevice(d);
            cudaMemcpyAsync(buf, d_u[d], n, cudaMemcpyDeviceToHost, st[d]);
            cudaStreamSynchronize(st[d]); // expect: SYNC401 expect-severity: warning
            sum += buf[0];
        }
    }
    return sum;
}

// The joins around such an exchange: the devices are joined before it (the host must know the
// edges are computed before it copies them out on another stream) and waited for after it
// (before the next block reads what arrived). With peer copies ordered by events neither is
// needed, so they are notes with the same words; a join before a loop that computes stays a
// warning.
void exchange_with_joins(float **d_u, float *buf, size_t halo, size_t off, int ndev, int iters,
                         cudaStream_t *st)
{
    for (int i = 0; i < iters; i++) {
        for (int d = 0; d < ndev; d++) {
            cudaSetDevice(d);
            relax<<<60, 256, 0, st[2 * d]>>>(d_u[d]);
        }
        for (int d = 0; d < ndev; d++) {
            cudaSetDevice(d);
            cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: staged: it joins the devices for the exchange that follows: the loop at line 121 only moves data between devices through host memory
        }
        if (ndev > 1) {
            for (int d = 0; d + 1 < ndev; d++) {
                cudaSetDevice(d + 1);
                cudaMemcpyAsync(buf, d_u[d + 1], halo, cudaMemcpyDeviceToHost, st[2 * d + 3]);
                cudaSetDevice(d);
                cudaStreamSynchronize(st[2 * d + 3]); // expect: SYNC401 expect-severity: note
                cudaMemcpyAsync(d_u[d] + off, buf, halo, cudaMemcpyHostToDevice, st[2 * d + 1]);
            }
        }
        for (int d = 0; d < ndev; d++) {
            cudaSetDevice(d);
            cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: staged: it waits for the end of the exchange before it: the loop at line 121
        }
        for (int d = 0; d < ndev; d++) {
            cudaSetDevice(d);
            relax<<<60, 256, 0, st[2 * d]>>>(d_u[d]);
        }
    }
}

void join_between_kernels(float **d_u, int ndev, int iters, cudaStream_t *st)
{
    for (int i = 0; i < iters; i++) {
        for (int d = 0; d < ndev; d++) {
            cudaSetDevice(d);
            relax<<<60, 256, 0, st[d]>>>(d_u[d]);
        }
        for (int d = 0; d < ndev; d++) {
            cudaSetDevice(d);
            cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        }
        for (int d = 0; d < ndev; d++) {
            cudaSetDevice(d);
            relax<<<60, 256, 0, st[d]>>>(d_u[d]);
        }
    }
}
