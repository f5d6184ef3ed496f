// chooses_branches.cu: a value read back in a function that a loop of the unit calls, which the
// function needs before any other device work (instant-ngp's Testbed::render_volume: the hit
// count, waited for, then 'if (m_render_ground_truth)' whose each branch sizes its first launch
// or allocation with it). The walk that chooses.c makes in a loop's body is made in the called
// function too (not only for a getter), and goes through an 'if' on another value whose every
// branch needs the value first. Still warnings: an 'if' without 'else' (the way past it may
// not need the value), a branch that queues other work first, a condition that calls the
// program, and a value nothing needs before the next launch.
#include <cuda_runtime.h>

__global__ void gather(unsigned n, unsigned *hits) { hits[threadIdx.x % n] = 1; }
__global__ void shade(unsigned n, float *rays) { rays[threadIdx.x % n] = 0.f; }

bool wants_truth(); // another unit's

struct Volume {
    float *rays = nullptr;
    unsigned *d_hits = nullptr;
    bool ground_truth = false;
    cudaStream_t stream = nullptr;

    void render()
    {
        gather<<<64, 256, 0, stream>>>(4096, d_hits);
        unsigned n = 4096;
        cudaMemcpyAsync(&n, d_hits, sizeof(unsigned), cudaMemcpyDeviceToHost, stream); // expect: SYNC201, SYNC301 expect-severity: note expect-message: inherent: the value chooses the next device work (each branch of line 28's 'if' needs it first: line 29 sizes a launch with it; line 31 sizes an allocation with it)
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: note expect-message: inherent: it waits for the value read back at line 26, which chooses the next device work (each branch of line 28's 'if' needs it first
        if (ground_truth) {
            shade<<<(n + 255) / 256, 256, 0, stream>>>(n, rays);
        } else {
            cudaMallocAsync(&rays, n * sizeof(float), stream);
            shade<<<(n + 255) / 256, 256, 0, stream>>>(n, rays);
        }
    }

    // Without 'else': the way past the 'if' launches with a fixed grid first.
    void render_no_else()
    {
        gather<<<64, 256, 0, stream>>>(4096, d_hits);
        unsigned n = 4096;
        cudaMemcpyAsync(&n, d_hits, sizeof(unsigned), cudaMemcpyDeviceToHost, stream); // expect: SYNC201, SYNC301 expect-no-message: chooses the next device work
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: warning
        if (ground_truth) {
            shade<<<(n + 255) / 256, 256, 0, stream>>>(n, rays);
        }
        shade<<<64, 256, 0, stream>>>(n, rays);
    }

    // The 'else' queues other work before it uses the value.
    void render_other_first()
    {
        gather<<<64, 256, 0, stream>>>(4096, d_hits);
        unsigned n = 4096;
        cudaMemcpyAsync(&n, d_hits, sizeof(unsigned), cudaMemcpyDeviceToHost, stream); // expect: SYNC201, SYNC301 expect-no-message: chooses the next device work
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: warning
        if (ground_truth) {
            shade<<<(n + 255) / 256, 256, 0, stream>>>(n, rays);
        } else {
            gather<<<64, 256, 0, stream>>>(4096, d_hits);
            shade<<<(n + 255) / 256, 256, 0, stream>>>(n, rays);
        }
    }

    // The condition calls the program: that host work could come before the wait.
    void render_asks()
    {
        gather<<<64, 256, 0, stream>>>(4096, d_hits);
        unsigned n = 4096;
        cudaMemcpyAsync(&n, d_hits, sizeof(unsigned), cudaMemcpyDeviceToHost, stream); // expect: SYNC201, SYNC301 expect-no-message: chooses the next device work
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: warning
        if (wants_truth()) {
            shade<<<(n + 255) / 256, 256, 0, stream>>>(n, rays);
        } else {
            cudaMallocAsync(&rays, n * sizeof(float), stream);
            shade<<<(n + 255) / 256, 256, 0, stream>>>(n, rays);
        }
    }

    // Only a kernel's argument, with a fixed grid: nothing on the host needs the value.
    void render_argument()
    {
        gather<<<64, 256, 0, stream>>>(4096, d_hits);
        unsigned n = 4096;
        cudaMemcpyAsync(&n, d_hits, sizeof(unsigned), cudaMemcpyDeviceToHost, stream); // expect: SYNC201, SYNC301 expect-no-message: chooses the next device work
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: warning
        shade<<<64, 256, 0, stream>>>(n, rays);
    }
};

void frames(Volume &v)
{
    for (int f = 0; f < 1000; f++) {
        v.render();
        v.render_no_else();
        v.render_other_first();
        v.render_asks();
        v.render_argument();
    }
}

// A 'for' loop whose every fourth round reads the count back (instant-ngp's render_volume):
// its condition, after the increment, tests the count first.
void march_for(float *rays, unsigned *d_left, unsigned n, cudaStream_t stream)
{
    for (int iter = 0; iter < 64 && n > 0; ++iter) {
        shade<<<(n + 255) / 256, 256, 0, stream>>>(n, rays);
        if (((iter + 1) % 4) == 0) {
            cudaMemcpyAsync(&n, d_left, sizeof(unsigned), cudaMemcpyDeviceToHost, stream); // expect: SYNC201, SYNC301 expect-severity: note expect-message: inherent: the value chooses the next device work (line 105, the loop's condition, tests it before any launch)
            cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: note expect-message: which chooses the next device work (line 105, the loop's condition, tests it before any launch)
        }
    }
}

int next_round(int iter); // another unit's

// The increment calls the program: that host work could come before the wait.
void march_for_call(float *rays, unsigned *d_left, unsigned n, cudaStream_t stream)
{
    for (int iter = 0; iter < 64 && n > 0; iter = next_round(iter)) {
        shade<<<(n + 255) / 256, 256, 0, stream>>>(n, rays);
        cudaMemcpyAsync(&n, d_left, sizeof(unsigned), cudaMemcpyDeviceToHost, stream); // expect: SYNC201, SYNC301 expect-no-message: chooses the next device work
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: warning
    }
}

// A function a loop calls, whose wait needs the count first, and which reads the count back
// again later in a loop of its own (instant-ngp's render_volume: the readback every fourth
// round): outside a loop, only the copies before the wait are waited for.
void render_then_march(float *rays, unsigned *d_hits, unsigned *d_left, bool truth,
                       cudaStream_t stream)
{
    gather<<<64, 256, 0, stream>>>(4096, d_hits);
    unsigned n = 4096;
    cudaMemcpyAsync(&n, d_hits, sizeof(unsigned), cudaMemcpyDeviceToHost, stream); // expect: SYNC201, SYNC301 expect-severity: note
    cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: note expect-message: inherent: it waits for the value read back at line 134, which chooses the next device work (each branch of line 136's 'if' needs it first
    if (truth) {
        shade<<<(n + 255) / 256, 256, 0, stream>>>(n, rays);
    } else {
        cudaMallocAsync(&rays, n * sizeof(float), stream);
        for (int iter = 0; iter < 64 && n > 0; ++iter) {
            shade<<<(n + 255) / 256, 256, 0, stream>>>(n, rays);
            cudaMemcpyAsync(&n, d_left, sizeof(unsigned), cudaMemcpyDeviceToHost, stream); // expect: SYNC201, SYNC301
            cudaStreamSynchronize(stream); // expect: SYNC401
        }
    }
}

// The same with a whole buffer copied to the host before the wait: the wait serves it too.
void render_buffer_first(float *rays, float *h_rays, unsigned *d_hits, bool truth,
                         cudaStream_t stream)
{
    gather<<<64, 256, 0, stream>>>(4096, d_hits);
    unsigned n = 4096;
    cudaMemcpyAsync(h_rays, rays, 4096 * sizeof(float), cudaMemcpyDeviceToHost, stream);
    cudaMemcpyAsync(&n, d_hits, sizeof(unsigned), cudaMemcpyDeviceToHost, stream); // expect: SYNC201, SYNC301 expect-severity: note
    cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: warning
    if (truth) {
        shade<<<(n + 255) / 256, 256, 0, stream>>>(n, rays);
    } else {
        cudaMallocAsync(&rays, n * sizeof(float), stream);
    }
}

void frames_more(float *rays, float *h_rays, unsigned *d_hits, unsigned *d_left, cudaStream_t s)
{
    for (int f = 0; f < 1000; f++) {
        render_then_march(rays, d_hits, d_left, f % 2 == 0, s);
        render_buffer_first(rays, h_rays, d_hits, f % 2 == 0, s);
    }
}
