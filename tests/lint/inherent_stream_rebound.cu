// inherent_stream_rebound.cu: a count read back asynchronously on a stream, then the stream's
// wait and a launch the count sizes: the wait is inherent only where the stream's name still
// names the copy's stream at the wait. Warnings where the name may stand for another stream by
// then: rebound through a reference ('r = other;'), a pointer ('*ps = other;'), 'std::swap', a
// helper taking it by reference, an 'operator=' of a wrapper or of a structure holding it, a
// store into the wrapper's member, or in the copy's own statement (an index changed, the stream
// assigned); where the wait was the only reason, the readback's note goes too (lines 87, 98,
// 109, 153). Notes kept: the stream created in the function ('cudaStreamCreateWithFlags(&s, ...)'
// keeps no pointer), a store through another pointer, a const reference to the stream, a store
// into another member of the structure that holds it. At 7eaa5fc every line here was a note.
#include <cuda_runtime.h>
#include <utility>

__global__ void search(unsigned *out) { out[0] = 1; }

void pick(cudaStream_t &x, cudaStream_t y) { x = y; }

struct Stream {
    cudaStream_t h;
    operator cudaStream_t() const { return h; }
};

struct Ctx {
    cudaStream_t s;
    int n;
};

struct Engine {
    unsigned *d_out;
    unsigned *pinned; // cudaHostAlloc'd
    unsigned *seen;
    cudaStream_t s, other, st[2];
    Stream cs, next;
    Ctx c, spare;
    int i;
    int StreamRef();
    int StreamSwap();
    int StreamPtr();
    int StreamHelper();
    int Wrapper();
    int Whole();
    int Comma();
    int SameStatement();
    int Kept();
    int WrapperField();
    int OtherField();
};

int Engine::StreamRef()
{
    cudaStream_t &r = s;
    search<<<64, 256, 0, s>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: note
    r = other;
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
    unsigned n = pinned[0];
    search<<<n, 256, 0, s>>>(d_out);
    return 1;
}

int Engine::StreamSwap()
{
    search<<<64, 256, 0, s>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: note
    std::swap(s, other);
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
    unsigned n = pinned[0];
    search<<<n, 256, 0, s>>>(d_out);
    return 1;
}

int Engine::StreamPtr()
{
    cudaStream_t *ps = &s;
    search<<<64, 256, 0, s>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: note
    *ps = other;
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
    unsigned n = pinned[0];
    search<<<n, 256, 0, s>>>(d_out);
    return 1;
}

int Engine::StreamHelper()
{
    search<<<64, 256, 0, s>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: warning expect-no-message: inherent:
    pick(s, other);
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
    unsigned n = pinned[0];
    search<<<n, 256, 0, s>>>(d_out);
    return 1;
}

int Engine::Wrapper()
{
    search<<<64, 256, 0, cs>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, cs); // expect: SYNC301 expect-severity: warning expect-no-message: inherent:
    cs = next;
    cudaStreamSynchronize(cs); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
    unsigned n = pinned[0];
    search<<<n, 256, 0, cs>>>(d_out);
    return 1;
}

int Engine::Whole()
{
    search<<<64, 256, 0, c.s>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, c.s); // expect: SYNC301 expect-severity: warning expect-no-message: inherent:
    c = spare;
    cudaStreamSynchronize(c.s); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
    unsigned n = pinned[0];
    search<<<n, 256, 0, c.s>>>(d_out);
    return 1;
}

int Engine::Comma()
{
    search<<<64, 256, 0, st[i]>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, st[i]), i ^= 1; // expect: SYNC301 expect-severity: note
    cudaStreamSynchronize(st[i]); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
    unsigned n = pinned[0];
    search<<<n, 256, 0, st[i]>>>(d_out);
    return 1;
}

int Engine::SameStatement()
{
    search<<<64, 256, 0, s>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, s), s = other; // expect: SYNC301 expect-severity: note
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
    unsigned n = pinned[0];
    search<<<n, 256, 0, s>>>(d_out);
    return 1;
}

int Engine::Kept()
{
    const cudaStream_t &cr = s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    search<<<64, 256, 0, cr>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: note
    *seen = 0;
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: inherent: it waits for the value read back at line 142
    unsigned n = pinned[0];
    search<<<n, 256, 0, s>>>(d_out);
    return 1;
}

int Engine::WrapperField()
{
    search<<<64, 256, 0, cs>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, cs); // expect: SYNC301 expect-severity: warning expect-no-message: inherent:
    cs.h = next.h;
    cudaStreamSynchronize(cs); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
    unsigned n = pinned[0];
    search<<<n, 256, 0, cs>>>(d_out);
    return 1;
}

int Engine::OtherField()
{
    search<<<64, 256, 0, c.s>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, c.s); // expect: SYNC301 expect-severity: note
    c.n = 1;
    cudaStreamSynchronize(c.s); // expect: SYNC401 expect-severity: note expect-message: inherent: it waits for the value read back at line 164
    unsigned n = pinned[0];
    search<<<n, 256, 0, c.s>>>(d_out);
    return 1;
}

int main()
{
    Engine e;
    e.i = 0;
    cudaStreamCreateWithFlags(&e.s, cudaStreamNonBlocking);
    cudaStreamCreateWithFlags(&e.other, cudaStreamNonBlocking);
    cudaMalloc(&e.d_out, 4096);
    cudaHostAlloc((void **)&e.pinned, 4096, cudaHostAllocDefault);
    for (int k = 0; k < 1000; k++)
        if (!e.StreamRef() || !e.StreamSwap() || !e.StreamPtr() || !e.StreamHelper() ||
            !e.Wrapper() || !e.Whole() || !e.Comma() || !e.SameStatement() || !e.Kept() ||
            !e.WrapperField() || !e.OtherField())
            break;
    return 0;
}
