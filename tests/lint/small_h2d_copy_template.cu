// small_h2d_copy_template.cu: a copy to the device of one value whose type is a template
// parameter ('sizeof(T)', or 'sizeof x' of an x of type T) from pageable memory is one value, as
// 'sizeof(float)' is: staged at once, a note (held-out-20's shape AP, a cone's bound uploaded in
// a solver's projection), where the unit shows every instantiation of the function template and
// the largest type they give T is at most 64 KiB. An instantiation larger than that, one the
// unit may make unseen (no instantiation, an explicit one, a call from another template's body
// with dependent arguments, a class template's parameter), a count of values ('n * sizeof(T)'),
// and a size that is not one value of T ('sizeof(T[16384])'), keep the warning.
#include <cuda_runtime.h>

__global__ void shrink(float *v, int n) { v[threadIdx.x % n] *= 0.5f; }

template <typename T> void clamp_groups(T *d_bound, T bound, float *v, int n, int groups, cudaStream_t s)
{
    for (int g = 0; g < groups; g++) {
        shrink<<<1, 64, 0, s>>>(v, n);
        cudaMemcpyAsync(d_bound + g, &bound, sizeof(T), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: note expect-message: small: a copy of one value of the template's type 'T' ('sizeof(T)', at most 8 bytes in the instantiations this unit makes) to the device from pageable memory is staged at once
        T scaled = bound * 2;
        cudaMemcpyAsync(d_bound, &scaled, sizeof scaled, cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: note expect-message: ('sizeof scaled', at most 8 bytes
    }
}

void clamp_all(float *df, double *dd, float *v, int n, int groups, cudaStream_t s)
{
    clamp_groups(df, 1.0f, v, n, groups, s);
    clamp_groups(dd, 2.0, v, n, groups, s);
}

// A member of a class template: lint reads no instantiation of a class template, and one of
// them may give 'Elem' a type larger than 64 KiB. The warning stays.
template <typename Elem> struct Limits {
    Elem *d_cap;
    void push(Elem cap, float *v, int n, int steps, cudaStream_t s)
    {
        for (int i = 0; i < steps; i++) {
            shrink<<<1, 64, 0, s>>>(v, n);
            cudaMemcpyAsync(d_cap, &cap, sizeof(Elem), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: warning
        }
    }
};
template struct Limits<int>;

void push_caps(Limits<int> &caps, float *v, int n, int steps, cudaStream_t s)
{
    caps.push(7, v, n, steps, s);
}

// Many values of T: the count is not known, the warning stays.
template <typename T> void upload_rows(T *d, int n, int steps, float *v, cudaStream_t s)
{
    T rows[64];
    for (int i = 0; i < steps; i++) {
        shrink<<<1, 64, 0, s>>>(v, n);
        rows[i % 64] = T(i);
        cudaMemcpyAsync(d, rows, n * sizeof(T), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: warning
    }
}
template void upload_rows<float>(float *, int, int, float *, cudaStream_t);

// One value of a type larger than 64 KiB, the only instantiation: no longer staged at once.
struct Table {
    float cells[32768];
};

template <typename T> void upload_one(T *d, T h, int steps, float *v, int n, cudaStream_t s)
{
    for (int i = 0; i < steps; i++) {
        shrink<<<1, 64, 0, s>>>(v, n);
        cudaMemcpyAsync(d, &h, sizeof(T), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: warning
    }
}

void upload_table(Table *d, const Table &h, int steps, float *v, int n, cudaStream_t s)
{
    upload_one(d, h, steps, v, n, s);
}

// The size is not one value of T: an array of T, a type named through T. Warnings.
struct Wide {
    double lanes[20000];
};
struct WideBox {
    using lane = Wide;
};

template <typename T> void push_strip(T *d, int steps, float *v, int n, cudaStream_t s)
{
    T strip[16384];
    for (int i = 0; i < steps; i++) {
        shrink<<<1, 64, 0, s>>>(v, n);
        strip[i % 16384] = T(i);
        cudaMemcpyAsync(d, strip, sizeof(T[16384]), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: warning
    }
}

template <typename B> void push_lane(typename B::lane *d, int steps, float *v, int n, cudaStream_t s)
{
    typename B::lane one;
    for (int i = 0; i < steps; i++) {
        shrink<<<1, 64, 0, s>>>(v, n);
        cudaMemcpyAsync(d, &one, sizeof(typename B::lane), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: warning
    }
}

void push_both(float *d, Wide *w, int steps, float *v, int n, cudaStream_t s)
{
    push_strip(d, steps, v, n, s);
    push_lane<WideBox>(w, steps, v, n, s);
}

// Instantiations the walk does not read: made by another template's body, or written as an
// explicit instantiation. The unit may give T a large type there: warnings.
template <typename T> void send_via(T *d, T h, int steps, float *v, int n, cudaStream_t s)
{
    for (int i = 0; i < steps; i++) {
        shrink<<<1, 64, 0, s>>>(v, n);
        cudaMemcpyAsync(d, &h, sizeof(T), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: warning
    }
}

template <typename U> void relay(U *d, U h, int steps, float *v, int n, cudaStream_t s)
{
    send_via(d, h, steps, v, n, s);
}

void relay_wide(Wide *d, Wide h, float *df, int steps, float *v, int n, cudaStream_t s)
{
    relay(d, h, steps, v, n, s);
    send_via(df, 1.0f, steps, v, n, s);
}

template <typename T> void send_named(T *d, T h, int steps, float *v, int n, cudaStream_t s)
{
    for (int i = 0; i < steps; i++) {
        shrink<<<1, 64, 0, s>>>(v, n);
        cudaMemcpyAsync(d, &h, sizeof(T), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: warning
    }
}

void send_named_small(float *d, int steps, float *v, int n, cudaStream_t s)
{
    send_named(d, 2.0f, steps, v, n, s);
}
template void send_named<Wide>(Wide *, Wide, int, float *, int, cudaStream_t);

// One byte: the words say "1 byte".
template <typename T> void send_flag(T *d, T h, int steps, float *v, int n, cudaStream_t s)
{
    for (int i = 0; i < steps; i++) {
        shrink<<<1, 64, 0, s>>>(v, n);
        cudaMemcpyAsync(d, &h, sizeof h, cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: note expect-message: ('sizeof h', at most 1 byte in the instantiations this unit makes)
    }
}

void send_flags(char *d, int steps, float *v, int n, cudaStream_t s)
{
    send_flag(d, 'y', steps, v, n, s);
}
