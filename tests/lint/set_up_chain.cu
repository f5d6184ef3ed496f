// set_up_chain.cu: a loop in a function that runs only during set-up: every way into it passes
// through a function whose name says it sets up and that the code runs a bounded number of
// times (called only outside loops, up to 'main'), every function on those ways called only
// where this unit sees it. Its loop's findings are notes ("set-up: ..."). Where one of those
// conditions fails (a set-up function called per frame, a helper a frame loop also calls, an
// address taken, a lambda kept for later, a loop written with goto, a function another unit may
// call, a plain function called once that holds the frame loop), they stay warnings.
#include <cuda_runtime.h>

__global__ void step(float *x) { x[threadIdx.x] += 1.0f; }

// A class of this file, as an application keeps its state: the mip levels are copied once,
// while the GPU is set up; the frames then run on the class's blocking stream.
class Viewer {
    cudaStream_t stream;
    cudaArray_t levels[8], copies[8];
    int level_count = 8;
    float *frame = nullptr;

    void import_levels()
    {
        for (int i = 0; i < level_count; i++)
            cudaMemcpy2DArrayToArray(copies[i], 0, 0, levels[i], 0, 0, 64, 64, cudaMemcpyDeviceToDevice); // expect: SYNC102 expect-severity: note expect-message: set-up: the loop at line 22 runs during set-up: every call of 'Viewer::import_levels' is made during set-up, in 'Viewer::initGpu', which sets up (its name says so) and is called only outside loops, from 'Viewer::run', from 'main'
    }

    void initGpu()
    {
        cudaStreamCreate(&stream); // expect: SYNC103 expect-severity: note
        import_levels();
    }

    void draw()
    {
        step<<<1, 64, 0, stream>>>(frame);
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: warning
    }

  public:
    void run(int frames)
    {
        initGpu();
        for (int f = 0; f < frames; f++)
            draw();
    }
};

// Static functions: the helper's loop waits on each table, during set-up.
static void upload_tables(float *t, int n)
{
    for (int i = 0; i < n; i++) {
        step<<<1, 64>>>(t + 64 * i); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: set-up: the loop at line 50 runs during set-up: every call of 'upload_tables' is made during set-up, in 'init_tables', which sets up (its name says so) and is called only outside loops, from 'main'
    }
}

static void init_tables(float *t, int n) { upload_tables(t, n); }

// The same helper shape, but the set-up function also runs on every frame.
static void upload_frame(float *t, int n)
{
    for (int i = 0; i < n; i++) {
        step<<<1, 64>>>(t + 64 * i); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}

static void init_frame(float *t, int n) { upload_frame(t, n); }

// Called from set-up and from the frame loop.
static void refresh(float *t, int n)
{
    for (int i = 0; i < n; i++) {
        step<<<1, 64>>>(t + 64 * i); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}

static void init_refresh(float *t, int n) { refresh(t, n); }

// The set-up function's address is taken: it may run anywhere.
static void fill(float *t, int n)
{
    for (int i = 0; i < n; i++) {
        step<<<1, 64>>>(t + 64 * i); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}

static void init_fill(float *t, int n) { fill(t, n); }
static void (*fill_hook)(float *, int) = init_fill;

// The helper is called in a lambda the set-up function keeps for later.
static void later(float *t, int n)
{
    for (int i = 0; i < n; i++) {
        step<<<1, 64>>>(t + 64 * i); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}

static void (*kept)(float *, int);
static void init_later() { kept = [](float *t, int n) { later(t, n); }; }

// The set-up function runs in a loop written with goto.
static void relabel(float *t, int n)
{
    for (int i = 0; i < n; i++) {
        step<<<1, 64>>>(t + 64 * i); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}

static void init_relabel(float *t, int n) { relabel(t, n); }

static void settle(float *t, int tries)
{
    int again = 0;
retry:
    init_relabel(t, 4);
    if (++again < tries)
        goto retry;
}

// A set-up function another unit may call (external linkage, not inline).
static void share(float *t, int n)
{
    for (int i = 0; i < n; i++) {
        step<<<1, 64>>>(t + 64 * i); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}

void init_shared(float *t, int n) { share(t, n); }

// Called once from 'main', but no set-up: it holds the frame loop.
static void process(float *t, int frames)
{
    for (int f = 0; f < frames; f++) {
        step<<<1, 64>>>(t); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}

int main(int argc, char **argv)
{
    float *t;
    cudaMalloc(&t, 1 << 20);
    Viewer viewer;
    viewer.run(argc);
    init_tables(t, 4);
    init_refresh(t, 4);
    init_later();
    init_shared(t, 4);
    for (int f = 0; f < argc; f++) {
        init_frame(t, 4);
        refresh(t, 4);
    }
    fill_hook(t, 4);
    settle(t, argc);
    process(t, argc);
    kept(t, 4);
    return 0;
}
