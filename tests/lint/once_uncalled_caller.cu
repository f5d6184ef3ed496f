// once_uncalled_caller.cu: a function that runs once keeps its note when another caller of it
// cannot run in this unit: an inline function (a class's member defined in the class) that
// nothing here calls. A parameter copy called from the set-up and from an unused 'restore'
// runs once; one called only from unused inline functions is not called in this unit. A
// caller that another unit may call (external linkage, or its address taken), or a loop that
// works, keeps the warning.
#include <cuda_runtime.h>
#include <stddef.h>

__global__ void widen(float *dst, const float *src) { dst[threadIdx.x] = src[threadIdx.x]; }

class Weights {
public:
    void init_weights(size_t n)
    {
        cudaMalloc(&m_master, n * sizeof(float));
        cudaMalloc(&m_params, n * sizeof(float));
        cudaMalloc(&m_shadow, n * sizeof(float));
        put(m_master, n);
    }
    // Called from the set-up and from 'restore', which nothing in this unit calls.
    void put(const float *src, size_t n)
    {
        cudaMemcpy(m_params, src, n * sizeof(float), cudaMemcpyDeviceToDevice); // expect: SYNC102 expect-severity: note expect-message: it runs once: outside any loop, and 'Weights::put' is called once, from 'Weights::init_weights' (and from 'Weights::restore', which nothing in this unit calls)
        cudaDeviceSynchronize();
    }
    void restore(const float *snapshot, size_t n) { put(snapshot, n); }
    // Called only from 'import_half', which nothing in this unit calls either.
    void put_half(const float *src, size_t n)
    {
        cudaMemcpy(m_shadow, src, n * sizeof(float), cudaMemcpyDeviceToDevice); // expect: SYNC102 expect-severity: note expect-message: not called in this unit: 'Weights::put_half' is inline, and only functions that nothing in this unit calls call it ('Weights::import_half')
        cudaDeviceSynchronize();
    }
    void import_half(const float *src, size_t n) { put_half(src, n); }
    // Called from the set-up and from 'reload', which another unit may call.
    void put_shadow(const float *src, size_t n)
    {
        cudaMemcpy(m_shadow, src, n * sizeof(float), cudaMemcpyDeviceToDevice); // expect: SYNC102 expect-severity: note expect-message: convention:
        cudaDeviceSynchronize();
    }
    void reload(const float *src, size_t n);
    // Called from the set-up and from 'refresh', whose address is taken.
    void put_master(const float *src, size_t n)
    {
        cudaMemcpy(m_master, src, n * sizeof(float), cudaMemcpyDeviceToDevice); // expect: SYNC102 expect-severity: note expect-message: convention:
    }
    void refresh(const float *src, size_t n) { put_master(src, n); }
    // Called from the set-up and from 'sync_shadow', which the training loop calls.
    void copy_shadow(size_t n)
    {
        cudaMemcpy(m_shadow, m_params, n * sizeof(float), cudaMemcpyDeviceToDevice); // expect: SYNC102 expect-severity: note expect-message: it runs on every iteration: 'Weights::copy_shadow()' called from 'Weights::sync_shadow()' is called from the loop at once_uncalled_caller.cu:72
    }
    void sync_shadow(size_t n) { copy_shadow(n); }
    void step(cudaStream_t s) { widen<<<1, 32, 0, s>>>(m_params, m_master); }
    float *m_master = nullptr, *m_params = nullptr, *m_shadow = nullptr;
};

void Weights::reload(const float *src, size_t n) { put_shadow(src, n); }

typedef void (Weights::*refresher)(const float *, size_t);
refresher pick_refresh(void) { return &Weights::refresh; }

int main()
{
    cudaStream_t s;
    cudaStreamCreate(&s); // expect: SYNC103
    Weights w;
    w.init_weights(32);
    w.put_shadow(w.m_master, 32);
    w.put_master(w.m_params, 32);
    w.copy_shadow(32);
    for (int i = 0; i < 100; i++) {
        w.step(s);
        w.sync_shadow(32);
    }
    return 0;
}
