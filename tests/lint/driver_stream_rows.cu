// driver_stream_rows.cu: stream creators and event calls of the driver API are in the API table.
// A unit that creates a blocking stream and a non-blocking one with cuStreamCreateWithPriority
// (or a green context's, which CUDA 13 makes non-blocking only) does not create all its streams
// blocking: a synchronous copy to the host does not wait for the other stream's kernel, and the
// device-wide wait after it is a warning, not a "drained" note. A blocking stream made with
// cuStreamCreateWithPriority is SYNC103, as cuStreamCreate's; an event recorded on the legacy
// stream with cuEventRecord is SYNC102, as cudaEventRecord's.
#include <cuda.h>
#include <cuda_runtime.h>
__global__ void slow(float *d) { d[threadIdx.x] += 1.0f; }
static cudaStream_t a, b;
void make()
{
    cudaStreamCreate(&a); // expect: SYNC103 expect-severity: note
    cuStreamCreateWithPriority(&b, CU_STREAM_NON_BLOCKING, -1);
}
float after_copy(float *d, int iters)
{
    float h = 0;
    for (int i = 0; i < iters; i++) {
        slow<<<1, 32, 0, b>>>(d);
        cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: drained anyway
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
    return h;
}
void blocking_priority(CUstream *out) { cuStreamCreateWithPriority(out, CU_STREAM_DEFAULT, 0); } // expect: SYNC103 expect-severity: note expect-message: 'cuStreamCreateWithPriority' in 'blocking_priority'
void record_legacy(CUevent ev, CUevent done, float *d)
{
    slow<<<1, 32, 0, a>>>(d);
    cuEventRecord(ev, 0); // expect: SYNC102 expect-severity: note expect-message: 'cuEventRecord' in 'record_legacy'
    cuEventRecordWithFlags(done, 0, 0); // expect: SYNC102 expect-severity: note expect-message: 'cuEventRecordWithFlags' in 'record_legacy'
    cuStreamWaitEvent(0, ev, 0); // expect: SYNC102 expect-severity: note expect-message: 'cuStreamWaitEvent' in 'record_legacy'
}
