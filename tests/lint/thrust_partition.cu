// thrust_partition.cu: thrust::partition, stable_partition, partition_copy and
// stable_partition_copy on a device range synchronize their stream and read the count of the
// selected elements back to the host before they return (the toolkit's
// thrust/system/cuda/detail/partition.h: cuda_cub::synchronize, then get_value): a readback
// (SYNC301), as the Thrust reductions are; inherent where the count sizes the next launch.
// A wait right before one adds nothing of its own ("drained anyway", as before the other
// algorithms that synchronize their stream), and the partition stays the loop's stall.
// gpu-louvain's buckets (held-out-18).
// lint-args: -std=c++17
#include <cuda_runtime.h>
#include <thrust/execution_policy.h>
#include <thrust/partition.h>

__global__ void mark(int *v, int n) { v[threadIdx.x % n] = n; }

struct in_bucket {
    int lo;
    __host__ __device__ bool operator()(int x) const { return x >= lo; }
};

// Once per bucket of every pass: the partition point is handed to the next launch.
void buckets(int *d, int n, int passes)
{
    for (int p = 0; p < passes; ++p) {
        mark<<<1, 64>>>(d, n); // expect: SYNC101
        int *mid = thrust::partition(thrust::device, d, d + n, in_bucket{p}); // expect: SYNC301 expect-severity: warning expect-message: 'thrust::partition' on a device range reads the count of the elements it selects back to the host in 'buckets': the host stalls until all queued device work has finished
        mark<<<1, 64>>>(mid, n); // expect: SYNC101
    }
}

// The count sizes the next launch: inherent.
void sized(int *d, int n, int passes)
{
    for (int p = 0; p < passes; ++p) {
        mark<<<1, 64>>>(d, n); // expect: SYNC101
        int k = thrust::partition(thrust::device, d, d + n, in_bucket{p}) - d; // expect: SYNC301 expect-severity: note expect-message: inherent: the next statement needs the value (line 37 sizes a launch with it)
        mark<<<(k + 63) / 64, 64>>>(d, k); // expect: SYNC101
    }
}

// The other three, with a device policy; a host range reads nothing back.
void others(int *d, int *out_in, int *out_out, int *h, int n, int passes)
{
    for (int p = 0; p < passes; ++p) {
        mark<<<1, 64>>>(d, n); // expect: SYNC101
        thrust::stable_partition(thrust::device, d, d + n, in_bucket{p}); // expect: SYNC301 expect-severity: warning expect-message: 'thrust::stable_partition' on a device range
        thrust::partition_copy(thrust::device, d, d + n, out_in, out_out, in_bucket{p}); // expect: SYNC301 expect-severity: warning expect-message: 'thrust::partition_copy' on a device range
        thrust::stable_partition_copy(thrust::device, d, d + n, out_in, out_out, in_bucket{p}); // expect: SYNC301 expect-severity: warning expect-message: 'thrust::stable_partition_copy' on a device range
        thrust::partition(thrust::host, h, h + n, in_bucket{p});
        thrust::partition(h, h + n, in_bucket{p});
    }
}

// A wait right before the partition: the partition waits for the same work when it ends.
void wait_before(int *d, int n, int passes)
{
    for (int p = 0; p < passes; ++p) {
        mark<<<1, 64>>>(d, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained anyway: the next statement, 'thrust::partition' with the synchronous policy 'thrust::device' (line 60)
        thrust::partition(thrust::device, d, d + n, in_bucket{p}); // expect: SYNC301 expect-severity: warning
    }
}
