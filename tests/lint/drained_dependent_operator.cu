// drained_dependent_operator.cu: a class template's member whose loop body ends with a wait for
// the whole device and then host arithmetic on values of a dependent type ('hi[r] - lo[r]': with
// a project's operator- in scope, an overloaded operator looked up only when the template is
// instantiated), as on a plain type: the wait that opens the next iteration has nothing to wait
// for (a note, "drained"). A call of a method of a dependent type there ('src.refill()', which may
// be anything once instantiated) keeps it a warning, and so does a project operator whose body
// launches.
#include <cuda_runtime.h>

struct Span {
    unsigned from, to;
};
inline unsigned operator-(Span a, Span b) { return a.to - b.to; }

__global__ void relax(float *d, unsigned n) { d[0] = (float)n; }

template <class T> struct Sweep {
    float *d;
    unsigned total;
    void run(const T *lo, const T *hi, int rounds);
    void run_refilled(T &src, int rounds);
};

template <class T> void Sweep<T>::run(const T *lo, const T *hi, int rounds)
{
    for (int r = 0; r < rounds; r++) {
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained: the device has nothing queued here: 'cudaDeviceSynchronize' at drained_dependent_operator.cu:29 drained it
        relax<<<1, 1>>>(d, total); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        total += hi[r] - lo[r];
    }
}

template <class T> void Sweep<T>::run_refilled(T &src, int rounds)
{
    for (int r = 0; r < rounds; r++) {
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        relax<<<1, 1>>>(d, total); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        total += src.refill();
    }
}

// A project operator whose body launches ('Field - Field' queues a kernel and returns): with it
// in the overload set, the operator on a dependent type may queue work once instantiated, so
// the opening wait has that work to wait for: a warning.
struct Field {
    float *d;
    unsigned n;
};
__global__ void diff(float *d, unsigned n) { d[0] -= (float)n; }
inline unsigned operator*(Field a, Field b)
{
    diff<<<1, 1>>>(a.d, b.n); // expect: SYNC101
    return a.n;
}

template <class T> struct Blend {
    float *d;
    unsigned total;
    void run(const T *lo, const T *hi, int rounds);
};

template <class T> void Blend<T>::run(const T *lo, const T *hi, int rounds)
{
    for (int r = 0; r < rounds; r++) {
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        relax<<<1, 1>>>(d, total); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        total += hi[r] * lo[r];
    }
}
