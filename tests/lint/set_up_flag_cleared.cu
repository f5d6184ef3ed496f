// set_up_flag_cleared.cu: a set-up behind an early return on a flag the function sets
// (set_up_flag.cu), where something in the unit clears the flag on every step: the whole object
// overwritten, memset, a store in a function template (matched by the member's name), a
// destructor of an object made per step, a reset whose name says teardown but which the loop
// calls, a swap with a fresh object, a pointer or smart pointer made to point to a new one. The set-up then runs every time: the findings stay warnings. (A teardown that no loop
// reaches does not count: set_up_flag.cu's pool.) The template's store is matched by the
// member's name: every flag of that name in the unit stays a warning.
#include <cuda_runtime.h>
#include <memory>
#include <string.h>
#include <utility>

__global__ void add_one(float *x, int n)
{
    int i = threadIdx.x;
    if (i < n)
        x[i] += 1.f;
}

struct Whole {
    bool init_whole = false;
};
struct Zeroed {
    bool init_zeroed;
};
struct Templated {
    bool init_templated = false;
};
struct Destructed {
    bool init_destructed = false;
};
struct Torn {
    bool init_torn = false;
};

static Whole whole;
static Zeroed zeroed;
static Templated templated;
static Destructed destructed;
static Torn torn;

void refresh_whole()
{
    if (whole.init_whole)
        return;
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    whole.init_whole = true;
}

void refresh_zeroed()
{
    if (zeroed.init_zeroed)
        return;
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    zeroed.init_zeroed = true;
}

void refresh_templated()
{
    if (templated.init_templated)
        return;
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    templated.init_templated = true;
}

void refresh_destructed()
{
    if (destructed.init_destructed)
        return;
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    destructed.init_destructed = true;
}

void refresh_torn()
{
    if (torn.init_torn)
        return;
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    torn.init_torn = true;
}

template <typename T> void invalidate(T &t)
{
    t.init_templated = false;
}

struct Frame {
    ~Frame() { destructed.init_destructed = false; }
};

void shutdown_torn()
{
    torn.init_torn = false;
}

void run_cleared(float *x, int n, int steps)
{
    for (int s = 0; s < steps; ++s) {
        Frame frame;
        refresh_whole();
        refresh_zeroed();
        refresh_templated();
        refresh_destructed();
        refresh_torn();
        add_one<<<1, 256>>>(x, n); // expect: SYNC101
        whole = Whole{};
        memset(&zeroed, 0, sizeof zeroed);
        invalidate(templated);
        shutdown_torn();
    }
}

// Replaced on every step: swapped with a fresh object, or made anew behind a pointer.
struct Swapped {
    bool init_swapped = false;
};
struct Pointed {
    bool init_pointed = false;
};
struct Owned {
    bool init_owned = false;
};

static Swapped swapped;
static Pointed *pointed = new Pointed;
static std::unique_ptr<Owned> owned = std::make_unique<Owned>();

void refresh_swapped()
{
    if (swapped.init_swapped)
        return;
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    swapped.init_swapped = true;
}

void refresh_pointed()
{
    if (pointed->init_pointed)
        return;
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    pointed->init_pointed = true;
}

void refresh_owned()
{
    if (owned->init_owned)
        return;
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    owned->init_owned = true;
}

void run_replaced(float *x, int n, int steps)
{
    for (int s = 0; s < steps; ++s) {
        refresh_swapped();
        refresh_pointed();
        refresh_owned();
        add_one<<<1, 256>>>(x, n); // expect: SYNC101
        Swapped fresh;
        std::swap(swapped, fresh);
        delete pointed;
        pointed = new Pointed;
        owned = std::make_unique<Owned>();
    }
}
