// wait_then_readback_checker_plain.cu: the checking functions that lint does not follow (session
// 33's review of wait_then_readback_checker.cu). A checking call between a wait and its readback
// is calm only where it runs a plain function: a free function, not a member (its body reads the
// object's members, which a kernel may write), not a template (its body, before instantiation,
// hides the calls it makes), without default arguments (they run at the call) or attributes
// ('weak': another unit may replace it), and declaring no value of a class (its destructor may
// queue work). Each of these keeps the wait a warning.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

__global__ void decay(float *mass, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        mass[i] *= 0.99f;
}

// A status block in managed memory: the kernel sets 'tripped'; the checking method copies it.
struct Monitor {
    int tripped;
    int last;
    void verify(int line)
    {
        cudaError_t status = cudaGetLastError();
        if (status != cudaSuccess) {
            fprintf(stderr, "%d: %s\n", line, cudaGetErrorString(status));
            exit(EXIT_FAILURE);
        }
        last = tripped;
    }
};

__global__ void decay_watched(float *mass, int n, Monitor *m)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && (mass[i] *= 0.99f) < 0.0f)
        m->tripped = 1;
}

void age_watched(float *d_mass, float *h_mass, Monitor *mon, int n, int steps)
{
    for (int t = 0; t < steps; t++) {
        decay_watched<<<(n + 127) / 128, 128>>>(d_mass, n, mon); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning expect-message: 'cudaDeviceSynchronize' in 'age_watched' blocks the host on every iteration of a for loop (line 43) that also enqueues device work (kernel 'decay_watched' is launched at line 44): the GPU drains and idles while the host catches up
        mon->verify(__LINE__);
        cudaMemcpy(h_mass, d_mass, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: note expect-message: drained
    }
}

// The same method after a closing wait.
void age_watched_closing(float *d_mass, float *h_mass, Monitor *mon, int n, int steps)
{
    for (int t = 0; t < steps; t++) {
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note
        decay_watched<<<(n + 127) / 128, 128>>>(d_mass, n, mon); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning expect-message: 'cudaDeviceSynchronize' in 'age_watched_closing' blocks the host on every iteration of a for loop (line 54) that also enqueues device work (kernel 'decay_watched' is launched at line 56): the GPU drains and idles while the host catches up
        mon->verify(__LINE__);
    }
    cudaMemcpy(h_mass, d_mass, n * sizeof(float), cudaMemcpyDeviceToHost);
}

// A default argument that clears a buffer at every call.
static float *spare;
static int spare_n;
static int wipe_spare()
{
    cudaMemset(spare, 0, spare_n * sizeof(float));
    return 1;
}

static void verify_wiped(int line, int wiped = wipe_spare())
{
    cudaError_t status = cudaGetLastError();
    if (status != cudaSuccess) {
        fprintf(stderr, "%d (%d): %s\n", line, wiped, cudaGetErrorString(status));
        exit(EXIT_FAILURE);
    }
}

void age_wiped(float *d_mass, float *h_mass, int n, int steps)
{
    for (int t = 0; t < steps; t++) {
        decay<<<(n + 127) / 128, 128>>>(d_mass, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning expect-message: 'cudaDeviceSynchronize' in 'age_wiped' blocks the host on every iteration of a for loop (line 83) that also enqueues device work (kernel 'decay' is launched at line 84): the GPU drains and idles while the host catches up
        verify_wiped(__LINE__);
        cudaMemcpy(h_mass, d_mass, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: note expect-message: drained
    }
}

// A template checking function: what 'p += 1' runs is known only once it is instantiated.
struct Sampler {
    float *d_trace;
    Sampler &operator+=(int) { decay<<<1, 32>>>(d_trace, 32); return *this; } // expect: SYNC101
};

template <typename Probe> void verify_polled(Probe &p)
{
    cudaError_t status = cudaGetLastError();
    if (status != cudaSuccess) {
        fprintf(stderr, "%s\n", cudaGetErrorString(status));
        exit(EXIT_FAILURE);
    }
    p += 1;
}

void age_sampled(float *d_mass, float *h_mass, Sampler &probe, int n, int steps)
{
    for (int t = 0; t < steps; t++) {
        decay<<<(n + 127) / 128, 128>>>(d_mass, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning expect-message: 'cudaDeviceSynchronize' in 'age_sampled' blocks the host on every iteration of a for loop (line 109) that also enqueues device work (kernel 'decay' is launched at line 110): the GPU drains and idles while the host catches up
        verify_polled(probe);
        cudaMemcpy(h_mass, d_mass, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: note expect-message: drained
    }
}

// A local whose destructor clears a buffer when the checking function returns.
struct SpareWiper {
    int line;
    ~SpareWiper() { wipe_spare(); }
};

static void verify_guarded(int line)
{
    SpareWiper wiper{line};
    cudaError_t status = cudaGetLastError();
    if (status != cudaSuccess) {
        fprintf(stderr, "%d: %s\n", line, cudaGetErrorString(status));
        exit(EXIT_FAILURE);
    }
}

void age_guarded(float *d_mass, float *h_mass, int n, int steps)
{
    for (int t = 0; t < steps; t++) {
        decay<<<(n + 127) / 128, 128>>>(d_mass, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning expect-message: 'cudaDeviceSynchronize' in 'age_guarded' blocks the host on every iteration of a for loop (line 135) that also enqueues device work (kernel 'decay' is launched at line 136): the GPU drains and idles while the host catches up
        verify_guarded(__LINE__);
        cudaMemcpy(h_mass, d_mass, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: note expect-message: drained
    }
}

// A weak definition: a strong one in another unit replaces it at link time.
__attribute__((weak)) void verify_hook(int line)
{
    cudaError_t status = cudaGetLastError();
    if (status != cudaSuccess) {
        fprintf(stderr, "%d: %s\n", line, cudaGetErrorString(status));
        exit(EXIT_FAILURE);
    }
}

void age_hooked(float *d_mass, float *h_mass, int n, int steps)
{
    for (int t = 0; t < steps; t++) {
        decay<<<(n + 127) / 128, 128>>>(d_mass, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning expect-message: 'cudaDeviceSynchronize' in 'age_hooked' blocks the host on every iteration of a for loop (line 155) that also enqueues device work (kernel 'decay' is launched at line 156): the GPU drains and idles while the host catches up
        verify_hook(__LINE__);
        cudaMemcpy(h_mass, d_mass, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: note expect-message: drained
    }
}

// The default argument given on an earlier declaration only.
static void verify_declared(int line, int wiped = wipe_spare());
static void verify_declared(int line, int wiped)
{
    cudaError_t status = cudaGetLastError();
    if (status != cudaSuccess) {
        fprintf(stderr, "%d (%d): %s\n", line, wiped, cudaGetErrorString(status));
        exit(EXIT_FAILURE);
    }
}

void age_declared(float *d_mass, float *h_mass, int n, int steps)
{
    for (int t = 0; t < steps; t++) {
        decay<<<(n + 127) / 128, 128>>>(d_mass, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning expect-message: 'cudaDeviceSynchronize' in 'age_declared' blocks the host on every iteration of a for loop (line 176) that also enqueues device work (kernel 'decay' is launched at line 177): the GPU drains and idles while the host catches up
        verify_declared(__LINE__);
        cudaMemcpy(h_mass, d_mass, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: note expect-message: drained
    }
}
