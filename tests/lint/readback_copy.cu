// readback_copy.cu: SYNC301 for device-to-host copies of one scalar: sizeof(x), sizeof(T),
// 1*sizeof(...), small constants; an asynchronous one only when the function then waits.
#include <cuda_runtime.h>

struct Stats {
    double sum, min, max, mean;
};

struct Pair {
    int a, b;
};

void sizeof_variable(const int *d_count, const float *d_loss)
{
    int count = 0;
    cudaMemcpy(&count, d_count, sizeof(count), cudaMemcpyDeviceToHost); // expect: SYNC301
    float loss;
    float *where = &loss;
    cudaMemcpy(where, d_loss, sizeof loss, cudaMemcpyDeviceToHost); // expect: SYNC301
}

void sizeof_type(int *h, const int *d, double *hd, const double *dd)
{
    cudaMemcpy(h, d, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301
    cudaMemcpy(hd, dd, 1 * sizeof(double), cudaMemcpyDeviceToHost); // expect: SYNC301
    cudaMemcpy(h, d, sizeof(unsigned long long) * 1, cudaMemcpyDeviceToHost); // expect: SYNC301
}

void constants(char *h, const char *d)
{
    cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost); // expect: SYNC301
    cudaMemcpy(h, d, 4, cudaMemcpyDeviceToHost); // expect: SYNC301
    cudaMemcpy(h, d, 17, cudaMemcpyDeviceToHost);
    cudaMemcpy(h, d, 4096, cudaMemcpyDeviceToHost);
    cudaMemcpy((void *)d, h, 4, cudaMemcpyHostToDevice);
}

void not_scalars(Stats *h, const Stats *d, Pair *hp, const Pair *dp, float *hf, const float *df,
                 int n)
{
    cudaMemcpy(h, d, sizeof(Stats), cudaMemcpyDeviceToHost);
    cudaMemcpy(hf, df, n * sizeof(float), cudaMemcpyDeviceToHost);
    /* An 8-byte struct is a constant within the limit. */
    cudaMemcpy(hp, dp, sizeof(Pair), cudaMemcpyDeviceToHost); // expect: SYNC301
}

void async_then_sync(int *h, const int *d, cudaStream_t s)
{
    cudaMemcpyAsync(h, d, sizeof(int), cudaMemcpyDeviceToHost, s); // expect: SYNC301
    cudaStreamSynchronize(s);
}

void async_without_wait(int *h, const int *d, cudaStream_t s, cudaEvent_t done)
{
    cudaStreamSynchronize(s);
    cudaMemcpyAsync(h, d, sizeof(int), cudaMemcpyDeviceToHost, s);
    cudaEventRecord(done, s);
}

template <typename T> T read_one(const T *d)
{
    T value;
    cudaMemcpy(&value, d, sizeof(T), cudaMemcpyDeviceToHost); // expect: SYNC301
    return value;
}

template <typename T> void read_into(T *h, const T *d)
{
    cudaMemcpy(h, d, sizeof(T), cudaMemcpyDeviceToHost);
}

void instantiate(const float *df, const double *dd, Stats *hs, const Stats *ds)
{
    /* Two instantiations, one finding at the template's line. */
    float f = read_one(df);
    double g = read_one<double>(dd);
    /* Only instantiated with a large struct: no readback. */
    read_into(hs, ds);
    (void)f;
    (void)g;
}
