// overlap_wait.cu: two stream waits in a loop that the device does not idle for. The host waits
// for an upload on a copy stream while the compute stream still has a kernel queued, and the
// next launch on the compute stream reads the uploaded data (the wait only orders the two:
// "overlapped"); and the host waits for a stream's own small parameter upload when an earlier
// wait for that stream, at the end of the previous chunk, drained it ("own upload", the earlier
// wait being the one that idles the device). Warnings: the compute stream drained before the
// wait, a next launch that does not read the upload, an upload of a size the code computes, and
// a kernel queued on the stream since the earlier wait. Streams are compared as written, a
// variable that holds one constant read as that constant (st[d * per_device] with per_device
// 2 is st[d * 2]; not where the loop changes it).
#include <cuda_runtime.h>

__constant__ float params[64];
__global__ void project(float *out, int i) { out[i] = params[0]; }
__global__ void add(float *out, const float *acc) { out[0] += acc[0]; }

void accumulate(float *d_out, float *d_acc, const float *h_acc, size_t bytes, int chunks,
                cudaStream_t comp, cudaStream_t copy)
{
    for (int i = 0; i < chunks; i++) {
        cudaMemcpyAsync(d_acc, h_acc + i * 64, bytes, cudaMemcpyHostToDevice, copy);
        project<<<64, 64, 0, comp>>>(d_out, i);
        cudaStreamSynchronize(copy); // expect: SYNC401 expect-severity: note expect-message: overlapped: while the host waits for the upload on 'copy' (line 21), 'comp' still has kernel 'project' queued (line 22), and the next launch on it (line 24) reads what the upload writes
        add<<<64, 64, 0, comp>>>(d_out, d_acc);
    }
}

void accumulate_drained(float *d_out, float *d_acc, const float *h_acc, size_t bytes, int chunks,
                        cudaStream_t comp, cudaStream_t copy)
{
    for (int i = 0; i < chunks; i++) {
        cudaMemcpyAsync(d_acc, h_acc + i * 64, bytes, cudaMemcpyHostToDevice, copy);
        project<<<64, 64, 0, comp>>>(d_out, i);
        cudaStreamSynchronize(comp); // expect: SYNC401 expect-severity: warning
        cudaStreamSynchronize(copy); // expect: SYNC401 expect-severity: warning
        add<<<64, 64, 0, comp>>>(d_out, d_acc);
    }
}

void accumulate_unread(float *d_out, float *d_acc, float *d_other, const float *h_acc,
                       size_t bytes, int chunks, cudaStream_t comp, cudaStream_t copy)
{
    for (int i = 0; i < chunks; i++) {
        cudaMemcpyAsync(d_acc, h_acc + i * 64, bytes, cudaMemcpyHostToDevice, copy);
        project<<<64, 64, 0, comp>>>(d_out, i);
        cudaStreamSynchronize(copy); // expect: SYNC401 expect-severity: warning
        add<<<64, 64, 0, comp>>>(d_out, d_other);
    }
}

void chunks_on_devices(float *d_out, float *h_params, int chunks, int ndev, cudaStream_t *st)
{
    for (int i = 0; i < chunks; i++) {
        for (int d = 0; d < ndev; d++) {
            cudaSetDevice(d);
            for (int j = 0; j < 64; j++)
                h_params[j] = (float)(i + j);
            cudaMemcpyToSymbolAsync(params, h_params, sizeof(float) * 64, 0,
                                    cudaMemcpyHostToDevice, st[d]);
            cudaStreamSynchronize(st[d]); // expect: SYNC401 expect-severity: note expect-message: own upload: 'st[d]' has nothing queued but the copy at line 58 (256 bytes) since 'cudaStreamSynchronize' at line 65 waited for it
            project<<<64, 64, 0, st[d]>>>(d_out, i);
        }
        for (int d = 0; d < ndev; d++) {
            cudaSetDevice(d);
            cudaStreamSynchronize(st[d]); // expect: SYNC401 expect-severity: warning
        }
    }
}

void chunks_sized(float *d_out, float *h_params, size_t n, int chunks, cudaStream_t s)
{
    for (int i = 0; i < chunks; i++) {
        cudaMemcpyToSymbolAsync(params, h_params, n, 0, cudaMemcpyHostToDevice, s);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        project<<<64, 64, 0, s>>>(d_out, i);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
    }
}

void chunks_busy(float *d_out, float *h_params, int chunks, cudaStream_t s)
{
    for (int i = 0; i < chunks; i++) {
        project<<<64, 64, 0, s>>>(d_out, i);
        cudaMemcpyToSymbolAsync(params, h_params, sizeof(float) * 64, 0, cudaMemcpyHostToDevice,
                                s);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        project<<<64, 64, 0, s>>>(d_out, i);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
    }
}

void chunks_named(float *d_out, float *h_params, int chunks, int ndev, cudaStream_t *st)
{
    int per_device = 2;
    for (int i = 0; i < chunks; i++) {
        for (int d = 0; d < ndev; d++) {
            cudaSetDevice(d);
            cudaMemcpyToSymbolAsync(params, h_params, sizeof(float) * 64, 0,
                                    cudaMemcpyHostToDevice, st[d * per_device]);
            cudaStreamSynchronize(st[d * per_device]); // expect: SYNC401 expect-severity: note expect-message: own upload: 'st[d * per_device]' has nothing queued but the copy at line 98 (256 bytes) since 'cudaStreamSynchronize' at line 105 waited for it
            project<<<64, 64, 0, st[d * per_device]>>>(d_out, i);
        }
        for (int d = 0; d < ndev; d++) {
            cudaSetDevice(d);
            cudaStreamSynchronize(st[d * 2]); // expect: SYNC401 expect-severity: warning
        }
    }
}

void chunks_renamed(float *d_out, float *h_params, int chunks, int ndev, cudaStream_t *st)
{
    int per_device = 2;
    for (int i = 0; i < chunks; i++) {
        for (int d = 0; d < ndev; d++) {
            cudaSetDevice(d);
            cudaMemcpyToSymbolAsync(params, h_params, sizeof(float) * 64, 0,
                                    cudaMemcpyHostToDevice, st[d * per_device]);
            cudaStreamSynchronize(st[d * per_device]); // expect: SYNC401 expect-severity: warning
            project<<<64, 64, 0, st[d * per_device]>>>(d_out, i);
        }
        for (int d = 0; d < ndev; d++) {
            cudaSetDevice(d);
            cudaStreamSynchronize(st[d * 2]); // expect: SYNC401 expect-severity: warning
        }
        per_device = i % 3;
    }
}

// Work on the legacy default stream between the earlier wait and the upload: a blocking stream
// ('cudaStreamCreate') waits for it, and so does the wait for the upload: a warning.
void legacy_between(float *d_u, float *d_p, const float *h_p, int iters)
{
    cudaStream_t s;
    cudaStreamCreate(&s); // expect: SYNC103 expect-severity: note
    for (int it = 0; it < iters; it++) {
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        add<<<600, 256>>>(d_u, d_p); // expect: SYNC101 expect-severity: warning
        cudaMemcpyAsync(d_p, h_p, 4, cudaMemcpyHostToDevice, s);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
    }
    cudaStreamDestroy(s);
}
