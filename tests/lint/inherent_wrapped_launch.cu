// inherent_wrapped_launch.cu: a value read back on every iteration that is the loop's exit test
// and the size of the next launch, made through a wrapper of the unit (tiny-cuda-nn's
// 'linear_kernel(kernel, shmem, stream, n, args...)', which computes the grid from 'n'): the
// host cannot queue that launch without the value, as with a plain '<<<(n + 255) / 256, ...>>>'
// (inherent_count_launch.cu), so the readback and its wait are notes. The wrapper's parameter
// counts where its body puts it (or a local computed from it) into a launch's grid, block or
// shared memory ('<<<...>>>', a cudaLaunchKernelEx config) or an allocation's size, also one
// wrapper further down. No size: a value only a kernel's argument, in a parameter pack, given
// a function object's call operator, a wrapper called in an unrelated 'else'; there the notes
// name the loop's exit test ('if (n_alive == 0) break;'), which needs the value first.
#include <cuda_runtime.h>

__global__ void compact(unsigned n, const float *in, float *out, unsigned *alive)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && in[i] > 0.0f)
        out[atomicAdd(alive, 1u)] = in[i];
}
__global__ void march(unsigned n, float *rays)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        rays[i] -= 0.25f;
}

template <typename K, typename... Types>
void linear_kernel(K kernel, unsigned shmem, cudaStream_t stream, unsigned n, Types... args)
{
    if (n == 0)
        return;
    kernel<<<(n + 255) / 256, 256, shmem, stream>>>(n, args...);
}

// The shape of instant-ngp's NerfTracer::trace: notes.
unsigned trace(float *a, float *b, unsigned *d_alive, unsigned n_rays, cudaStream_t stream)
{
    unsigned i = 1, n_alive = n_rays;
    while (i < 1024) {
        cudaMemsetAsync(d_alive, 0, sizeof(unsigned), stream);
        compact<<<(n_alive + 255) / 256, 256, 0, stream>>>(n_alive, a, b, d_alive);
        cudaMemcpyAsync(&n_alive, d_alive, sizeof(unsigned), cudaMemcpyDeviceToHost, stream); // expect: SYNC201, SYNC301 expect-severity: note expect-message: inherent: the next device work needs the value (line 46 passes it to 'linear_kernel()', which sizes a launch with it)
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: note expect-message: inherent: it waits for the value read back at line 41, and the next device work needs it (line 46 passes it to 'linear_kernel()', which sizes a launch with it)
        if (n_alive == 0) {
            break;
        }
        linear_kernel(march, 0, stream, n_alive, b);
        float *t = a;
        a = b;
        b = t;
        i += 8;
    }
    return i;
}

// A wrapper whose launch has a fixed grid: the value is only the kernel's argument.
template <typename K, typename... Types>
void fixed_kernel(K kernel, cudaStream_t stream, unsigned n, Types... args)
{
    kernel<<<64, 256, 0, stream>>>(n, args...);
}

