// context_severity.cu: a finding's severity from where its call runs: a warning on every
// iteration of a loop that enqueues device work (also through the unit's call graph); a note
// where the call runs once (outside any loop of main, a constructor, a set-up or validation
// function, or a function only such functions call, outside loops), or where the host needs
// the value at once (a branch, a return, an allocation's size); otherwise the rule's own.
#include <cuda_runtime.h>
#include <stdlib.h>
#include <time.h>

__global__ void step(int *x) { x[threadIdx.x] += 1; }

// Per iteration: a readback in a loop that launches, and one reached from such a loop.
int count_in_loop(int *d, int n, cudaStream_t s)
{
    int total = 0, h = 0;
    for (int i = 0; i < n; i++) {
        step<<<1, 32, 0, s>>>(d);
        cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        total += h;
    }
    return total;
}

static int peek(const int *d)
{
    int h = 0;
    cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning expect-message: it runs on every iteration: 'peek()' is called from the loop at context_severity.cu:34
    h *= 2;
    return 0;
}

void poll(int *d, int n, cudaStream_t s)
{
    for (int i = 0; i < n; i++) {
        cudaMemsetAsync(d, 0, sizeof(int), s);
        peek(d);
    }
}

// A loop that times its iterations (a benchmark): the wait is part of the measurement.
double timed(int *d, int n, cudaStream_t s)
{
    double total = 0.0;
    struct timespec t0, t1;
    for (int i = 0; i < n; i++) {
        clock_gettime(CLOCK_MONOTONIC, &t0);
        step<<<1, 32, 0, s>>>(d);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: ; the loop times its iterations ('clock_gettime' at line 46): the wait is part of a measurement
        clock_gettime(CLOCK_MONOTONIC, &t1);
        total += (double)(t1.tv_nsec - t0.tv_nsec);
    }
    return total;
}

// A loop timed from outside: the statements right after it read the clock.
long timed_from_outside(int *d, int *h, int n, cudaStream_t s)
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int i = 0; i < n; i++) {
        step<<<1, 32, 0, s>>>(d);
        cudaMemcpy(h, d, 128, cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: note expect-message: ; the loop is timed ('clock_gettime' at line 65): the wait is part of a measurement
    }
    cudaStreamSynchronize(s);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return t1.tv_nsec - t0.tv_nsec;
}

// Inherent: the value sizes an allocation, decides a branch, or is returned at once.
int *sized_by_device(const int *d_count)
{
    int count = 0;
    cudaMemcpy(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent: the next statement needs the value (line 75 sizes an allocation with it)
    cudaDeviceSynchronize();
    int *h = (int *)malloc(count * sizeof(int));
    return h;
}

int branch_on_flag(const int *d_flag, cudaStream_t s)
{
    int flag = 0;
    cudaMemcpyAsync(&flag, d_flag, sizeof(int), cudaMemcpyDeviceToHost, s); // expect: SYNC201, SYNC301 expect-severity: note expect-message: (line 84 branches on it)
    cudaStreamSynchronize(s);
    if (flag)
        return 1;
    return 0;
}

// Once: main runs once, a constructor runs once, a set-up function by its name, and a function
// that only main calls, outside loops.
struct Holder {
    int *d;
    Holder(cudaStream_t s)
    {
        cudaMalloc(&d, sizeof(int));
        cudaMemsetAsync(d, 0, sizeof(int), s);
        int h = 0;
        cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: it runs once: outside any loop, and 'Holder::Holder' is a constructor
        (void)h;
    }
};

void InitOnDevice(int *d)
{
    int h = 0;
    cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: 'InitOnDevice' sets up, checks or tears down
    (void)h;
}

static void report_total(const int *d)
{
    int h = 0;
    cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: 'report_total' is called once, from 'main'
    (void)h;
}

// An error-checking macro branches on the call's error code, not on a value: not inherent.
#define CU_SAFE_CALL(call)                                                                       \
    {                                                                                            \
        int ret_;                                                                                \
        if ((ret_ = (call)) != 0)                                                                \
            abort();                                                                             \
    }

void set_value(float *d, float v, int n, cudaStream_t s)
{
    float row[64] = {v};
    CU_SAFE_CALL(cudaMemcpyAsync(d, row, n * sizeof(float), cudaMemcpyHostToDevice, s)); // expect: SYNC201 expect-severity: note expect-message: how often it runs is not shown
}

// A pageable copy that the next statement waits for anyway: the staging costs nothing more.
void set_and_wait(float *d, float v, cudaStream_t s)
{
    CU_SAFE_CALL(cudaMemcpyAsync(d, &v, sizeof(float), cudaMemcpyHostToDevice, s)); // expect: SYNC201 expect-severity: note expect-message: ; inherent: the next statement (line 135) waits for the copy anyway
    CU_SAFE_CALL(cudaStreamSynchronize(s));
}

// Neither: a library function nobody in the unit calls keeps the rule's severity.
void library_entry(const int *d)
{
    int h = 0;
    cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: how often it runs is not shown
    (void)h;
}

int main()
{
    int *d = nullptr;
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    cudaMalloc(&d, 32 * sizeof(int));
    step<<<1, 32, 0, s>>>(d);
    int h = 0;
    cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: it runs once: outside any loop, and 'main' runs once
    h += 1;
    Holder holder(s);
    InitOnDevice(d);
    report_total(d);
    poll(d, 4, s);
    for (int i = 0; i < 3; i++)
        cudaStreamSynchronize(s);
    return count_in_loop(d, h, s) + branch_on_flag(d, s) + (sized_by_device(d) != nullptr);
}

// Since session 32 a warning whose call is in no loop that lint sees ends as the note "how often
// it runs is not shown" (docs/lint.md, "Warning or note", item 5): such a case that stays a
// warning above is that note here, asserted by its words (no other reason for a note applies).
