/* driver_api_kernels.cuh: the kernels of the driver API test programs. nvcc compiles this file
 * alone into a fatbin (tests/gpu/CMakeLists.txt) that the programs embed and load with
 * cuModuleLoadData; extern "C" keeps the names that cuModuleGetFunction looks up. */

/* Busy-waits 'ns' nanoseconds on the GPU's global timer, then adds 1 to counters['slot'].
 * Launched with one thread, it makes pending device work last a known time. */
extern "C" __global__ void ss_drv_spin(unsigned *counters, int slot, unsigned long long ns)
{
    unsigned long long start, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    } while (now - start < ns);
    counters[slot] += 1;
}

/* Sets data[i] = base + i % 7 for the 'n' elements of 'data'. */
extern "C" __global__ void ss_drv_fill(unsigned *data, unsigned long long n, unsigned base)
{
    unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    for (; i < n; i += stride) {
        data[i] = base + (unsigned)(i % 7);
    }
}
