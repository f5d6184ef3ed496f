// inherent_rebound_alias.cu: a store between an asynchronous readback and its wait that may
// reach the stream under another name: through a pointer the constructor or the file keeps to
// it, through a reference member, into the array element a local reference or a member pointer
// stands for, through a copy of the array's pointer, 'std::fill' or 'memcpy' over the array,
// through a structured binding, a pointer to member, or a function pointer that takes the
// stream by reference. The wait is then not the readback's: warnings. Kept notes: stores of
// other types through pointers (a counter), a store into another array of streams.
#include <cuda_runtime.h>
#include <algorithm>
#include <cstring>
#include <utility>

__global__ void probe(unsigned *out)
{
    out[0] = 1;
}

static cudaStream_t g_main, g_alt;
static cudaStream_t *g_main_at = &g_main;
typedef void (*turn_fn)(cudaStream_t &);
static void turn_to_alt(cudaStream_t &x)
{
    x = g_alt;
}
static turn_fn g_turn = turn_to_alt;

struct Relay {
    unsigned *d_out;
    unsigned *pinned; // cudaHostAlloc'd
    cudaStream_t lane, alt, ring[2], other_ring[2];
    cudaStream_t *lane_at;
    cudaStream_t &lane_ref;
    cudaStream_t *ring_at; // == ring
    int *counter;
    std::pair<cudaStream_t, int> slot;
    Relay() : lane_at(&lane), lane_ref(lane), ring_at(ring), counter(nullptr) {}
    int KeptPointer();
    int ReferenceMember();
    int FilePointer();
    int ElementReference();
    int ArrayPointer();
    int Fill();
    int Memcpy();
    int MemberPointer();
    int Binding();
    int MemberPointerStore();
    int FunctionPointer();
    int KeptCounter();
    int KeptOtherRing();
};

int Relay::KeptPointer()
{
    probe<<<64, 256, 0, lane>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, lane); // expect: SYNC301 expect-severity: note expect-message: inherent: the next device work
    *lane_at = alt;
    cudaStreamSynchronize(lane); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
    unsigned n = pinned[0];
    probe<<<n, 256, 0, lane>>>(d_out);
    return 1;
}

int Relay::ReferenceMember()
{
    probe<<<64, 256, 0, lane>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, lane); // expect: SYNC301 expect-severity: note expect-message: inherent: the next device work
    lane_ref = alt;
    cudaStreamSynchronize(lane); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
    unsigned n = pinned[0];
    probe<<<n, 256, 0, lane>>>(d_out);
    return 1;
}

int Relay::FilePointer()
{
    probe<<<64, 256, 0, g_main>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, g_main); // expect: SYNC301 expect-severity: note expect-message: inherent: the next device work
    *g_main_at = g_alt;
    cudaStreamSynchronize(g_main); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
    unsigned n = pinned[0];
    probe<<<n, 256, 0, g_main>>>(d_out);
    return 1;
}

int Relay::ElementReference()
{
    cudaStream_t &first = ring[0];
    probe<<<64, 256, 0, first>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, first); // expect: SYNC301 expect-severity: note expect-message: inherent: the next device work
    ring[0] = alt;
    cudaStreamSynchronize(first); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
    unsigned n = pinned[0];
    probe<<<n, 256, 0, first>>>(d_out);
    return 1;
}

int Relay::ArrayPointer()
{
    cudaStream_t *r = ring;
    probe<<<64, 256, 0, ring[1]>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, ring[1]); // expect: SYNC301 expect-severity: note expect-message: inherent: the next device work
    r[1] = alt;
    cudaStreamSynchronize(ring[1]); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
    unsigned n = pinned[0];
    probe<<<n, 256, 0, ring[1]>>>(d_out);
    return 1;
}

int Relay::Fill()
{
    probe<<<64, 256, 0, ring[0]>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, ring[0]); // expect: SYNC301 expect-severity: note expect-message: inherent: the next device work
    std::fill(ring, ring + 2, alt);
    cudaStreamSynchronize(ring[0]); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
    unsigned n = pinned[0];
    probe<<<n, 256, 0, ring[0]>>>(d_out);
    return 1;
}

int Relay::Memcpy()
{
    probe<<<64, 256, 0, ring[1]>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, ring[1]); // expect: SYNC301 expect-severity: note expect-message: inherent: the next device work
    memcpy(ring, other_ring, sizeof ring);
    cudaStreamSynchronize(ring[1]); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
    unsigned n = pinned[0];
    probe<<<n, 256, 0, ring[1]>>>(d_out);
    return 1;
}

int Relay::MemberPointer()
{
    probe<<<64, 256, 0, ring_at[0]>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, ring_at[0]); // expect: SYNC301 expect-severity: note expect-message: inherent: the next device work
    ring[0] = alt;
    cudaStreamSynchronize(ring_at[0]); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
    unsigned n = pinned[0];
    probe<<<n, 256, 0, ring_at[0]>>>(d_out);
    return 1;
}

int Relay::Binding()
{
    auto &[bound, tag] = slot;
    probe<<<64, 256, 0, slot.first>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, slot.first); // expect: SYNC301 expect-severity: note expect-message: inherent: the next device work
    bound = alt;
    cudaStreamSynchronize(slot.first); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
    unsigned n = pinned[0] + tag;
    probe<<<n, 256, 0, slot.first>>>(d_out);
    return 1;
}

int Relay::MemberPointerStore()
{
    cudaStream_t Relay::*which = &Relay::lane;
    probe<<<64, 256, 0, lane>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, lane); // expect: SYNC301 expect-severity: note expect-message: inherent: the next device work
    this->*which = alt;
    cudaStreamSynchronize(lane); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
    unsigned n = pinned[0];
    probe<<<n, 256, 0, lane>>>(d_out);
    return 1;
}

int Relay::FunctionPointer()
{
    probe<<<64, 256, 0, lane>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, lane); // expect: SYNC301 expect-severity: warning expect-no-message: inherent:
    g_turn(lane);
    cudaStreamSynchronize(lane); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
    unsigned n = pinned[0];
    probe<<<n, 256, 0, lane>>>(d_out);
    return 1;
}

int Relay::KeptCounter()
{
    probe<<<64, 256, 0, lane>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, lane); // expect: SYNC301 expect-severity: note expect-message: inherent: the next device work
    *counter += 1;
    cudaStreamSynchronize(lane); // expect: SYNC401 expect-severity: note expect-message: inherent: it waits for the value read back at line 180
    unsigned n = pinned[0];
    probe<<<n, 256, 0, lane>>>(d_out);
    return 1;
}

int Relay::KeptOtherRing()
{
    probe<<<64, 256, 0, ring[0]>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, ring[0]); // expect: SYNC301 expect-severity: note expect-message: inherent: the next device work
    other_ring[0] = alt;
    cudaStreamSynchronize(ring[0]); // expect: SYNC401 expect-severity: note expect-message: inherent: it waits for the value read back at line 191
    unsigned n = pinned[0];
    probe<<<n, 256, 0, ring[0]>>>(d_out);
    return 1;
}

int main()
{
    static int count;
    static Relay r;
    r.counter = &count;
    for (int k = 0; k < 100; k++) {
        r.KeptPointer();
        r.ReferenceMember();
        r.FilePointer();
        r.ElementReference();
        r.ArrayPointer();
        r.Fill();
        r.Memcpy();
        r.MemberPointer();
        r.Binding();
        r.MemberPointerStore();
        r.FunctionPointer();
        r.KeptCounter();
        r.KeptOtherRing();
    }
    return 0;
}
