// drained_checker.cu: every CUDA call handed to a checking function of this unit, which, when
// the code it is given says the call failed, resets the device and hands the error to another
// unit's function. That function may do anything, but only on the error path: where the calls
// succeed the check does nothing, so a readback after another readback finds the device drained
// (a note), and a wait for the whole device right before a readback is "drained anyway" (a note,
// the readback the stall: shape Y). The same through a macro, an inline check of a local error
// code, and a check whose failure branch is the 'else' of a test for success and ends the program.
// Where the checker also calls another unit's function on success, is only declared here, launches
// work, or has a failure branch that neither reports the error nor ends the program: warnings.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

void fail_run(int code, const char *what); // another unit's error report
void note_progress(int step);             // another unit's function, of any effect
void verify_elsewhere(cudaError_t e);     // a checker this unit only declares
void count_failure(cudaError_t e);        // another unit's tally of errors

__global__ void tally(unsigned *n, float *v) { v[threadIdx.x] = 2.f; atomicAdd(n, 1u); }
__global__ void scale(const float *in, float *out) { out[threadIdx.x] = 3.f * in[threadIdx.x]; }
__global__ void touch(float *v) { v[0] = 0.f; }

static void verify(cudaError_t e)
{
    if (e != cudaSuccess) {
        cudaDeviceReset(); // expect: SYNC402 expect-severity: note
        fail_run((int)e, cudaGetErrorString(e));
    }
}

// A wait for the device, then two readbacks, each call checked: the readbacks find nothing
// queued.
void checked_readbacks(unsigned *d_n, float *d_v, int reps)
{
    unsigned total = 0;
    float host[64];
    for (int r = 0; r < reps; r++) {
        verify(cudaMemset(d_n, 0, sizeof(unsigned)));
        tally<<<1, 64>>>(d_n, d_v); // expect: SYNC101 expect-severity: note
        verify(cudaDeviceSynchronize()); // expect: SYNC401 expect-severity: note expect-message: drained anyway: the next device call, 'cudaMemcpy' at line 42
        unsigned n = 0;
        verify(cudaMemcpy(&n, d_n, sizeof n, cudaMemcpyDeviceToHost)); // expect: SYNC301 expect-severity: warning
        printf("rep %d\n", r);
        verify(cudaMemcpy(host, d_v, sizeof host, cudaMemcpyDeviceToHost)); // expect: SYNC202 expect-severity: note expect-message: drained: the device has nothing queued here: 'cudaMemcpy' at drained_checker.cu:42 drained it
        total += n + (unsigned)host[0];
    }
    printf("%u\n", total);
}

// The inputs of each launch uploaded after the previous one's results were read back: only
// the memset is queued between.
void checked_upload(float *d_in, float *d_out, int reps)
{
    float in[64], out[64], sum = 0.f;
    for (int r = 0; r < reps; r++) {
        verify(cudaMemset(d_out, 0, sizeof out));
        for (int i = 0; i < 64; i++)
            in[i] = (float)(r + i);
        verify(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice)); // expect: SYNC202 expect-severity: note expect-message: drained: the device has nothing queued here: 'cudaMemcpy' at drained_checker.cu:61 drained it
        scale<<<1, 64>>>(d_in, d_out); // expect: SYNC101 expect-severity: note
        verify(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost)); // expect: SYNC202 expect-severity: note expect-message: inherent
        for (int i = 0; i < 64; i++)
            sum += out[i];
    }
    printf("%f\n", sum);
}

// A macro that hands the call, the file and the line to a checker of this unit.
static void assess(cudaError_t code, const char *file, int line)
{
    if (code != cudaSuccess) {
        fprintf(stderr, "%s:%d: %s\n", file, line, cudaGetErrorString(code));
        fail_run((int)code, file);
    }
}
#define GPU_ASSERT(call) assess((call), __FILE__, __LINE__)

void macro_readbacks(unsigned *d_n, float *d_v, int reps)
{
    unsigned total = 0;
    float host[64];
    for (int r = 0; r < reps; r++) {
        tally<<<1, 64>>>(d_n, d_v); // expect: SYNC101 expect-severity: note
        GPU_ASSERT(cudaDeviceSynchronize()); // expect: SYNC401 expect-severity: note expect-message: drained anyway: the next device call, 'cudaMemcpy' at line 86
        unsigned n = 0;
        GPU_ASSERT(cudaMemcpy(&n, d_n, sizeof n, cudaMemcpyDeviceToHost)); // expect: SYNC301 expect-severity: warning
        printf("rep %d\n", r);
        GPU_ASSERT(cudaMemcpy(host, d_v, sizeof host, cudaMemcpyDeviceToHost)); // expect: SYNC202 expect-severity: note expect-message: (where the CUDA calls succeed: the branch at drained_checker.cu:71 runs only when one failed, and is left out)
        total += n + (unsigned)host[0];
    }
    printf("%u\n", total);
}

// The check written inline, on a local error code.
#define INLINE_CHECK(call)                                                                       \
    do {                                                                                         \
        cudaError_t status_ = (call);                                                            \
        if (status_ != cudaSuccess)                                                              \
            fail_run((int)status_, cudaGetErrorString(status_));                                 \
    } while (0)

void inline_readbacks(unsigned *d_n, float *d_v, int reps)
{
    unsigned total = 0;
    float host[64];
    for (int r = 0; r < reps; r++) {
        tally<<<1, 64>>>(d_n, d_v); // expect: SYNC101 expect-severity: note
        INLINE_CHECK(cudaDeviceSynchronize()); // expect: SYNC401 expect-severity: note expect-message: drained anyway: the next device call, 'cudaMemcpy' at line 110
        unsigned n = 0;
        INLINE_CHECK(cudaMemcpy(&n, d_n, sizeof n, cudaMemcpyDeviceToHost)); // expect: SYNC301 expect-severity: warning
        printf("rep %d\n", r);
        INLINE_CHECK(cudaMemcpy(host, d_v, sizeof host, cudaMemcpyDeviceToHost)); // expect: SYNC202 expect-severity: note expect-message: 'cudaMemcpy' at drained_checker.cu:110 drained it
        total += n + (unsigned)host[0];
    }
    printf("%u\n", total);
}

