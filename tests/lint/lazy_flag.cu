// lazy_flag.cu: a registration or an allocation behind a first-call flag, a 'static bool' of
// its function that the branch clears ('static bool first = true; if (first == true) {
// cudaHostRegister(...); first = false; }', miniFE's dot()), in a function a loop calls: it runs
// once, a note. The flag set again, set to the value that runs the branch, taken by address or
// by reference (an argument, a bound reference, a lambda's init-capture), cleared only inside a
// lambda, on one path of the branch or after a statement that may leave it, itself a reference,
// tested against a constant other than 0 or 1, a parameter, an automatic local or a global:
// the branch may run again, a warning. In a function template too, whose call of the
// registration is left unresolved (a type-dependent argument).
#include <cuda_runtime.h>

__global__ void scale(double *x, double a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= a;
}

double dot_once(double *d, cudaStream_t s)
{
    static double result;
    static bool first = true;
    if (first == true) {
        cudaHostRegister(&result, sizeof(result), 0); // expect: SYNC402 expect-severity: note expect-message: lazy: it runs only while its first-call flag is unchanged (line 23 tests 'first' and the branch sets it)
        first = false;
    }
    cudaMemcpyAsync(&result, d, sizeof(double), cudaMemcpyDeviceToHost, s);
    return 0.0;
}

void scratch_once(float **buffer, int n)
{
    static bool ready = false;
    if (!ready) {
        cudaMalloc((void **)buffer, n * sizeof(float)); // expect: SYNC402 expect-severity: note
        ready = true;
    }
}

void scratch_plain(float **buffer, int n)
{
    static bool pending = true;
    if (pending) {
        cudaMalloc((void **)buffer, n * sizeof(float)); // expect: SYNC402 expect-severity: note expect-message: lazy: it runs only while its first-call flag is unchanged (line 43 tests 'pending' and the branch sets it)
        pending = false;
    }
}

void scratch_reversed(float **buffer, int n)
{
    static bool done = false;
    if (false == done) {
        cudaMalloc((void **)buffer, n * sizeof(float)); // expect: SYNC402 expect-severity: note
        done = true;
    }
}

void rearmed(float **buffer, int n, int size_changed)
{
    static bool first = true;
    if (size_changed)
        first = true;
    if (first) {
        cudaMalloc((void **)buffer, n * sizeof(float)); // expect: SYNC402 expect-severity: warning
        first = false;
    }
}

void same_value(float **buffer, int n)
{
    static bool first = true;
    if (first) {
        cudaMalloc((void **)buffer, n * sizeof(float)); // expect: SYNC402 expect-severity: warning
        first = true;
    }
}

void never_cleared(float **buffer, int n)
{
    static bool first = true;
    if (first == true) {
        cudaMalloc((void **)buffer, n * sizeof(float)); // expect: SYNC402 expect-severity: warning
    }
}

static void clear(bool *flag)
{
    *flag = true;
}

void address_taken(float **buffer, int n)
{
    static bool first = true;
    clear(&first);
    if (first) {
        cudaMalloc((void **)buffer, n * sizeof(float)); // expect: SYNC402 expect-severity: warning
        first = false;
    }
}

void parameter_flag(float **buffer, int n, bool first)
{
    if (first) {
        cudaMalloc((void **)buffer, n * sizeof(float)); // expect: SYNC402 expect-severity: warning
        first = false;
    }
}

void automatic_flag(float **buffer, int n)
{
    bool first = true;
    if (first == true) {
        cudaMalloc((void **)buffer, n * sizeof(float)); // expect: SYNC402 expect-severity: warning
        first = false;
    }
}

template <typename T> T dot_template(T *d, cudaStream_t s)
{
    static T result;
    static bool first = true;
    if (first == true) {
        cudaHostRegister(&result, sizeof(result), 0); // expect: SYNC402 expect-severity: note expect-message: lazy: it runs only while its first-call flag is unchanged (line 122 tests 'first' and the branch sets it)
        first = false;
    }
    cudaMemcpyAsync(&result, d, sizeof(T), cudaMemcpyDeviceToHost, s);
    return result;
}

template <typename T> void pin_template(T *value)
{
    static T *pinned = nullptr;
    if (pinned == nullptr) {
        cudaHostRegister(value, sizeof(T), 0); // expect: SYNC402 expect-severity: note expect-message: lazy: it runs only while the buffer is unset (line 133 tests 'pinned' and the branch sets it)
        pinned = value;
    }
}

