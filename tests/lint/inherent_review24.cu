// inherent_review24.cu: a count read back asynchronously, then a wait and a launch the count
// sizes: the wait is inherent only where it waits for nothing but the readback, on every way
// it runs, for the copy's stream as written. Warnings: a synchronous memset of device memory
// between the readback and a device-wide wait (cudaMemset and cuMemsetD32 return once it is
// queued), a device-to-device copy made one call down (a function of the unit, a lambda), a
// readback or a pinned writer under an 'if' with the wait outside it, a stream longer than lint
// spells (it names no stream, the legacy one neither: 'cudaStreamSynchronize(0)' is no wait for
// it), a stream rebound in the wait's own statement, and a local declared between copy and wait
// that shadows the stream's name. Kept: the note with nothing between, and with a host-only helper
// between. At c77ea48 every warning here was a note.
#include <cuda.h>
#include <cuda_runtime.h>

__global__ void search(unsigned *out)
{
    out[0] = 1;
}
__global__ void count_boxes(unsigned *count)
{
    atomicAdd(count, 1u);
}

static void mirror(float *dst, const float *src, size_t n)
{
    cudaMemcpy(dst, src, n, cudaMemcpyDeviceToDevice);
}

static int tally(int k)
{
    return k * 3;
}

struct Lanes {
    cudaStream_t compute_streams_for_this_device[4];
};

struct Engine {
    unsigned *d_out;
    unsigned *pinned; // cudaHostAlloc'd
    unsigned *h_count;
    float *d_a, *d_b;
    cudaStream_t s, other;
    Lanes device_contexts_for_every_gpu[8];
    int current_device_index, current_stream_index, every, seen;

    void init() { cudaMallocHost((void **)&h_count, sizeof(unsigned)); }

    int Memset()
    {
        search<<<64, 256, 0, s>>>(d_out);
        cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: note
        cudaMemset(d_a, 0, 1 << 28);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
        unsigned n = pinned[0];
        search<<<n, 256, 0, s>>>(d_out);
        return 1;
    }

    int MemsetD32()
    {
        search<<<64, 256, 0, s>>>(d_out);
        cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: note
        cuMemsetD32((CUdeviceptr)d_a, 0, 1 << 26);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
        unsigned n = pinned[0];
        search<<<n, 256, 0, s>>>(d_out);
        return 1;
    }

    int Helper()
    {
        search<<<64, 256, 0, s>>>(d_out);
        cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: warning expect-no-message: inherent:
        mirror(d_a, d_b, 1 << 28);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
        unsigned n = pinned[0];
        search<<<n, 256, 0, s>>>(d_out);
        return 1;
    }

    int Lambda()
    {
        auto copy = [&] { cudaMemcpy(d_a, d_b, 1 << 28, cudaMemcpyDeviceToDevice); };
        search<<<64, 256, 0, s>>>(d_out);
        cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: warning expect-no-message: drained anyway
        copy();
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
        unsigned n = pinned[0];
        search<<<n, 256, 0, s>>>(d_out);
        return 1;
    }

    int HostHelper(int k)
    {
        search<<<64, 256, 0, s>>>(d_out);
        cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: note
        seen = tally(k);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: inherent: it waits for the value read back at line 96
        unsigned n = pinned[0];
        search<<<n, 256, 0, s>>>(d_out);
        return 1;
    }

    int Cond(int k)
    {
        search<<<64, 256, 0, s>>>(d_out);
        if (k % every == 0)
            cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: note
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
        unsigned n = pinned[0];
        search<<<n, 256, 0, s>>>(d_out);
        return 1;
    }

    int Plain()
    {
        search<<<64, 256, 0, s>>>(d_out);
        cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: note
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: inherent: it waits for the value read back at line 118
        unsigned n = pinned[0];
        search<<<n, 256, 0, s>>>(d_out);
        return 1;
    }

    int PinnedCond(int k)
    {
        *h_count = 0;
        if (k % every == 0)
            count_boxes<<<1, 32, 0, s>>>(h_count);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
        if (*h_count == 0)
            return 0;
        search<<<*h_count, 256, 0, s>>>(d_out);
        return 1;
    }

    int LongRebound()
    {
        search<<<64, 256, 0, device_contexts_for_every_gpu[current_device_index].compute_streams_for_this_device[current_stream_index]>>>(d_out);
        cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, device_contexts_for_every_gpu[current_device_index].compute_streams_for_this_device[current_stream_index]); // expect: SYNC301 expect-severity: note
        current_stream_index ^= 1;
        cudaStreamSynchronize(device_contexts_for_every_gpu[current_device_index].compute_streams_for_this_device[current_stream_index]); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
        unsigned n = pinned[0];
        search<<<n, 256, 0, s>>>(d_out);
        return 1;
    }

    int LongLegacy()
    {
        search<<<64, 256, 0, device_contexts_for_every_gpu[current_device_index].compute_streams_for_this_device[current_stream_index]>>>(d_out);
        cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, device_contexts_for_every_gpu[current_device_index].compute_streams_for_this_device[current_stream_index]); // expect: SYNC301 expect-severity: note
        cudaStreamSynchronize(0); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
        unsigned n = pinned[0];
        search<<<n, 256, 0, s>>>(d_out);
        return 1;
    }

    int Comma()
    {
        search<<<64, 256, 0, s>>>(d_out);
        cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: note
        s = other, cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
        unsigned n = pinned[0];
        search<<<n, 256, 0, s>>>(d_out);
        return 1;
    }

    int Shadow()
    {
        search<<<64, 256, 0, s>>>(d_out);
        cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: note
        cudaStream_t s = other;
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
        unsigned n = pinned[0];
        search<<<n, 256, 0, s>>>(d_out);
        return 1;
    }
};

int main()
{
    static Engine e;
    e.init();
    for (int k = 0; k < 100; k++) {
        e.Memset();
        e.MemsetD32();
        e.Helper();
        e.Lambda();
        e.HostHelper(k);
        e.Cond(k);
        e.Plain();
        e.PinnedCond(k);
        e.LongRebound();
        e.LongLegacy();
        e.Comma();
        e.Shadow();
    }
    return 0;
}
