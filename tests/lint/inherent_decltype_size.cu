// inherent_decltype_size.cu: a counter read back each iteration, then a copy whose size names
// the counter: the readback is inherent (a note) where the size reads its value, not where it
// names only its type, under 'sizeof' or 'decltype' (a warning). At 7eaa5fc lines 24 and 30 were
// notes.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void step(unsigned *count) { atomicAdd(count, 1u); }

int main()
{
    unsigned *d_count, count = 0, zero = 0;
    unsigned long long total = 0;
    float *d, *h = new float[1 << 20];
    cudaMalloc(&d_count, sizeof(unsigned));
    cudaMalloc(&d, 1 << 22);
    for (int it = 0; it < 1000; it++) {
        step<<<64, 256>>>(d_count); // expect: SYNC101
        cudaMemcpy(&count, d_count, sizeof count, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent: the next statement needs the value (line 20 sizes a copy with it)
        cudaMemcpy(d, h, count * sizeof(decltype(count)), cudaMemcpyHostToDevice); // expect: SYNC202
    }
    for (int it = 0; it < 1000; it++) {
        step<<<64, 256>>>(d_count); // expect: SYNC101
        cudaMemcpy(&count, d_count, sizeof count, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning expect-no-message: inherent:
        total += count;
        cudaMemcpy(d_count, &zero, static_cast<decltype(count)>(4), cudaMemcpyHostToDevice); // expect: SYNC202
    }
    for (int it = 0; it < 1000; it++) {
        step<<<64, 256>>>(d_count); // expect: SYNC101
        cudaMemcpy(&count, d_count, sizeof count, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning expect-no-message: inherent:
        total += count;
        cudaMemcpy(d_count, &zero, (decltype(count + 0))4 + sizeof(decltype(count + 1)), // expect: SYNC202
                   cudaMemcpyHostToDevice);
    }
    printf("%llu\n", total);
    return 0;
}
