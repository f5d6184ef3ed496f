// inherent_readback_loop.cu: a buffer copied back inside a loop that enqueues device work,
// whose elements the host then goes through (a loop that sums them, a range algorithm over
// them, a host function given the buffer), with no device work between: the host computes
// with the data, and the wait is inherent there: notes. Still warnings: one value read back
// only to decide whether to go on (a convergence test, which the device or every tenth
// iteration could do), data the host sends back to the device in the same iteration (the
// host is a stage of a device pipeline), and a buffer read after more device work is queued.
#include <algorithm>
#include <cuda_runtime.h>

__global__ void step_kernel(float *d, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        d[i] *= 0.5f;
}

struct Model {
    float *d_losses;
    float *cpu_losses;
    int n;
};

float validate(Model *m, cudaStream_t s)
{
    float mean = 0.0f;
    step_kernel<<<(m->n + 255) / 256, 256, 0, s>>>(m->d_losses, m->n);
    cudaMemcpy(m->cpu_losses, m->d_losses, m->n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: note expect-message: inherent: the next statement needs the value (line 29 reads 'cpu_losses' in a loop)
    for (int i = 0; i < m->n; i++)
        mean += m->cpu_losses[i];
    return mean / m->n;
}

static int pick(const float *logits, int n, float coin)
{
    int best = 0;
    for (int i = 1; i < n; i++)
        if (logits[i] * coin > logits[best])
            best = i;
    return best;
}

float next_coin(unsigned *state);

void generate(Model *m, float *h_logits, int *tokens, int steps, cudaStream_t s)
{
    unsigned state = 1;
    float total = 0.0f;
    for (int t = 1; t < steps; t++) {
        total += validate(m, s);
        cudaMemcpy(h_logits, m->d_losses, m->n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: note expect-message: inherent: the next statement needs the value (line 53 passes 'h_logits' to 'pick()')
        float coin = next_coin(&state);
        tokens[t] = pick(h_logits, m->n, coin);
    }
}

bool poll(int *h_lens, const int *d_lens, bool *h_done, const bool *d_done, int n, int limit,
          cudaStream_t s)
{
    int longest = 0;
    bool done = false;
    while (!done && longest < limit) {
        step_kernel<<<1, 32, 0, s>>>((float *)d_lens, n);
        cudaMemcpyAsync(h_lens, d_lens, n * sizeof(int), cudaMemcpyDeviceToHost, s);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: inherent: the next statement needs the value (line 66 passes 'h_lens' to 'std::max_element()')
        longest = *std::max_element(h_lens, h_lens + n);
        cudaMemcpyAsync(h_done, d_done, n * sizeof(bool), cudaMemcpyDeviceToHost, s);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: inherent: the next statement needs the value (line 69 passes 'h_done' to 'std::all_of()')
        done = std::all_of(h_done, h_done + n, [](bool b) { return b; });
    }
    return done;
}

template <typename T> struct Poller {
    T *h_done;
    bool done;
    void wait_all(const T *d_done, int n, cudaStream_t s)
    {
        while (!done) {
            step_kernel<<<1, 32, 0, s>>>((float *)d_done, n);
            cudaMemcpyAsync(h_done, d_done, n * sizeof(T), cudaMemcpyDeviceToHost, s);
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: inherent: the next statement needs the value (line 83 passes 'h_done' to 'all_of()')
            done = std::all_of(h_done, h_done + n, [](T b) { return b != T(0); });
        }
    }
};

void wait_flags(Poller<bool> *poller, const bool *d_done, int n, cudaStream_t s)
{
    poller->wait_all(d_done, n, s);
}

double converge(float *d, double *sum, const double *d_sum, double tol, int max_iter,
                cudaStream_t s)
{
    for (int k = 0; k < max_iter; k++) {
        step_kernel<<<1, 256, 0, s>>>(d, 256);
        cudaMemcpyAsync(sum, d_sum, sizeof(double), cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: warning
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        if (*sum <= tol)
            break;
    }
    return *sum;
}

void sort_round_trip(float *h, float *d, int n, int tasks, cudaStream_t s)
{
    for (int task = 0; task < tasks; task++) {
        step_kernel<<<1, 256, 0, s>>>(d, n);
        cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: inherent: the next statement needs the value (line 112 passes 'h' to 'std::sort()')
        std::sort(h, h + n);
        cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
        step_kernel<<<1, 256, 0, s>>>(d, n);
    }
}

float read_after_launch(float *h, float *d, int n, int steps, cudaStream_t s)
{
    float total = 0.0f;
    for (int t = 0; t < steps; t++) {
        step_kernel<<<1, 256, 0, s>>>(d, n);
        cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: warning
        step_kernel<<<1, 256, 0, s>>>(d, n);
        for (int i = 0; i < n; i++)
            total += h[i];
    }
    return total;
}

void train(Model *m, int steps, cudaStream_t s)
{
    float total = 0.0f;
    for (int t = 0; t < steps; t++)
        total += validate(m, s);
    (void)total;
}
