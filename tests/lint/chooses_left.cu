// chooses_left.cu: ways where the value seems to choose the next device work but does not
// (chooses.c), warnings. In a function that a loop calls, a test of the value whose branch
// returns chooses nothing when nothing after it in the function queues device work (the function
// ends there anyway; a 'return' that skips a launch still chooses it). A 'for' loop's increment
// or a loop's condition that stores into a local computed from the value ('k = it++') leaves
// that local without the value: its test in the condition is no test of the value.
#include <cuda_runtime.h>

__global__ void gather(unsigned n, unsigned *hits) { hits[threadIdx.x % n] = 1; }

struct Stats {
    unsigned *d_hits = nullptr;
    unsigned best = 0;
    cudaStream_t stream = nullptr;

    // The count only updates a host-side maximum.
    void sample()
    {
        gather<<<64, 256, 0, stream>>>(4096, d_hits);
        unsigned n = 0;
        cudaMemcpyAsync(&n, d_hits, sizeof(unsigned), cudaMemcpyDeviceToHost, stream); // expect: SYNC201, SYNC301 expect-no-message: chooses the next device work
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: warning
        if (n <= best)
            return;
        best = n;
    }

    // The 'return' skips the launch after it: the value chooses it.
    void sample_skips()
    {
        gather<<<64, 256, 0, stream>>>(4096, d_hits);
        unsigned n = 0;
        cudaMemcpyAsync(&n, d_hits, sizeof(unsigned), cudaMemcpyDeviceToHost, stream); // expect: SYNC201, SYNC301 expect-severity: note expect-message: inherent: the value chooses the next device work (line 35's 'if' tests it before any launch)
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: note
        if (n == 0)
            return;
        gather<<<64, 256, 0, stream>>>(n, d_hits);
    }
};

void frames(Stats &v)
{
    for (int f = 0; f < 1000; f++) {
        v.sample();
        v.sample_skips();
    }
}

// The increment overwrites 'k', computed from the value, with the round count.
void for_increment_stores(unsigned *d_n, cudaStream_t s)
{
    unsigned n = 0;
    int k = 0;
    for (int it = 0; it < 100 && k < 1000; k = it++) {
        gather<<<64, 256, 0, s>>>(64, d_n);
        cudaMemcpyAsync(&n, d_n, sizeof n, cudaMemcpyDeviceToHost, s); // expect: SYNC201, SYNC301 expect-no-message: chooses the next device work
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        k = n;
    }
}

// The condition overwrites 'k' before it tests it.
void condition_stores(unsigned *d_n, cudaStream_t s)
{
    unsigned n = 0;
    int k = 0, it = 0;
    while ((k = it++) < 100) {
        gather<<<64, 256, 0, s>>>(64, d_n);
        cudaMemcpyAsync(&n, d_n, sizeof n, cudaMemcpyDeviceToHost, s); // expect: SYNC201, SYNC301 expect-no-message: chooses the next device work
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        k = n;
    }
}
