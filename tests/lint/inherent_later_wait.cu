// inherent_later_wait.cu: the inherent notes of a pageable copy (SYNC201) and of an asynchronous
// readback (SYNC301/SYNC401) hold only where the wait after the copy is the copy's. A stream
// written as a call ('pool.next()', 'next_lane()') may give another stream each time it runs:
// two such texts never name one stream. A pageable copy whose function hands the data to its
// caller is a note only when every wait after it waits for the copy: a wait for another stream,
// or for the stream rebound in the wait's own statement, is work a pinned buffer's copy could
// overlap with. Kept: the notes where the wait is for the copy's stream as written, also through
// a wrapper's conversion to the handle, and a handover with no wait at all.
#include <cuda_runtime.h>

__global__ void search(unsigned *out)
{
    out[0] = 1;
}

struct Pool {
    cudaStream_t lanes[4];
    unsigned turn;
    cudaStream_t next() { return lanes[turn++ & 3]; }
};

static cudaStream_t g_lanes[4];
static unsigned g_turn;
static cudaStream_t next_lane()
{
    return g_lanes[g_turn++ & 3];
}

struct Lane {
    cudaStream_t handle;
    operator cudaStream_t() const { return handle; }
};

struct Engine {
    unsigned *d_out;
    unsigned *pinned; // cudaHostAlloc'd
    Pool pool;
    Lane lane;
    cudaStream_t s, other;

    int PoolReadback()
    {
        search<<<64, 256, 0, pool.lanes[0]>>>(d_out);
        cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, pool.next()); // expect: SYNC301 expect-severity: warning
        cudaStreamSynchronize(pool.next()); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
        unsigned n = pinned[0];
        search<<<n, 256, 0, pool.lanes[0]>>>(d_out);
        return 1;
    }

    int FreeReadback()
    {
        search<<<64, 256, 0, g_lanes[0]>>>(d_out);
        cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, next_lane()); // expect: SYNC301 expect-severity: warning
        cudaStreamSynchronize(next_lane()); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
        unsigned n = pinned[0];
        search<<<n, 256, 0, g_lanes[0]>>>(d_out);
        return 1;
    }

    int WrapperReadback()
    {
        search<<<64, 256, 0, lane>>>(d_out);
        cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, lane); // expect: SYNC301 expect-severity: warning
        cudaStreamSynchronize(lane); // expect: SYNC401 expect-severity: note expect-message: inherent: it waits for the value read back at line 64
        unsigned n = pinned[0];
        search<<<n, 256, 0, lane>>>(d_out);
        return 1;
    }

    int PoolPageable()
    {
        unsigned h[1024];
        cudaMemcpyAsync(h, d_out, sizeof h, cudaMemcpyDeviceToHost, pool.next()); // expect: SYNC201 expect-severity: warning expect-no-message: inherent:
        cudaStreamSynchronize(pool.next()); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
        return h[0] != 0;
    }

    int CommaPageable()
    {
        unsigned h[1024];
        cudaMemcpyAsync(h, d_out, sizeof h, cudaMemcpyDeviceToHost, s); // expect: SYNC201 expect-severity: warning expect-no-message: inherent:
        s = other, cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
        return h[0] != 0;
    }

    int OtherPageable()
    {
        unsigned h[1024];
        cudaMemcpyAsync(h, d_out, sizeof h, cudaMemcpyDeviceToHost, s); // expect: SYNC201 expect-severity: warning expect-no-message: inherent:
        h[1] = 0;
        cudaStreamSynchronize(other); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
        return h[0] != 0;
    }

    int SamePageable()
    {
        unsigned h[1024];
        cudaMemcpyAsync(h, d_out, sizeof h, cudaMemcpyDeviceToHost, s); // expect: SYNC201 expect-severity: note expect-message: inherent: the function hands the data to its caller (it returns 'h' at line 102)
        h[1] = 0;
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        return h[0] != 0;
    }

    int NoWaitPageable()
    {
        unsigned h[1024];
        cudaMemcpyAsync(h, d_out, sizeof h, cudaMemcpyDeviceToHost, s); // expect: SYNC201 expect-severity: note expect-message: inherent: the function hands the data to its caller (it returns 'h' at line 109)
        return h[0] != 0;
    }
};

int main()
{
    static Engine e;
    for (int k = 0; k < 100; k++) {
        e.PoolReadback();
        e.FreeReadback();
        e.WrapperReadback();
        e.PoolPageable();
        e.CommaPageable();
        e.OtherPageable();
        e.SamePageable();
        e.NoWaitPageable();
    }
    return 0;
}
