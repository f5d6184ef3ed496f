// timing_flag_review.cu: waits under a flag that timing_flag.c must not take for a profiler's
// switch, so each stays a warning: a flag declared as a reference (a local bound to a field the
// loop writes, a parameter the caller binds), an elapsed time of a function that is no clock
// (another unit's diagnostic, or one whose name does not say it is a clock), a flag visibly
// always on (a local set true, a static global set true, a local object whose field defaults to
// true), a flag the loop's own header reads, and a flag in managed memory. A local flag set from
// the command line stays a note. Each loop also runs device work outside its branch.
#include <cuda_runtime.h>
#include <sys/time.h>

__global__ void relax(float *u) { u[threadIdx.x] *= 0.5f; }
cudaStream_t g_stream;
__global__ void exchange(float *u) { u[threadIdx.x] += 1.0f; }

static double host_seconds()
{
    timeval tv;
    gettimeofday(&tv, nullptr);
    return tv.tv_sec + tv.tv_usec * 1e-6;
}

static float halo(float *u)
{
    exchange<<<1, 32, 0, g_stream>>>(u);
    return 0.0f;
}

double field_sum();  // another unit's: sums the field on the GPU
double tick_count(); // another unit's: lint cannot tell what it reads

struct Knobs {
    bool profile, verbose;
    double spent;
};
struct Defaults {
    bool profile = true;
};

float g_norm;
static bool s_profile = true;
bool g_header_flag;
__managed__ bool m_profile;

void ref_local(Knobs &k, float *u, int n)
{
    bool &profile = k.profile;
    for (int i = 0; i < n; i++) {
        k.profile = i % 4 == 0;
        double t0 = host_seconds();
        relax<<<1, 32, 0, g_stream>>>(u);
        if (profile) {
            cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning expect-message: 'cudaDeviceSynchronize' in 'ref_local' blocks the host on every iteration of a for loop (line 47) that also enqueues device work (kernel 'relax' is launched at line 50): the GPU drains
            k.spent += host_seconds() - t0;
        }
        g_norm = halo(u);
    }
}

static void ref_param(Knobs &k, bool &profile, float *u, int n)
{
    for (int i = 0; i < n; i++) {
        k.verbose = i > 2;
        double t0 = host_seconds();
        relax<<<1, 32, 0, g_stream>>>(u);
        if (profile) {
            cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning expect-message: 'cudaDeviceSynchronize' in 'ref_param' blocks the host on every iteration of a for loop (line 61) that also enqueues device work (kernel 'relax' is launched at line 64): the GPU drains
            k.spent += host_seconds() - t0;
        }
        g_norm = halo(u);
    }
}
void bind_ref(Knobs &k, float *u, int n) { ref_param(k, k.verbose, u, n); }

void drift_check(Knobs &k, float *u, int n)
{
    double s0 = field_sum();
    for (int i = 0; i < n; i++) {
        relax<<<1, 32, 0, g_stream>>>(u);
        if (k.profile) {
            cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning expect-message: 'cudaDeviceSynchronize' in 'drift_check' blocks the host on every iteration of a for loop (line 77) that also enqueues device work (kernel 'relax' is launched at line 78): the GPU drains
            k.spent = field_sum() - s0;
        }
        g_norm = halo(u);
    }
}

void unnamed_clock(Knobs &k, float *u, int n)
{
    for (int i = 0; i < n; i++) {
        double c0 = tick_count();
        relax<<<1, 32, 0, g_stream>>>(u);
        if (k.profile) {
            cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning expect-message: 'cudaDeviceSynchronize' in 'unnamed_clock' blocks the host on every iteration of a for loop (line 89) that also enqueues device work (kernel 'relax' is launched at line 91): the GPU drains
            k.spent += tick_count() - c0;
        }
        g_norm = halo(u);
    }
}

void local_on(float *u, int n, double *spent)
{
    bool profile = true;
    for (int i = 0; i < n; i++) {
        double t0 = host_seconds();
        relax<<<1, 32, 0, g_stream>>>(u);
        if (profile) {
            cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning expect-message: 'cudaDeviceSynchronize' in 'local_on' blocks the host on every iteration of a for loop (line 103) that also enqueues device work (kernel 'relax' is launched at line 105): the GPU drains
            *spent += host_seconds() - t0;
        }
        g_norm = halo(u);
    }
}

void static_on(float *u, int n, double *spent)
{
    for (int i = 0; i < n; i++) {
        double t0 = host_seconds();
        relax<<<1, 32, 0, g_stream>>>(u);
        if (s_profile) {
            cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning expect-message: 'cudaDeviceSynchronize' in 'static_on' blocks the host on every iteration of a for loop (line 116) that also enqueues device work (kernel 'relax' is launched at line 118): the GPU drains
            *spent += host_seconds() - t0;
        }
        g_norm = halo(u);
    }
}

void default_on(float *u, int n, double *spent)
{
    Defaults d;
    for (int i = 0; i < n; i++) {
        double t0 = host_seconds();
        relax<<<1, 32, 0, g_stream>>>(u);
        if (d.profile) {
            cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning expect-message: 'cudaDeviceSynchronize' in 'default_on' blocks the host on every iteration of a for loop (line 130) that also enqueues device work (kernel 'relax' is launched at line 132): the GPU drains
            *spent += host_seconds() - t0;
        }
        g_norm = halo(u);
    }
}

void header_reads(float *u, int n, double *spent)
{
    for (int i = 0; g_header_flag && i < n; i++) {
        double t0 = host_seconds();
        relax<<<1, 32, 0, g_stream>>>(u);
        if (g_header_flag) {
            cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning expect-message: 'cudaDeviceSynchronize' in 'header_reads' blocks the host on every iteration of a for loop (line 143) that also enqueues device work (kernel 'relax' is launched at line 145): the GPU drains
            *spent += host_seconds() - t0;
        }
        g_norm = halo(u);
    }
}

void managed_on(float *u, int n, double *spent)
{
    for (int i = 0; i < n; i++) {
        double t0 = host_seconds();
        relax<<<1, 32, 0, g_stream>>>(u);
        if (m_profile) {
            cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning expect-message: 'cudaDeviceSynchronize' in 'managed_on' blocks the host on every iteration of a for loop (line 156) that also enqueues device work (kernel 'relax' is launched at line 158): the GPU drains
            *spent += host_seconds() - t0;
        }
        g_norm = halo(u);
    }
}

void from_command_line(int argc, float *u, int n, double *spent)
{
    bool profile = argc > 1;
    for (int i = 0; i < n; i++) {
        double t0 = host_seconds();
        relax<<<1, 32, 0, g_stream>>>(u);
        if (profile) {
            cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: for timing under a flag: the wait is followed by a host clock read ('host_seconds()' at line 175, which reads 'gettimeofday') and runs only when 'profile' is set (line 173), which nothing in the loop at line 170, nor the functions it calls, changes
            *spent += host_seconds() - t0;
        }
        g_norm = halo(u);
    }
}

