// inherent_rebound_calls.cu: a call between an asynchronous readback and its wait that may make
// the stream's name stand for another stream: a method of the object called without the object
// ('advance();') or through 'this', a function of the unit that turns a global stream, a lambda
// that stores into the local stream it captures by reference, a function of another unit that
// may turn a global stream. The wait is then not the readback's: warnings. Kept notes: a method
// of the object, a function of the unit and a lambda that leave the stream alone, a step of a
// counter member, a non-const method of another member.
#include <cuda_runtime.h>
#include <vector>

__global__ void probe(unsigned *out)
{
    out[0] = 1;
}

static cudaStream_t g_lane, g_spare;
static int g_ticks;
static void turn_lanes()
{
    cudaStream_t t = g_lane;
    g_lane = g_spare;
    g_spare = t;
}
static void count_tick()
{
    g_ticks++;
}
void turn_elsewhere(); // another unit's

struct Stage {
    unsigned *d_out;
    unsigned *pinned; // cudaHostAlloc'd
    cudaStream_t lane, spare;
    int ticks;
    std::vector<int> history;
    void advance()
    {
        cudaStream_t t = lane;
        lane = spare;
        spare = t;
    }
    void tick() { ticks++; }
    int Implicit();
    int ThisArrow();
    int Global();
    int Elsewhere();
    int Lambda();
    int KeptMethod();
    int KeptGlobal();
    int KeptLambda();
    int KeptMember();
};

int Stage::Implicit()
{
    probe<<<64, 256, 0, lane>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, lane); // expect: SYNC301 expect-severity: warning expect-no-message: inherent:
    advance();
    cudaStreamSynchronize(lane); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
    unsigned n = pinned[0];
    probe<<<n, 256, 0, lane>>>(d_out);
    return 1;
}

int Stage::ThisArrow()
{
    probe<<<64, 256, 0, lane>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, lane); // expect: SYNC301 expect-severity: warning expect-no-message: inherent:
    this->advance();
    cudaStreamSynchronize(lane); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
    unsigned n = pinned[0];
    probe<<<n, 256, 0, lane>>>(d_out);
    return 1;
}

int Stage::Global()
{
    probe<<<64, 256, 0, g_lane>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, g_lane); // expect: SYNC301 expect-severity: warning expect-no-message: inherent:
    turn_lanes();
    cudaStreamSynchronize(g_lane); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
    unsigned n = pinned[0];
    probe<<<n, 256, 0, g_lane>>>(d_out);
    return 1;
}

int Stage::Elsewhere()
{
    probe<<<64, 256, 0, g_lane>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, g_lane); // expect: SYNC301 expect-severity: warning expect-no-message: inherent:
    turn_elsewhere();
    cudaStreamSynchronize(g_lane); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
    unsigned n = pinned[0];
    probe<<<n, 256, 0, g_lane>>>(d_out);
    return 1;
}

int Stage::Lambda()
{
    cudaStream_t mine = lane;
    auto next = [&] { mine = spare; };
    probe<<<64, 256, 0, mine>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, mine); // expect: SYNC301 expect-severity: warning expect-no-message: inherent:
    next();
    cudaStreamSynchronize(mine); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
    unsigned n = pinned[0];
    probe<<<n, 256, 0, mine>>>(d_out);
    return 1;
}

int Stage::KeptMethod()
{
    probe<<<64, 256, 0, lane>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, lane); // expect: SYNC301 expect-severity: note expect-message: inherent: the next device work
    tick();
    cudaStreamSynchronize(lane); // expect: SYNC401 expect-severity: note expect-message: inherent: it waits for the value read back at line 114
    unsigned n = pinned[0];
    probe<<<n, 256, 0, lane>>>(d_out);
    return 1;
}

int Stage::KeptGlobal()
{
    probe<<<64, 256, 0, g_lane>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, g_lane); // expect: SYNC301 expect-severity: note expect-message: inherent: the next device work
    count_tick();
    cudaStreamSynchronize(g_lane); // expect: SYNC401 expect-severity: note expect-message: inherent: it waits for the value read back at line 125
    unsigned n = pinned[0];
    probe<<<n, 256, 0, g_lane>>>(d_out);
    return 1;
}

int Stage::KeptLambda()
{
    cudaStream_t mine = lane;
    int seen = 0;
    auto note = [&] { seen++; };
    probe<<<64, 256, 0, mine>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, mine); // expect: SYNC301 expect-severity: note expect-message: inherent: the next device work
    note();
    cudaStreamSynchronize(mine); // expect: SYNC401 expect-severity: note expect-message: inherent: it waits for the value read back at line 139
    unsigned n = pinned[0];
    probe<<<n + seen, 256, 0, mine>>>(d_out);
    return 1;
}

int Stage::KeptMember()
{
    probe<<<64, 256, 0, lane>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, lane); // expect: SYNC301 expect-severity: note expect-message: inherent: the next device work
    ++ticks;
    history.push_back(ticks);
    cudaStreamSynchronize(lane); // expect: SYNC401 expect-severity: note expect-message: inherent: it waits for the value read back at line 150
    unsigned n = pinned[0];
    probe<<<n, 256, 0, lane>>>(d_out);
    return 1;
}

int main()
{
    static Stage st;
    for (int k = 0; k < 100; k++) {
        st.Implicit();
        st.ThisArrow();
        st.Global();
        st.Elsewhere();
        st.Lambda();
        st.KeptMethod();
        st.KeptGlobal();
        st.KeptLambda();
        st.KeptMember();
    }
    return 0;
}