static void rearm(bool &flag) { flag = true; }

void by_reference(float **buffer, int n)
{
    static bool first = true;
    if (first) {
        cudaMalloc((void **)buffer, n * sizeof(float)); // expect: SYNC402 expect-severity: warning
        first = false;
        rearm(first);
    }
}

void reference_bound(float **buffer, int n)
{
    static bool first = true;
    if (first) {
        bool &again = first;
        cudaMalloc((void **)buffer, n * sizeof(float)); // expect: SYNC402 expect-severity: warning
        first = false;
        again = true;
    }
}

void init_capture(float **buffer, int n)
{
    static bool first = true;
    if (first) {
        cudaMalloc((void **)buffer, n * sizeof(float)); // expect: SYNC402 expect-severity: warning
        first = false;
        [&f = first] { f = true; }();
    }
}

void cleared_in_lambda(float **buffer, int n)
{
    static bool first = true;
    if (first) {
        cudaMalloc((void **)buffer, n * sizeof(float)); // expect: SYNC402 expect-severity: warning
        auto stop = [] { first = false; };
        (void)stop;
    }
}

void cleared_on_one_path(float **buffer, int n, int k)
{
    static bool first = true;
    if (first) {
        cudaMalloc((void **)buffer, n * sizeof(float)); // expect: SYNC402 expect-severity: warning
        if (k > 50)
            first = false;
    }
}

void negated_rearmed(float **buffer, int n, int k)
{
    static bool done = false;
    if (k % 10 == 0)
        done = false;
    if (!done) {
        cudaMalloc((void **)buffer, n * sizeof(float)); // expect: SYNC402 expect-severity: warning
        done = true;
    }
}

void return_before_clear(float **buffer, int n)
{
    static bool first = true;
    if (first) {
        cudaMalloc((void **)buffer, n * sizeof(float)); // expect: SYNC402 expect-severity: warning
        if (n < (1 << 30))
            return;
        first = false;
    }
}

bool g_armed = true;

void reference_flag(float **buffer, int n)
{
    static bool &first = g_armed;
    if (first) {
        cudaMalloc((void **)buffer, n * sizeof(float)); // expect: SYNC402 expect-severity: warning
        first = false;
    }
}

const bool *g_seen = nullptr;

void const_reference(float **buffer, int n)
{
    static bool first = true;
    if (first) {
        const bool &seen = first;
        g_seen = &seen;
        cudaMalloc((void **)buffer, n * sizeof(float)); // expect: SYNC402 expect-severity: warning
        first = false;
    }
}

void not_a_flag_test(float **buffer, int n)
{
    static bool done = false;
    if (done != 2) {
        cudaMalloc((void **)buffer, n * sizeof(float)); // expect: SYNC402 expect-severity: warning
        done = true;
    }
}

bool g_first = true;

void global_flag(float **buffer, int n)
{
    if (g_first) {
        cudaMalloc((void **)buffer, n * sizeof(float)); // expect: SYNC402 expect-severity: warning
        g_first = false;
    }
}

int main()
{
    int n = 1 << 20;
    double *x, *d;
    float *buffers[10];
    cudaMalloc(&x, n * sizeof(double));
    cudaMalloc(&d, sizeof(double));
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    for (int k = 0; k < 100; ++k) {
        scale<<<(n + 255) / 256, 256, 0, s>>>(x, 0.5, n);
        dot_once(d, s);
        scratch_once(&buffers[0], n);
        scratch_plain(&buffers[1], n);
        scratch_reversed(&buffers[2], n);
        rearmed(&buffers[3], n, k % 10 == 0);
        same_value(&buffers[4], n);
        never_cleared(&buffers[5], n);
        address_taken(&buffers[6], n);
        parameter_flag(&buffers[7], n, k == 0);
        automatic_flag(&buffers[8], n);
        global_flag(&buffers[9], n);
        dot_template(d, s);
        pin_template(x);
        by_reference(&buffers[0], n);
        reference_bound(&buffers[1], n);
        init_capture(&buffers[2], n);
        cleared_in_lambda(&buffers[3], n);
        cleared_on_one_path(&buffers[4], n, k);
        negated_rearmed(&buffers[5], n, k);
        return_before_clear(&buffers[6], n);
        reference_flag(&buffers[7], n);
        if (g_seen == nullptr || *g_seen)
            g_armed = true;
        const_reference(&buffers[8], n);
        not_a_flag_test(&buffers[9], n);
    }
    cudaFree(x);
    cudaFree(d);
    return 0;
}
