// small_h2d_copy_template.cu: a copy to the device of one value whose type is a template
// parameter ('sizeof(T)', or 'sizeof x' of an x of type T) from pageable memory is one value, as
// 'sizeof(float)' is: staged at once, a note (held-out-20's shape AP, a cone's bound uploaded in
// a solver's projection). Where the unit instantiates the template, the largest type it gives T
// is the size; an instantiation larger than 64 KiB, and a count of values ('n * sizeof(T)'),
// keep the warning.
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

// A member of a class template: no instantiation to read, one value of 'Elem' all the same.
template <typename Elem> struct Limits {
    Elem *d_cap;
    void push(Elem cap, float *v, int n, int steps, cudaStream_t s)
    {
        for (int i = 0; i < steps; i++) {
            shrink<<<1, 64, 0, s>>>(v, n);
            cudaMemcpyAsync(d_cap, &cap, sizeof(Elem), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: note expect-message: small: a copy of one value of the template's type 'Elem' ('sizeof(Elem)') to the device
        }
    }
};
template struct Limits<int>;

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
