// inherent_count_launch.cu: a count read back on every step whose value sizes the next launch
// (its grid, also under the 'if' that tests it: 'if (n > 0) k<<<n, 1024>>>(...)'): the host
// cannot queue that launch without it, so the wait is needed on every iteration whatever the
// code around it: inherent, a note, in a loop or reached from one, and so is the wait that
// makes an asynchronous readback's value available. The value may be used after the wait that
// comes past statements that stand apart from it. A value the host only tests is a note of its
// own ("inherent as written", only_tested.cu; with a call between it and the test, a warning).
// Still warnings: device work lint sees between the copy and the wait (the wait waits for it
// too), and host work between the copy and the use with no wait there (it could overlap it).
#include <cuda_runtime.h>

__global__ void count_spikes(int *n) { atomicAdd(n, 1); }
__global__ void collect(int n, float *x) { x[threadIdx.x] += (float)n; }

struct Net {
    int *d_n;
    float *d_x;
    cudaStream_t s;
    int ClearArrays(); // another unit's: memsets of each group's arrays
    void Prepare();    // another unit's
    int Step();
    int Update();
    int Steer();
    int Overlap();
    int Converge();
};

int Net::Step()
{
    count_spikes<<<1, 32, 0, s>>>(d_n);
    int n_spikes;
    cudaMemcpyAsync(&n_spikes, d_n, sizeof(int), cudaMemcpyDeviceToHost, s); // expect: SYNC201, SYNC301 expect-severity: note expect-message: inherent: the statement after the wait at line 34 needs the value (line 35 branches on it and sizes a launch with it); the statements before the wait do not use it
    ClearArrays();
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: inherent: it waits for the value read back at line 32, and the next statement needs it (line 35 branches on it and sizes a launch with it)
    if (n_spikes > 0) collect<<<n_spikes, 1024, 0, s>>>(n_spikes, d_x);
    return 0;
}

