// sweep.cu: each piece of the loop opens with a wait for the whole device; before the first
// piece the last call is refill(), which another unit defines. drained_twice.sh links it with
// refill_waits.cu (a launch, then a synchronous readback: the device is left drained), with
// refill_queues.cu (a launch only), or with both (two builds of one function, as an '#ifdef'
// or a file compiled twice gives): the wait is a note only with refill_waits.cu alone.
#include <cuda_runtime.h>
void refill(unsigned *d, unsigned *h);
__global__ void smooth(unsigned *p, unsigned n) { p[threadIdx.x % n] = 0; }
void sweep(unsigned *d, unsigned *h, unsigned *d_piece, unsigned n)
{
    refill(d, h);
    while (h[0] > 0) {
        for (unsigned k = 0; k < n; k++) {
            cudaDeviceSynchronize();
            cudaMemcpy(d_piece, h + k, sizeof(unsigned), cudaMemcpyHostToDevice);
            smooth<<<1, 32>>>(d_piece, n);
            cudaDeviceSynchronize();
        }
        refill(d, h);
    }
}
