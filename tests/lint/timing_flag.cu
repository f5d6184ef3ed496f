// timing_flag.cu: a wait that times the GPU's work under a run-time flag (a profiler's switch)
// is a note: the statement after it reads a host clock, and it runs only when a bool flag is
// set that nothing in the loop changes. Still warnings: the same wait with no flag (a per-step
// timing sync costs the overlap on every run), a flag the loop sets, a flag with no clock read
// after the wait (a switch lint cannot tell from program logic), a branch that also launches,
// a helper's own parameter as the flag, a const flag, a flag written through an alias made
// before the loop, and a loop that calls a function lint cannot see into (more: timing_flag_review.cu). Each loop also runs device work outside what it times (the halo's exchange),
// so it is no benchmark ("the loop times its iterations" does not apply).
#include <chrono>
#include <cuda_runtime.h>
#include <sys/time.h>

__global__ void sweep(float *u, int n) { u[threadIdx.x] += 1.0f; }

double stamp_wtime();  // the program's clock, defined in another unit (its name says so)

static double wall_seconds()
{
    timeval tv;
    gettimeofday(&tv, nullptr);
    return tv.tv_sec + tv.tv_usec * 1e-6;
}

struct Phases {
    double sweep, halo;
};

struct Grid {
    float *d_u;
    cudaStream_t s;
    int n;
    bool profiling;
    Phases spent;
    float residual;
};

bool g_trace_timing;
bool g_phase_timing;

float exchange_halo(Grid &g)
{
    sweep<<<1, 32, 0, g.s>>>(g.d_u, g.n);
    return 0.0f;
}
void shared_step(Grid &g);  // another unit's: lint cannot see what it changes

void flagged(Grid &g, int steps)
{
    for (int k = 0; k < steps; k++) {
        auto t0 = std::chrono::steady_clock::now();
        sweep<<<1, 32, 0, g.s>>>(g.d_u, g.n);
        if (g.profiling) {
            cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: for timing under a flag: the wait is followed by a host clock read ('now' at line 54) and runs only when 'g.profiling' is set (line 52), which nothing in the loop at line 49, nor the functions it calls, changes: a measurement under a switch, not a stall of every run
            g.spent.sweep += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        }
        g.residual = exchange_halo(g);
    }
}

void unconditional(Grid &g, int steps)
{
    for (int k = 0; k < steps; k++) {
        double t0 = wall_seconds();
        sweep<<<1, 32, 0, g.s>>>(g.d_u, g.n);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning expect-no-message: for timing under a flag
        g.spent.sweep += wall_seconds() - t0;
        g.residual = exchange_halo(g);
    }
}

void loop_sets_flag(Grid &g, int steps, int every)
{
    for (int k = 0; k < steps; k++) {
        g.profiling = every > 0;
        double t0 = wall_seconds();
        sweep<<<1, 32, 0, g.s>>>(g.d_u, g.n);
        if (g.profiling) {
            cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
            g.spent.sweep += wall_seconds() - t0;
        }
        g.residual = exchange_halo(g);
    }
}

void no_clock(Grid &g, int steps)
{
    for (int k = 0; k < steps; k++) {
        sweep<<<1, 32, 0, g.s>>>(g.d_u, g.n);
        if (g.profiling) {
            cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
            g.spent.sweep += 1.0;
        }
        g.residual = exchange_halo(g);
    }
}

void branch_launches(Grid &g, int steps)
{
    for (int k = 0; k < steps; k++) {
        double t0 = wall_seconds();
        sweep<<<1, 32, 0, g.s>>>(g.d_u, g.n);
        if (g.profiling) {
            cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
            g.spent.sweep += wall_seconds() - t0;
            sweep<<<1, 32, 0, g.s>>>(g.d_u, g.n);
        }
        g.residual = exchange_halo(g);
    }
}

// The helper form: the loop's function calls a phase whose wait times it, with the program's
// clock that another unit defines (an elapsed time), under the grid's flag; the flag may not be
// the phase's own parameter, which the loop gives anew on every call.
static void timed_sweep(Grid &g)
{
    double t0 = 0;
    if (g.profiling)
        t0 = stamp_wtime();
    sweep<<<1, 32, 0, g.s>>>(g.d_u, g.n);
    if (g.profiling) {
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: for timing under a flag: the wait is followed by a host clock read ('stamp_wtime()' at line 122, an elapsed time: minus 't0', which line 118 sets from 'stamp_wtime()') and runs only when 'g.profiling' is set (line 120), which nothing in the loop at timing_flag.cu:138, nor the functions of this unit it calls, changes
        g.spent.sweep += stamp_wtime() - t0;
    }
}

static void param_flag_sweep(Grid &g, bool timing)
{
    double t0 = wall_seconds();
    sweep<<<1, 32, 0, g.s>>>(g.d_u, g.n);
    if (timing) {
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        g.spent.sweep += wall_seconds() - t0;
    }
}

void run_phases(Grid &g, int steps)
{
    for (int k = 0; k < steps; k++) {
        timed_sweep(g);
        param_flag_sweep(g, true);
        g.residual = exchange_halo(g);
    }
}

// A global flag, and the unit's own clock function (it reads gettimeofday).
static void traced_sweep(Grid &g)
{
    double t0 = wall_seconds();
    sweep<<<1, 32, 0, g.s>>>(g.d_u, g.n);
    if (g_trace_timing) {
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: for timing under a flag: the wait is followed by a host clock read ('wall_seconds()' at line 152, which reads 'gettimeofday') and runs only when 'g_trace_timing' is set (line 150), which nothing in the loop at timing_flag.cu:158, nor the functions of this unit it calls, changes
        g.spent.halo += wall_seconds() - t0;
    }
}

void run_traced(Grid &g, int steps)
{
    for (int k = 0; k < steps; k++) {
        traced_sweep(g);
        g.residual = exchange_halo(g);
    }
}

// A loop that calls a function lint cannot see into: it may set the flag.
static void unseen_sweep(Grid &g)
{
    double t0 = wall_seconds();
    sweep<<<1, 32, 0, g.s>>>(g.d_u, g.n);
    if (g.profiling) {
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        g.spent.halo += wall_seconds() - t0;
    }
}

void run_unseen(Grid &g, int steps)
{
    for (int k = 0; k < steps; k++) {
        unseen_sweep(g);
        shared_step(g);
        g.residual = exchange_halo(g);
    }
}

// An alias of the flag made before the loop, written in it.
void aliased_flag(Grid &g, int steps)
{
    bool *timing = &g_phase_timing;
    for (int k = 0; k < steps; k++) {
        *timing = k > 2;
        double t0 = wall_seconds();
        sweep<<<1, 32, 0, g.s>>>(g.d_u, g.n);
        if (g_phase_timing) {
            cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
            g.spent.sweep += wall_seconds() - t0;
        }
        g.residual = exchange_halo(g);
    }
}

// A const flag is a build's setting, on or off for every run.
void const_flag(Grid &g, int steps)
{
    const bool kProfile = true;
    for (int k = 0; k < steps; k++) {
        double t0 = wall_seconds();
        sweep<<<1, 32, 0, g.s>>>(g.d_u, g.n);
        if (kProfile) {
            cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
            g.spent.sweep += wall_seconds() - t0;
        }
        g.residual = exchange_halo(g);
    }
}
