// grow_only_early_pair_unlooped.cu: a device array's resize, as a header would define it for
// other units, that no loop of this unit calls: its copy of the old contents runs past two early
// returns (the size unchanged; a smaller size while shrinking is off) and the function records
// the new size, so it runs when the array grows, whoever calls it: a note. The same copy in a
// resize without the returns runs on every call: a warning.
#include <cuda_runtime.h>

template <typename T> struct Kept {
    T *data = nullptr;
    T *host = nullptr;
    int count = 0;
    cudaStream_t stream;
    void upload() { cudaMemcpyAsync(data, host, count * sizeof(T), cudaMemcpyHostToDevice, stream); }
    void resize(int n, bool shrink = true)
    {
        if (count == n)
            return;
        if (count > n && shrink == false) {
            return;
        }
        T *fresh;
        cudaMalloc((T **)&fresh, n * sizeof(T));
        cudaMemcpy(fresh, data, (count < n ? count : n) * sizeof(T), cudaMemcpyDeviceToDevice); // expect: SYNC102 expect-severity: note expect-message: grow-only: it runs when the buffer grows (lines 16 and 18 return early unless the request exceeds 'count'
        cudaFree(data);
        data = fresh;
        count = n;
    }
    void replace(int n)
    {
        T *fresh;
        cudaMalloc((T **)&fresh, n * sizeof(T));
        cudaMemcpy(fresh, data, (count < n ? count : n) * sizeof(T), cudaMemcpyDeviceToDevice); // expect: SYNC102 expect-severity: warning
        cudaFree(data);
        data = fresh;
        count = n;
    }
};

__global__ void shift(float *p) { p[threadIdx.x] += 1.0f; }

void start(cudaStream_t *s, float *p)
{
    cudaStreamCreate(s); // expect: SYNC103 expect-severity: note
    shift<<<1, 32, 0, *s>>>(p);
    shift<<<1, 32, 0, *s>>>(p);
    shift<<<1, 32, 0, *s>>>(p);
}

// Called from other units, as often as they like.
void regrow(Kept<float> &k, int n)
{
    k.resize(n);
    k.replace(n);
}