int Net::Update()
{
    count_spikes<<<1, 32, 0, s>>>(d_n);
    unsigned n_rev;
    cudaMemcpy(&n_rev, d_n, sizeof(unsigned), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent: the next statement needs the value (line 44 branches on it, and line 45 sizes a launch with it)
    if (n_rev > 0) {
        collect<<<n_rev, 1024, 0, s>>>((int)n_rev, d_x);
    }
    return 0;
}

int Net::Steer()
{
    int n;
    cudaMemcpy(&n, d_n, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent: the value chooses the next device work (line 54's 'if' tests it before any launch)
    if (n == 0)
        return 1;
    collect<<<1, 32, 0, s>>>(n, d_x);
    return 0;
}

int Net::Overlap()
{
    int n;
    cudaMemcpyAsync(&n, d_n, sizeof(int), cudaMemcpyDeviceToHost, s); // expect: SYNC201, SYNC301 expect-severity: warning
    count_spikes<<<64, 32, 0, s>>>(d_n);
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
    collect<<<n, 1024, 0, s>>>(n, d_x);
    int m;
    cudaMemcpyAsync(&m, d_n, sizeof(int), cudaMemcpyDeviceToHost, s); // expect: SYNC201 expect-severity: warning
    Prepare();
    collect<<<m, 1024, 0, s>>>(m, d_x);
    return 0;
}

int Net::Converge()
{
    float residual;
    cudaMemcpyAsync(&residual, d_x, sizeof(float), cudaMemcpyDeviceToHost, s); // expect: SYNC201, SYNC301 expect-severity: warning
    Prepare();
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
    if (residual < 1e-3f)
        return 1;
    return 0;
}

void simulate(Net &net, int steps)
{
    for (int it = 0; it < steps; it++) {
        net.Step();
        net.Update();
        if (net.Steer())
            break;
        net.Overlap();
        if (net.Converge())
            break;
    }
}

void make_stream(Net &net) { cudaStreamCreateWithFlags(&net.s, cudaStreamNonBlocking); }

// The next device work sized with the count, after host code only: a guard that leaves the
// iteration when it is zero, a bound, a grid computed from it (an assignment of a temporary, a
// bare block around them): inherent. A launch that only takes the count as an argument, or
// device work lint sees in between (a memset), keeps the warning.
__global__ void fill(unsigned n, float *x) { x[threadIdx.x] = (float)n; }

void render(unsigned *d_n, float *d_x, int maps, cudaStream_t s)
{
    for (int m = 0; m < maps; ++m) {
        cudaMemsetAsync(d_n, 0, sizeof(unsigned), s);
        count_spikes<<<64, 256, 0, s>>>((int *)d_n);
        unsigned n;
        cudaMemcpy(&n, d_n, sizeof(unsigned), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent: the next device work needs the value (line 119 sizes a launch with 'grid', computed from it); the statements before it only test, bound or compute with it on the host
        if (n == 0)
            continue;
        if (n > 4096u)
            n = 4096u;
        dim3 block(16, 16), grid;
        grid = dim3((n + 3) / 4, 4);
        fill<<<grid, block, 0, s>>>(n, d_x);
    }
}

void forward(unsigned *d_n, float *d_x, int frames, cudaStream_t s)
{
    for (int f = 0; f < frames; ++f) {
        count_spikes<<<64, 256, 0, s>>>((int *)d_n);
        unsigned missing;
        cudaMemcpy(&missing, d_n, sizeof(unsigned), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent: the next device work needs the value (line 132 sizes a launch with 'grid', computed from it)
        {
            dim3 block(256);
            dim3 grid((missing + 255) / 256);
            fill<<<grid, block, 0, s>>>(missing, d_x);
        }
    }
}

void argument_only(unsigned *d_n, float *d_x, int frames, cudaStream_t s)
{
    for (int f = 0; f < frames; ++f) {
        count_spikes<<<64, 256, 0, s>>>((int *)d_n);
        unsigned n;
        cudaMemcpy(&n, d_n, sizeof(unsigned), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        if (n == 0)
            continue;
        fill<<<64, 256, 0, s>>>(n, d_x);
    }
}

void work_between(unsigned *d_n, float *d_x, int frames, cudaStream_t s)
{
    for (int f = 0; f < frames; ++f) {
        count_spikes<<<64, 256, 0, s>>>((int *)d_n);
        unsigned n;
        cudaMemcpy(&n, d_n, sizeof(unsigned), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        cudaMemsetAsync(d_x, 0, 64 * sizeof(float), s);
        fill<<<(n + 255) / 256, 256, 0, s>>>(n, d_x);
    }
}

// The value is the field read into: another member of the same object sizing the next launch
// does not make the readback inherent.
struct Shard {
    int nc;
    float *err_gpu;
    float *err_cpu; // pageable
    float *g;
};

void per_device_errors(Shard *ds, int devices, cudaStream_t s)
{
    for (int d = 0; d < devices; ++d) {
        cudaSetDevice(d);
        fill<<<ds[d].nc, 256, 0, s>>>(1u, ds[d].err_gpu);
        cudaMemcpy(ds[d].err_cpu, ds[d].err_gpu, ds[d].nc * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: warning
        fill<<<ds[d].nc, 256, 0, s>>>(1u, ds[d].g);
    }
}

// In a function template, a member call on an object of a dependent type ('p.sub.resize(n)',
// which libclang leaves unnamed) is named by the member written: it sizes an allocation.
template <typename T> struct DeviceBuffer {
    void resize(size_t n);
    T *data();
};
template <typename T> struct Plan {
    DeviceBuffer<T> sub;
    int *d_n;
    cudaStream_t s;
};

template <typename T> void sort_points(Plan<T> &p)
{
    count_spikes<<<1, 32, 0, p.s>>>(p.d_n);
    int total;
    cudaMemcpyAsync(&total, p.d_n, sizeof(int), cudaMemcpyDeviceToHost, p.s); // expect: SYNC201, SYNC301 expect-severity: note expect-message: inherent: the next statement needs the value (line 197 sizes an allocation with it)
    cudaStreamSynchronize(p.s);
    p.sub.resize(total);
    collect<<<1, 32, 0, p.s>>>(total, p.sub.data());
}
template void sort_points<float>(Plan<float> &);

// A copy into a field of a local structure that is returned whole: the value goes with it.
struct Status {
    int id;
    float weight;
};

Status read_status(const float *d_w, int id)
{
    Status st;
    st.id = id;
    cudaMemcpy(&st.weight, d_w, sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent: the next statement needs the value (line 213 returns it)
    return st;
}
