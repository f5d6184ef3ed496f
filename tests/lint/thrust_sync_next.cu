// thrust_sync_next.cu: a wait in a loop (SYNC401) right before a Thrust algorithm whose policy
// is synchronous ('thrust::cuda::par', 'thrust::device', the same under the unit's usings,
// 'thrust::cuda::par.on(s)') adds nothing of its own when all the work it waits for is
// on the stream the algorithm synchronizes when it ends: a note, "drained anyway: the next
// statement, ... waits for the same work on ...". A device-wide wait needs, since the device
// was drained, no work on another stream than the default one. 'par_nosync', a host policy, an
// algorithm that is not known to synchronize, device work or a read through a pointer between
// the wait and the algorithm, work on another stream (a non-blocking one, a parameter, another
// unit's function), and an algorithm on another stream keep the warning.
// lint-args: -std=c++17
#include <cuda_runtime.h>
#include <thrust/execution_policy.h>
#include <thrust/fill.h>
#include <thrust/scan.h>
#include <thrust/sort.h>

__global__ void bin(float *h, int n) { h[threadIdx.x] = n; }

void project_step(float *h); // defined in another unit

// The wait drains copies between device buffers queued on the legacy stream; the scan waits
// for the same work when it ends.
void scan_pairs(float *hist, float *last, int pairs, int n)
{
    for (int i = 0; i < pairs; ++i) {
        bin<<<1, 64>>>(hist, n); // expect: SYNC101
        cudaMemcpy(last + 2 * i * n, hist, 2 * n * sizeof(float), cudaMemcpyDefault); // expect: SYNC202
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained anyway: the next statement, 'thrust::inclusive_scan' with the synchronous policy 'thrust::cuda::par' (line 29), waits for the same work on the legacy default stream: it synchronizes that stream when it ends, and since this wait drained the device on the loop's previous iteration no work on another stream is queued on any way the unit reaches it
        thrust::inclusive_scan(thrust::cuda::par, hist, hist + 2 * n, hist);
    }
}

// ThunderGBM's form: the algorithm's name and its policy under the unit's usings; a declaration
// between.
namespace tc = thrust::cuda;
void scan_by_feature(float *hist, const int *fid, int pairs, int n)
{
    using namespace thrust;
    for (int i = 0; i < pairs; ++i) {
        bin<<<1, 64>>>(hist, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: the next statement, 'thrust::inclusive_scan_by_key' with the synchronous policy 'tc::par' (line 43)
        const int len = 2 * n;
        inclusive_scan_by_key(tc::par, fid, fid + len, hist, hist);
    }
}

void sort_device(float *d, int pairs, int n)
{
    for (int i = 0; i < pairs; ++i) {
        bin<<<1, 64>>>(d, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: 'thrust::sort' with the synchronous policy 'thrust::device' (line 52)
        thrust::sort(thrust::device, d, d + n);
    }
}

// A stream wait before an algorithm on the same stream.
void sort_on_stream(float *d, int pairs, int n, cudaStream_t s)
{
    for (int i = 0; i < pairs; ++i) {
        bin<<<1, 64, 0, s>>>(d, n);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: waits for the same work on 's', the stream this wait is for: it synchronizes that stream when it ends
        thrust::sort(thrust::cuda::par.on(s), d, d + n);
    }
}

void no_sync_policy(float *d, int pairs, int n)
{
    for (int i = 0; i < pairs; ++i) {
        bin<<<1, 64>>>(d, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        thrust::inclusive_scan(thrust::cuda::par_nosync, d, d + n, d);
    }
}

void host_policy(float *d, float *h, int pairs, int n)
{
    for (int i = 0; i < pairs; ++i) {
        bin<<<1, 64>>>(d, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        thrust::inclusive_scan(thrust::host, h, h + n, h);
    }
}

// thrust::fill is not among the algorithms known to synchronize at their end.
void not_known_to_wait(float *d, int pairs, int n)
{
    for (int i = 0; i < pairs; ++i) {
        bin<<<1, 64>>>(d, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        thrust::fill(thrust::cuda::par, d, d + n, 0.0f);
    }
}

void work_between(float *d, int pairs, int n)
{
    for (int i = 0; i < pairs; ++i) {
        bin<<<1, 64>>>(d, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        bin<<<1, 64>>>(d, n); // expect: SYNC101
        thrust::inclusive_scan(thrust::cuda::par, d, d + n, d);
    }
}

// The host reads managed memory the kernel wrote: the wait is what lets it.
void read_between(float *managed, int pairs, int n)
{
    for (int i = 0; i < pairs; ++i) {
        bin<<<1, 64>>>(managed, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        int m = (int)managed[0];
        thrust::inclusive_scan(thrust::cuda::par, managed, managed + m, managed);
    }
}

// Work on a non-blocking stream before the wait: the scan on the legacy stream does not wait for it.
void non_blocking_before(float *d, float *e, int pairs, int n)
{
    cudaStream_t side;
    cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
    for (int i = 0; i < pairs; ++i) {
        bin<<<1, 64, 0, side>>>(e, n);
        bin<<<1, 64>>>(d, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        thrust::inclusive_scan(thrust::cuda::par, d, d + n, d);
    }
    cudaStreamDestroy(side);
}

// A function of another unit may queue work on a stream of its own.
void other_unit_before(float *d, int pairs, int n)
{
    for (int i = 0; i < pairs; ++i) {
        project_step(d);
        bin<<<1, 64>>>(d, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        thrust::inclusive_scan(thrust::cuda::par, d, d + n, d);
    }
}

void other_stream_algorithm(float *d, int pairs, int n, cudaStream_t s, cudaStream_t other)
{
    for (int i = 0; i < pairs; ++i) {
        bin<<<1, 64, 0, s>>>(d, n);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        thrust::sort(thrust::cuda::par.on(other), d, d + n);
    }
}

// A device-wide wait before an algorithm on a stream: other streams' work is not its to wait for.
void device_wait_stream_algorithm(float *d, int pairs, int n, cudaStream_t s)
{
    for (int i = 0; i < pairs; ++i) {
        bin<<<1, 64, 0, s>>>(d, n);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        thrust::sort(thrust::cuda::par.on(s), d, d + n);
    }
}

// A jump between the wait and the algorithm: on the iterations it takes, the algorithm does not
// run, and nothing waits for the work but this wait.
void jump_between(float *hist, int pairs, int n)
{
    for (int i = 0; i < pairs; ++i) {
        bin<<<1, 64>>>(hist, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        if (i % 2)
            continue;
        thrust::inclusive_scan(thrust::cuda::par, hist, hist + n, hist);
    }
}

void return_between(float *hist, int pairs, int n, int stop)
{
    for (int i = 0; i < pairs; ++i) {
        bin<<<1, 64>>>(hist, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        if (i == stop)
            return;
        thrust::inclusive_scan(thrust::cuda::par, hist, hist + n, hist);
    }
}
