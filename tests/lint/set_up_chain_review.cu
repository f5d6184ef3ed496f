// set_up_chain_review.cu: the ways a review found into a loop that set_up_chain.cu's rule must
// not take for set-up: each helper's wait runs on every frame, a warning.
#include <cuda_runtime.h>
#include <setjmp.h>

__global__ void step(float *x) { x[threadIdx.x] += 1.0f; }

// A 'main' in a namespace is no program's main: '::main' calls it on every frame.
static void upload_ns(float *t, int n)
{
    for (int i = 0; i < n; i++) {
        step<<<1, 64>>>(t + 64 * i); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}

static void init_ns(float *t, int n) { upload_ns(t, n); }

// A method of a class declared inside 'main' makes the call, and 'main' calls it per frame.
static void upload_local(float *t, int n)
{
    for (int i = 0; i < n; i++) {
        step<<<1, 64>>>(t + 64 * i); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}

static void init_local(float *t, int n) { upload_local(t, n); }

// A default member initializer makes the call, in every object built per frame.
static void upload_member(float *t, int n)
{
    for (int i = 0; i < n; i++) {
        step<<<1, 64>>>(t + 64 * i); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}

static void init_member(float *t, int n) { upload_member(t, n); }

// A default argument of a function declared here makes the call, at every call of it.
static void upload_arg(float *t, int n)
{
    for (int i = 0; i < n; i++) {
        step<<<1, 64>>>(t + 64 * i); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}

static void init_arg(float *t, int n) { upload_arg(t, n); }

// A template argument at file scope takes its address; the frame loop calls it through it.
static void upload_alias(float *t, int n)
{
    for (int i = 0; i < n; i++) {
        step<<<1, 64>>>(t + 64 * i); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}

static void init_alias(float *t, int n) { upload_alias(t, n); }

// A range-for calls 'begin()' on every frame without naming it.
static void upload_range(float *t, int n)
{
    for (int i = 0; i < n; i++) {
        step<<<1, 64>>>(t + 64 * i); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}

static void init_range(float *t, int n) { upload_range(t, n); }

// A loop written with setjmp and longjmp runs the set-up function on every frame.
static void upload_jump(float *t, int n)
{
    for (int i = 0; i < n; i++) {
        step<<<1, 64>>>(t + 64 * i); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}

static void init_jump(float *t, int n) { upload_jump(t, n); }

// 'initiateStreaming' starts work: 'initiate' is no set-up word.
static void upload_stream(float *t, int n)
{
    for (int i = 0; i < n; i++) {
        step<<<1, 64>>>(t + 64 * i); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}

// A template names the set-up function; 'main' also keeps its address and calls it per frame.
static void upload_dependent(float *t, int n)
{
    for (int i = 0; i < n; i++) {
        step<<<1, 64>>>(t + 64 * i); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}

static void init_dependent(float *t, int n) { upload_dependent(t, n); }

static float *buffer;

namespace app {
int main(float *t)
{
    init_ns(t, 4);
    return 0;
}
} // namespace app

struct Frame {
    int ready = (init_member(buffer, 4), 1);
};

static int init_step()
{
    init_arg(buffer, 4);
    return 0;
}
void render(int token = init_step());

template <void (*F)(float *, int)> struct Hook {
    static void run(float *t) { F(t, 4); }
};
using FrameHook = Hook<init_alias>;

struct Frames {
    int n;
    int *begin()
    {
        init_range(buffer, 4);
        return &n;
    }
    int *end() { return &n + 1; }
};

static jmp_buf again;
static void replay(float *t, int frames)
{
    int frame = setjmp(again);
    init_jump(t, 4);
    if (frame < frames)
        longjmp(again, frame + 1);
}

static bool more_chunks(int c) { return c < 1000; }
static void initiateStreaming(float *t)
{
    for (int chunk = 0; more_chunks(chunk); chunk++)
        upload_stream(t, 4);
}

template <class T> void warm(T *t) { init_dependent(t, 4); }

int main(int argc, char **argv)
{
    cudaMalloc(&buffer, 1 << 20);
    struct Local {
        static void run(float *t) { init_local(t, 4); }
    };
    init_member(buffer, 4);
    init_step();
    init_alias(buffer, 4);
    Frames frames{1};
    frames.begin();
    warm(buffer);
    void (*per_frame)(float *, int) = init_dependent;
    for (int f = 0; f < argc; f++) {
        app::main(buffer);
        Local::run(buffer);
        Frame frame;
        (void)frame;
        render();
        FrameHook::run(buffer);
        for (int x : frames)
            (void)x;
        per_frame(buffer, 4);
    }
    replay(buffer, argc);
    initiateStreaming(buffer);
    return 0;
}