// The success test written the other way round, its 'else' branch ending the program after a
// call of another unit.
static void require(cudaError_t e)
{
    if (e == cudaSuccess) {
    } else {
        note_progress((int)e);
        abort();
    }
}

void required_readbacks(unsigned *d_n, float *d_v, int reps)
{
    unsigned total = 0;
    float host[64];
    for (int r = 0; r < reps; r++) {
        tally<<<1, 64>>>(d_n, d_v); // expect: SYNC101 expect-severity: note
        require(cudaDeviceSynchronize()); // expect: SYNC401 expect-severity: note expect-message: drained anyway: the next device call, 'cudaMemcpy' at line 137
        unsigned n = 0;
        require(cudaMemcpy(&n, d_n, sizeof n, cudaMemcpyDeviceToHost)); // expect: SYNC301 expect-severity: warning
        printf("rep %d\n", r);
        require(cudaMemcpy(host, d_v, sizeof host, cudaMemcpyDeviceToHost)); // expect: SYNC202 expect-severity: note expect-message: drained: the device has nothing queued here
        total += n + (unsigned)host[0];
    }
    printf("%u\n", total);
}

// The checker calls another unit's function when the call succeeded too: it may queue work.
static void verify_and_log(cudaError_t e)
{
    if (e != cudaSuccess)
        fail_run((int)e, cudaGetErrorString(e));
    note_progress(0);
}

// A checker that queues work of its own.
static float *scratch;
static void verify_and_touch(cudaError_t e)
{
    if (e != cudaSuccess)
        fail_run((int)e, cudaGetErrorString(e));
    touch<<<1, 1>>>(scratch); // expect: SYNC101 expect-severity: note
}

// A failure branch that neither reports the error nor ends the program: not taken for an
// error path.
static void verify_quietly(cudaError_t e)
{
    if (e != cudaSuccess)
        count_failure(e);
}

void logged_readbacks(unsigned *d_n, float *d_v, int reps)
{
    unsigned total = 0;
    float host[64];
    for (int r = 0; r < reps; r++) {
        tally<<<1, 64>>>(d_n, d_v); // expect: SYNC101 expect-severity: note
        verify_and_log(cudaDeviceSynchronize()); // expect: SYNC401 expect-severity: warning
        unsigned n = 0;
        verify_and_log(cudaMemcpy(&n, d_n, sizeof n, cudaMemcpyDeviceToHost)); // expect: SYNC301 expect-severity: warning
        printf("rep %d\n", r);
        verify_and_log(cudaMemcpy(host, d_v, sizeof host, cudaMemcpyDeviceToHost)); // expect: SYNC202 expect-severity: warning
        total += n + (unsigned)host[0];
    }
    printf("%u\n", total);
}

void elsewhere_readbacks(unsigned *d_n, float *d_v, int reps)
{
    unsigned total = 0;
    float host[64];
    for (int r = 0; r < reps; r++) {
        tally<<<1, 64>>>(d_n, d_v); // expect: SYNC101 expect-severity: note
        verify_elsewhere(cudaDeviceSynchronize()); // expect: SYNC401 expect-severity: warning
        unsigned n = 0;
        verify_elsewhere(cudaMemcpy(&n, d_n, sizeof n, cudaMemcpyDeviceToHost)); // expect: SYNC301 expect-severity: warning
        printf("rep %d\n", r);
        verify_elsewhere(cudaMemcpy(host, d_v, sizeof host, cudaMemcpyDeviceToHost)); // expect: SYNC202 expect-severity: warning
        total += n + (unsigned)host[0];
    }
    printf("%u\n", total);
}

void touched_readbacks(unsigned *d_n, float *d_v, int reps)
{
    unsigned total = 0;
    float host[64];
    for (int r = 0; r < reps; r++) {
        tally<<<1, 64>>>(d_n, d_v); // expect: SYNC101 expect-severity: note
        verify_and_touch(cudaDeviceSynchronize()); // expect: SYNC401 expect-severity: warning
        unsigned n = 0;
        verify_and_touch(cudaMemcpy(&n, d_n, sizeof n, cudaMemcpyDeviceToHost)); // expect: SYNC301 expect-severity: warning
        printf("rep %d\n", r);
        verify_and_touch(cudaMemcpy(host, d_v, sizeof host, cudaMemcpyDeviceToHost)); // expect: SYNC202 expect-severity: warning
        total += n + (unsigned)host[0];
    }
    printf("%u\n", total);
}

void quiet_readbacks(unsigned *d_n, float *d_v, int reps)
{
    unsigned total = 0;
    float host[64];
    for (int r = 0; r < reps; r++) {
        tally<<<1, 64>>>(d_n, d_v); // expect: SYNC101 expect-severity: note
        verify_quietly(cudaDeviceSynchronize()); // expect: SYNC401 expect-severity: warning
        unsigned n = 0;
        verify_quietly(cudaMemcpy(&n, d_n, sizeof n, cudaMemcpyDeviceToHost)); // expect: SYNC301 expect-severity: warning
        printf("rep %d\n", r);
        verify_quietly(cudaMemcpy(host, d_v, sizeof host, cudaMemcpyDeviceToHost)); // expect: SYNC202 expect-severity: warning
        total += n + (unsigned)host[0];
    }
    printf("%u\n", total);
}
