// driver_event_chain.cu: the driver's cuEventRecord is an event record of the API table, so the
// wait for an asynchronous readback through an event recorded on the copy's stream is read as
// the runtime's is: cuEventSynchronize waits for the count read back, which sizes the next
// launch ("inherent"; a warning at 7eaa5fc, which did not follow the driver's record).
#include <cuda.h>
#include <cuda_runtime.h>
__global__ void count(int *d) { d[0] = 1; }
__global__ void use(float *x, int n) {}
void step(int *d, int *h, float *x, CUevent ev, CUstream s, int iters)
{
    for (int i = 0; i < iters; i++) {
        count<<<1, 1, 0, s>>>(d);
        cuMemcpyDtoHAsync(h, (CUdeviceptr)d, sizeof *h, s); // expect: SYNC301 expect-severity: note expect-message: inherent
        cuEventRecord(ev, s);
        cuEventSynchronize(ev); // expect: SYNC401 expect-severity: note expect-message: inherent: it waits for the value read back at line 13
        int n = *h;
        use<<<n, 32, 0, s>>>(x, n);
    }
}
