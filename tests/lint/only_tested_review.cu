// only_tested_review.cu: an 'if' that tests the value counts only when it decides what runs next
// (a branch leaves the loop, calls a function or queues device work): one that only counts, keeps
// the best round or prints keeps the warning; a print is the C or C++ library's ('printf' of a
// program's class or namespace is another use); the statement of a second readback calls nothing
// of the program.
#include <cuda_runtime.h>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <vector>

__global__ void l1norm(const float *x, float *diff) { *diff = x[threadIdx.x]; }
struct Logger {
    std::vector<float> kept;
    void printf(const char *fmt, float v) { kept.push_back(v); }
};

// 1: a method named printf that stores the value
float method_printf(const float *x, float *d, int max_iter, Logger &log)
{
    float r = 1.f;
    for (int it = 0; it < max_iter; it++) {
        l1norm<<<1, 64>>>(x, d); // expect: SYNC101
        cudaMemcpy(&r, d, sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning expect-no-message: inherent as written
        log.printf("%f", r);
        if (r < 1e-4f)
            break;
    }
    return 0.f;
}

namespace util {
void printf(const char *fmt, float v);
}
// 2: a free function named printf in a namespace of the program
void ns_printf(const float *x, float *d, int max_iter)
{
    float r = 1.f;
    for (int it = 0; it < max_iter; it++) {
        l1norm<<<1, 64>>>(x, d); // expect: SYNC101
        cudaMemcpy(&r, d, sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning expect-no-message: inherent as written
        util::printf("%f", r);
        if (r < 1e-4f)
            break;
    }
}


// 1: the if only counts (no print): base?
int count_only(const float *x, float *d, int rounds)
{
    int bad = 0;
    for (int it = 0; it < rounds; it++) {
        l1norm<<<1, 64>>>(x, d); // expect: SYNC101
        float r;
        cudaMemcpy(&r, d, sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning expect-no-message: inherent as written
        if (r > 1e3f)
            bad++;
    }
    return bad;
}

// 2: printed, and an if that only prints a warning
void warn_only(const float *x, float *d, int rounds)
{
    for (int it = 0; it < rounds; it++) {
        l1norm<<<1, 64>>>(x, d); // expect: SYNC101
        float r;
        cudaMemcpy(&r, d, sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning expect-no-message: inherent as written
        printf("%d %f\n", it, r);
        if (r > 1e3f)
            printf("diverging\n");
    }
}

// 3: a metric: tested only to count, read after the loop
float metric_after(const float *x, float *d, int rounds)
{
    float r = 0.f;
    int bad = 0;
    for (int it = 0; it < rounds; it++) {
        l1norm<<<1, 64>>>(x, d); // expect: SYNC101
        cudaMemcpy(&r, d, sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning expect-no-message: inherent as written
        if (r > 1e3f)
            bad++;
    }
    return r + bad;
}

// 4: best kept: a copy whose local only tests read, the test only records
int best_round(const float *x, float *d, int rounds)
{
    float best = 1e30f;
    int best_it = -1;
    for (int it = 0; it < rounds; it++) {
        l1norm<<<1, 64>>>(x, d); // expect: SYNC101
        float r;
        cudaMemcpy(&r, d, sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning expect-no-message: inherent as written
        if (r < best) {
            best = r;
            best_it = it;
        }
    }
    return best_it;
}


void rebuild(int *host_table);
// 2: the second readback's statement also does host work of the program
int second_with_work(const float *x, float *d, int *d_n, int *table, int max_iter)
{
    float r = 1.f;
    int n = 0, it = 0;
    do {
        l1norm<<<1, 64>>>(x, d); // expect: SYNC101
        cudaMemcpy(&r, d, sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning expect-no-message: inherent as written
        if (cudaMemcpy(&n, d_n, sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess) // expect: SYNC301 expect-severity: note expect-no-message: inherent as written
            rebuild(table);
        it++;
    } while (r > 1e-4f && n > 0 && it < max_iter);
    return it;
}

// 1: printed with a manipulator (a call), then tested
void with_manip(const float *x, float *d, int max_iter)
{
    float r = 1.f;
    for (int it = 0; it < max_iter; it++) {
        l1norm<<<1, 64>>>(x, d); // expect: SYNC101
        cudaMemcpy(&r, d, sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning expect-no-message: inherent as written
        std::cout << std::setprecision(3) << r << "\n";
        if (r < 1e-4f)
            break;
    }
}
void reset(float *y);
// An 'if' whose branch calls a function decides what runs next: a note.
void if_calls(const float *x, float *d, float *y, int max_iter)
{
    for (int it = 0; it < max_iter; it++) {
        l1norm<<<1, 64>>>(x, d); // expect: SYNC101
        float r;
        cudaMemcpy(&r, d, sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent as written: the host only tests it to decide what runs next (line 144 branches on it)
        if (r > 1e3f)
            reset(y);
    }
}

// An 'if' whose branch goes on with the next round: a note.
void if_continues(const float *x, float *d, float *y, int max_iter)
{
    for (int it = 0; it < max_iter; it++) {
        l1norm<<<1, 64>>>(x, d); // expect: SYNC101
        float r;
        cudaMemcpy(&r, d, sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent as written: the host only tests it to decide what runs next (line 156 branches on it)
        if (r > 1e3f)
            continue;
        l1norm<<<1, 64>>>(y, d); // expect: SYNC101
    }
}

// A read before the inner loop in the outer loop's next round is after the inner loop.
void outer_next(const float *x, float *d, int runs)
{
    float r = 1.f;
    for (int run = 0; run < runs; run++) {
        printf("%f\n", r);
        do {
            l1norm<<<1, 64>>>(x, d); // expect: SYNC101
            cudaMemcpy(&r, d, sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent as written: the loop tests it to decide whether to go on (line 171, the loop's condition) and reads it after the loop (line 167)
        } while (r > 1e-4f);
    }
}