unsigned trace_fixed(float *a, float *b, unsigned *d_alive, unsigned n_rays, cudaStream_t stream)
{
    unsigned i = 1, n_alive = n_rays;
    while (i < 1024) {
        cudaMemsetAsync(d_alive, 0, sizeof(unsigned), stream);
        compact<<<(n_alive + 255) / 256, 256, 0, stream>>>(n_alive, a, b, d_alive);
        cudaMemcpyAsync(&n_alive, d_alive, sizeof(unsigned), cudaMemcpyDeviceToHost, stream); // expect: SYNC201, SYNC301 expect-no-message: inherent: the next device work needs
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: note expect-message: which chooses the next device work (line 70's 'if' tests it before any launch)
        if (n_alive == 0) {
            break;
        }
        fixed_kernel(march, stream, n_alive, b);
        i += 8;
    }
    return i;
}

// A wrapper of the wrapper: the value reaches the grid two calls down.
template <typename... Types> void march_all(cudaStream_t stream, unsigned n, Types... args)
{
    linear_kernel(march, 0, stream, n, args...);
}

unsigned trace_nested(float *a, float *b, unsigned *d_alive, unsigned n_rays, cudaStream_t stream)
{
    unsigned i = 1, n_alive = n_rays;
    while (i < 1024) {
        cudaMemsetAsync(d_alive, 0, sizeof(unsigned), stream);
        compact<<<(n_alive + 255) / 256, 256, 0, stream>>>(n_alive, a, b, d_alive);
        cudaMemcpyAsync(&n_alive, d_alive, sizeof(unsigned), cudaMemcpyDeviceToHost, stream); // expect: SYNC201, SYNC301 expect-severity: note expect-message: inherent: the next device work needs the value (line 96 passes it to 'march_all()', which sizes a launch with it)
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: note expect-message: inherent: it waits for the value read back at line 91, and the next device work needs it (line 96 passes it to 'march_all()', which sizes a launch with it)
        if (n_alive == 0) {
            break;
        }
        march_all(stream, n_alive, b);
        i += 8;
    }
    return i;
}

// A wrapper that launches through cudaLaunchKernelEx, its config's grid computed from the
// parameter.
void march_ex(cudaStream_t stream, unsigned n, float *rays)
{
    cudaLaunchConfig_t config = {};
    unsigned blocks = (n + 255) / 256;
    config.gridDim = dim3(blocks);
    config.blockDim = dim3(256);
    config.stream = stream;
    cudaLaunchKernelEx(&config, march, n, rays);
}

unsigned trace_ex(float *a, float *b, unsigned *d_alive, unsigned n_rays, cudaStream_t stream)
{
    unsigned i = 1, n_alive = n_rays;
    while (i < 1024) {
        cudaMemsetAsync(d_alive, 0, sizeof(unsigned), stream);
        compact<<<(n_alive + 255) / 256, 256, 0, stream>>>(n_alive, a, b, d_alive);
        cudaMemcpyAsync(&n_alive, d_alive, sizeof(unsigned), cudaMemcpyDeviceToHost, stream); // expect: SYNC201, SYNC301 expect-severity: note expect-message: inherent: the next device work needs the value (line 125 passes it to 'march_ex()', which sizes a launch with it)
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: note expect-message: inherent: it waits for the value read back at line 120, and the next device work needs it (line 125 passes it to 'march_ex()', which sizes a launch with it)
        if (n_alive == 0) {
            break;
        }
        march_ex(stream, n_alive, b);
        i += 8;
    }
    return i;
}

// A wrapper that sizes an allocation with its parameter, called right after the wait.
void grow(float **rays, unsigned n)
{
    cudaFree(*rays); // expect: SYNC402 expect-severity: warning
    cudaMalloc(rays, n * sizeof(float)); // expect: SYNC402 expect-severity: warning
}

unsigned trace_grow(float *a, float *b, unsigned *d_alive, unsigned n_rays, cudaStream_t stream)
{
    unsigned i = 1, n_alive = n_rays;
    while (i < 1024) {
        cudaMemsetAsync(d_alive, 0, sizeof(unsigned), stream);
        compact<<<(n_alive + 255) / 256, 256, 0, stream>>>(n_alive, a, b, d_alive);
        cudaMemcpyAsync(&n_alive, d_alive, sizeof(unsigned), cudaMemcpyDeviceToHost, stream); // expect: SYNC201, SYNC301 expect-severity: note expect-message: inherent: the next statement needs the value (line 146 passes it to 'grow()', which allocates)
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: note
        grow(&a, n_alive);
        march<<<64, 256, 0, stream>>>(n_alive, a);
        i += 8;
    }
    return i;
}

// A variadic wrapper whose launch is fixed: the value falls into its parameter pack, which
// only the kernel reads.
template <typename K, typename... Types>
void packed_kernel(K kernel, cudaStream_t stream, Types... args)
{
    kernel<<<64, 256, 0, stream>>>(args...);
}

unsigned trace_packed(float *a, float *b, unsigned *d_alive, unsigned n_rays, cudaStream_t stream)
{
    unsigned i = 1, n_alive = n_rays;
    while (i < 1024) {
        cudaMemsetAsync(d_alive, 0, sizeof(unsigned), stream);
        compact<<<(n_alive + 255) / 256, 256, 0, stream>>>(n_alive, a, b, d_alive);
        cudaMemcpyAsync(&n_alive, d_alive, sizeof(unsigned), cudaMemcpyDeviceToHost, stream); // expect: SYNC201, SYNC301 expect-no-message: inherent: the next device work needs
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: note expect-message: which chooses the next device work (line 169's 'if' tests it before any launch)
        if (n_alive == 0) {
            break;
        }
        packed_kernel(march, stream, n_alive, b);
        i += 8;
    }
    return i;
}

// An overload set: the call resolves to one overload, and that one decides. The first sizes
// its launch with 'n'; the second takes 'n' only as the kernel's argument.
void march_n(cudaStream_t stream, unsigned n, float *rays)
{
    march<<<(n + 255) / 256, 256, 0, stream>>>(n, rays);
}
void march_n(cudaStream_t stream, unsigned n, float *rays, unsigned grid)
{
    march<<<grid, 256, 0, stream>>>(n, rays);
}

unsigned trace_overload(float *a, float *b, unsigned *d_alive, unsigned n_rays, cudaStream_t stream)
{
    unsigned i = 1, n_alive = n_rays;
    while (i < 1024) {
        cudaMemsetAsync(d_alive, 0, sizeof(unsigned), stream);
        compact<<<(n_alive + 255) / 256, 256, 0, stream>>>(n_alive, a, b, d_alive);
        cudaMemcpyAsync(&n_alive, d_alive, sizeof(unsigned), cudaMemcpyDeviceToHost, stream); // expect: SYNC201, SYNC301 expect-severity: note expect-message: inherent: the next device work needs the value (line 200 passes it to 'march_n()', which sizes a launch with it)
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: note expect-message: inherent: it waits for the value read back at line 195, and the next device work needs it (line 200 passes it to 'march_n()', which sizes a launch with it)
        if (n_alive == 0) {
            break;
        }
        march_n(stream, n_alive, b);
        i += 8;
    }
    return i;
}

unsigned trace_other_overload(float *a, float *b, unsigned *d_alive, unsigned n_rays,
                              cudaStream_t stream)
{
    unsigned i = 1, n_alive = n_rays;
    while (i < 1024) {
        cudaMemsetAsync(d_alive, 0, sizeof(unsigned), stream);
        compact<<<(n_alive + 255) / 256, 256, 0, stream>>>(n_alive, a, b, d_alive);
        cudaMemcpyAsync(&n_alive, d_alive, sizeof(unsigned), cudaMemcpyDeviceToHost, stream); // expect: SYNC201, SYNC301 expect-no-message: inherent: the next device work needs
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: note expect-message: which chooses the next device work (line 215's 'if' tests it before any launch)
        if (n_alive == 0) {
            break;
        }
        march_n(stream, n_alive, b, 64u);
        i += 8;
    }
    return i;
}

// The wrapper, and a plain launch the same, only in the 'else' of a branch on something else:
// warnings both.
unsigned trace_else(float *a, float *b, unsigned *d_alive, unsigned n_rays, int fixed,
                    cudaStream_t stream)
{
    unsigned i = 1, n_alive = n_rays;
    while (i < 1024) {
        cudaMemsetAsync(d_alive, 0, sizeof(unsigned), stream);
        compact<<<(n_alive + 255) / 256, 256, 0, stream>>>(n_alive, a, b, d_alive);
        cudaMemcpyAsync(&n_alive, d_alive, sizeof(unsigned), cudaMemcpyDeviceToHost, stream); // expect: SYNC201, SYNC301 expect-no-message: inherent: the next device work needs
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: note expect-message: which chooses the next device work (line 235's 'if' tests it before any launch)
        if (n_alive == 0) {
            break;
        }
        if (fixed) {
            march<<<64, 256, 0, stream>>>(n_alive, b);
        } else {
            linear_kernel(march, 0, stream, n_alive, b);
        }
        i += 8;
    }
    return i;
}

unsigned trace_else_plain(float *a, float *b, unsigned *d_alive, unsigned n_rays, int fixed,
                          cudaStream_t stream)
{
    unsigned i = 1, n_alive = n_rays;
    while (i < 1024) {
        cudaMemsetAsync(d_alive, 0, sizeof(unsigned), stream);
        compact<<<(n_alive + 255) / 256, 256, 0, stream>>>(n_alive, a, b, d_alive);
        cudaMemcpyAsync(&n_alive, d_alive, sizeof(unsigned), cudaMemcpyDeviceToHost, stream); // expect: SYNC201, SYNC301 expect-no-message: inherent: the next device work needs
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: note expect-message: which chooses the next device work (line 257's 'if' tests it before any launch)
        if (n_alive == 0) {
            break;
        }
        if (fixed) {
            march<<<64, 256, 0, stream>>>(n_alive, b);
        } else {
            march<<<(n_alive + 255) / 256, 256, 0, stream>>>(n_alive, b);
        }
        i += 8;
    }
    return i;
}

// A function object's call operator is not followed (its call's arguments may count the object):
// a warning.
struct Marcher {
    cudaStream_t stream;
    void operator()(unsigned n, float *rays) const
    {
        march<<<(n + 255) / 256, 256, 0, stream>>>(n, rays);
    }
};

unsigned trace_functor(float *a, float *b, unsigned *d_alive, unsigned n_rays, Marcher m)
{
    unsigned i = 1, n_alive = n_rays;
    while (i < 1024) {
        cudaMemsetAsync(d_alive, 0, sizeof(unsigned), m.stream);
        compact<<<(n_alive + 255) / 256, 256, 0, m.stream>>>(n_alive, a, b, d_alive);
        cudaMemcpyAsync(&n_alive, d_alive, sizeof(unsigned), cudaMemcpyDeviceToHost, m.stream); // expect: SYNC201, SYNC301 expect-no-message: inherent: the next device work needs
        cudaStreamSynchronize(m.stream); // expect: SYNC401 expect-severity: note expect-message: which chooses the next device work (line 288's 'if' tests it before any launch)
        if (n_alive == 0) {
            break;
        }
        m(n_alive, b);
        i += 8;
    }
    return i;
}

void make_stream(cudaStream_t *stream) { cudaStreamCreateWithFlags(stream, cudaStreamNonBlocking); }
