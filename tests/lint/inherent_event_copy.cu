// inherent_event_copy.cu: a count read back asynchronously into pinned memory on a stream, made
// available by an event recorded after the copy on the same stream and synchronized (as a
// cudaStreamSynchronize of that stream would), then read: the wait is inherent where the next
// device work needs the count, also where the count sizes a copy (of the items it counts: the
// host cannot queue that copy without it). Still warnings: an event recorded on another stream
// (its readback is a note at 6b05f6f already: the value sizes the launch), device work between
// the copy and the event, a copy sized by something else or only by the value's type
// ('sizeof(count)'), and an event whose name may stand for another one at the wait (assigned,
// an index changed, in the record's own statement too, recorded under an 'if', or recorded
// again on another stream under another name). At 6b05f6f lines 39, 50 and 52 were warnings.
#include <cuda_runtime.h>

__global__ void search(unsigned *out) { out[0] = 1; }

struct Engine {
    unsigned *d_out;  // the count, then the items
    unsigned *pinned; // cudaHostAlloc'd
    cudaStream_t s, other;
    cudaEvent_t done;
    unsigned max_found;
    int Launch();
    int Copy();
    int Other();
    int Between();
    int Fixed();
    int Reassigned(cudaEvent_t spare);
    int Indexed(cudaEvent_t *ev, int i);
    int Conditional(bool flag);
    int TypeSized();
    int SameStatement(cudaEvent_t *ev, int i);
    int Copied();
};

int Engine::Launch()
{
    search<<<64, 256, 0, s>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: note expect-message: inherent: the next device work needs the value (line 43 sizes a launch with 'n', computed from it)
    cudaEventRecord(done, s);
    cudaEventSynchronize(done); // expect: SYNC401 expect-severity: note expect-message: inherent: it waits for the value read back at line 37, and the next device work needs it (line 43 sizes a launch with 'n', computed from it)
    unsigned n = pinned[0];
    if (n == 0)
        return 0;
    search<<<n, 256, 0, s>>>(d_out);
    return 1;
}

int Engine::Copy()
{
    search<<<64, 256, 0, s>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: note expect-message: inherent: the next device work needs the value (line 56 sizes a copy with 'n', computed from it)
    cudaEventRecord(done, s);
    cudaEventSynchronize(done); // expect: SYNC401 expect-severity: note expect-message: inherent: it waits for the value read back at line 50, and the next device work needs it (line 56 sizes a copy with 'n', computed from it)
    unsigned n = pinned[0];
    if (n > max_found)
        n = max_found;
    cudaMemcpyAsync(pinned, d_out, n * 16 + 4, cudaMemcpyDeviceToHost, s);
    search<<<64, 256, 0, s>>>(d_out);
    return n > 0;
}

int Engine::Other()
{
    search<<<64, 256, 0, s>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: note
    cudaEventRecord(done, other);
    cudaEventSynchronize(done); // expect: SYNC401 expect-severity: warning
    unsigned n = pinned[0];
    search<<<n, 256, 0, s>>>(d_out);
    return 1;
}

int Engine::Between()
{
    search<<<64, 256, 0, s>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: warning
    search<<<64, 256, 0, s>>>(d_out);
    cudaEventRecord(done, s);
    cudaEventSynchronize(done); // expect: SYNC401 expect-severity: warning
    unsigned n = pinned[0];
    search<<<n, 256, 0, s>>>(d_out);
    return 1;
}

int Engine::Fixed()
{
    search<<<64, 256, 0, s>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: warning
    cudaEventRecord(done, s);
    cudaEventSynchronize(done); // expect: SYNC401 expect-severity: warning
    unsigned n = pinned[0];
    cudaMemcpyAsync(pinned, d_out, max_found * 16 + 4, cudaMemcpyDeviceToHost, s);
    search<<<64, 256, 0, s>>>(d_out);
    return n > 0;
}

int Engine::Reassigned(cudaEvent_t spare)
{
    search<<<64, 256, 0, s>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: note
    cudaEventRecord(done, s);
    done = spare;
    cudaEventSynchronize(done); // expect: SYNC401 expect-severity: warning
    unsigned n = pinned[0];
    search<<<n, 256, 0, s>>>(d_out);
    return 1;
}

int Engine::Indexed(cudaEvent_t *ev, int i)
{
    search<<<64, 256, 0, s>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: note
    cudaEventRecord(ev[i], s);
    i = 1 - i;
    cudaEventSynchronize(ev[i]); // expect: SYNC401 expect-severity: warning
    unsigned n = pinned[0];
    search<<<n, 256, 0, s>>>(d_out);
    return 1;
}

int Engine::Conditional(bool flag)
{
    search<<<64, 256, 0, s>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: note
    if (flag)
        cudaEventRecord(done, s);
    cudaEventSynchronize(done); // expect: SYNC401 expect-severity: warning
    unsigned n = pinned[0];
    search<<<n, 256, 0, s>>>(d_out);
    return 1;
}

int Engine::TypeSized()
{
    unsigned count = 0, zero = 0;
    search<<<64, 256, 0, s>>>(d_out);
    cudaMemcpy(&count, d_out, sizeof(count), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
    cudaMemcpy(d_out, &zero, sizeof count, cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: warning
    search<<<64, 256, 0, s>>>(d_out);
    return count > 0;
}

int Engine::SameStatement(cudaEvent_t *ev, int i)
{
    search<<<64, 256, 0, s>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: note
    cudaEventRecord(ev[i], s), i ^= 1;
    cudaEventSynchronize(ev[i]); // expect: SYNC401 expect-severity: warning
    unsigned n = pinned[0];
    search<<<n, 256, 0, s>>>(d_out);
    return 1;
}

int Engine::Copied()
{
    cudaEvent_t same = done;
    search<<<64, 256, 0, s>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: note
    cudaEventRecord(done, s);
    cudaEventRecord(same, other);
    cudaEventSynchronize(done); // expect: SYNC401 expect-severity: warning
    unsigned n = pinned[0];
    search<<<n, 256, 0, s>>>(d_out);
    return 1;
}

int main()
{
    Engine e;
    cudaStreamCreateWithFlags(&e.s, cudaStreamNonBlocking);
    cudaStreamCreateWithFlags(&e.other, cudaStreamNonBlocking);
    cudaEventCreate(&e.done);
    cudaMalloc(&e.d_out, 4096);
    cudaHostAlloc((void **)&e.pinned, 4096, cudaHostAllocDefault);
    e.max_found = 64;
    for (int i = 0; i < 1000; i++)
        if (!e.Launch() || !e.Copy() || !e.Other() || !e.Between() || !e.Fixed() ||
            !e.Reassigned(e.done) || !e.Indexed(&e.done, 0) || !e.Conditional(i % 2) ||
            !e.TypeSized() || !e.SameStatement(&e.done, 0) || !e.Copied())
            break;
    return 0;
}
