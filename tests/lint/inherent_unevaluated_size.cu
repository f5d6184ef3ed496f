// inherent_unevaluated_size.cu: a count read back on every iteration, then an allocation or a
// copy whose size names the count only where its value is not read: a cast's type spelled by a
// macro that expands to decltype, 'new' with sizeof or decltype. The host does not need the
// value there: warnings. Kept notes: the size reads the count ('new int[hits + 1]', a cast of
// the count itself through such a macro).
#include <cuda_runtime.h>

#define KIND_OF(v) decltype(v)
#define AS_KIND(v, x) static_cast<decltype(v)>(x)

__global__ void tally(unsigned *hits)
{
    atomicAdd(hits, 1u);
}

int main()
{
    unsigned *d_hits, hits = 0, none = 0;
    unsigned long long sum = 0;
    cudaMalloc(&d_hits, sizeof(unsigned));
    for (int round = 0; round < 500; round++) {
        tally<<<32, 128>>>(d_hits); // expect: SYNC101 expect-severity: note
        cudaMemcpy(&hits, d_hits, sizeof hits, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning expect-no-message: inherent:
        sum += hits;
        cudaMemcpy(d_hits, &none, static_cast<KIND_OF(hits)>(4), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: note
    }
    for (int round = 0; round < 500; round++) {
        tally<<<32, 128>>>(d_hits); // expect: SYNC101 expect-severity: note
        cudaMemcpy(&hits, d_hits, sizeof hits, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning expect-no-message: inherent:
        sum += hits;
        cudaMemcpy(d_hits, &none, AS_KIND(hits, 4), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: note
    }
    for (int round = 0; round < 500; round++) {
        tally<<<32, 128>>>(d_hits); // expect: SYNC101 expect-severity: note
        cudaMemcpy(&hits, d_hits, sizeof hits, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning expect-no-message: inherent:
        char *scratch = new char[sizeof hits * 8];
        sum += scratch[0];
        delete[] scratch;
    }
    for (int round = 0; round < 500; round++) {
        tally<<<32, 128>>>(d_hits); // expect: SYNC101 expect-severity: note
        cudaMemcpy(&hits, d_hits, sizeof hits, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning expect-no-message: inherent:
        auto *cell = new decltype(hits)(3);
        sum += *cell;
        delete cell;
    }
    for (int round = 0; round < 500; round++) {
        tally<<<32, 128>>>(d_hits); // expect: SYNC101 expect-severity: note
        cudaMemcpy(&hits, d_hits, sizeof hits, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent: the next statement needs the value (line 50 sizes an allocation with it)
        int *slots = new int[hits + 1];
        sum += slots[0];
        delete[] slots;
    }
    for (int round = 0; round < 500; round++) {
        tally<<<32, 128>>>(d_hits); // expect: SYNC101 expect-severity: note
        cudaMemcpy(&hits, d_hits, sizeof hits, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent: the next device work needs the value (line 58 sizes a copy with it)
        sum += hits;
        cudaMemcpy(d_hits, &none, AS_KIND(sum, hits), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: note
    }
    return (int)sum;
}
