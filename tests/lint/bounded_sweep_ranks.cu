// bounded_sweep_ranks.cu: a start-up auto-tuning sweep over a constant table of cases, in a
// function a once-run initialization calls, whose steps loop over the ranks' devices around
// their allocations, frees and waits (held-out-38's CS, fastllm's AutoTuneCustomAr): a per-rank
// loop inside the bounded sweep, and a step function called only in it, run a bounded few
// times, once per program: notes. Where the inner loop's count is not bounded, or the step is
// also called from a loop whose count is not, the findings stay warnings.
#include <cuda_runtime.h>
#include <vector>

__global__ void reduce_kernel(float *x, int n)
{
    int i = threadIdx.x;
    if (i < n)
        x[i] += 1.f;
}

struct Buffers {
    std::vector<float *> in;
};

bool allocate(const std::vector<int> &devs, size_t bytes, Buffers &b)
{
    b.in.assign(devs.size(), nullptr);
    for (size_t r = 0; r < devs.size(); ++r) {
        cudaSetDevice(devs[r]);
        if (cudaMalloc((void **)&b.in[r], bytes) != cudaSuccess) // expect: SYNC402 expect-severity: note expect-message: bounded: the loop at bounded_sweep_ranks.cu:103 runs once per element of 'cases' (6, a constant array); the loop at bounded_sweep_ranks.cu:24 inside it once per device, and 'auto_tune' is called once, from 'custom_all_reduce_init'
            return false;
    }
    return true;
}

void free_buffers(const std::vector<int> &devs, Buffers &b)
{
    for (size_t r = 0; r < devs.size(); ++r) {
        cudaSetDevice(devs[r]);
        cudaFree(b.in[r]); // expect: SYNC402 expect-severity: note expect-message: the loop at bounded_sweep_ranks.cu:34 inside it once per device
    }
}

// Only this unit may call it ('static'): every call is in the sweep.
static bool zero_inputs(const std::vector<int> &devs, Buffers &b, size_t bytes)
{
    bool ok = true;
    for (size_t r = 0; r < devs.size(); ++r) {
        cudaSetDevice(devs[r]);
        ok = ok && cudaMemsetAsync(b.in[r], 0, bytes) == cudaSuccess && // expect: SYNC102
             cudaDeviceSynchronize() == cudaSuccess; // expect: SYNC401 expect-severity: note expect-message: bounded: the loop at line 44 runs once per device (line 45 sets the device from 'r'), and 'zero_inputs' is called only in bounded loops of functions that run once (1 call): the loop at line 103 runs once per element of 'cases' (6, a constant array), and 'auto_tune' is called once, from 'custom_all_reduce_init'
    }
    return ok;
}

// Another unit may call it (external linkage), perhaps on every step: a warning.
bool time_inputs(const std::vector<int> &devs, Buffers &b)
{
    for (size_t r = 0; r < devs.size(); ++r) {
        cudaSetDevice(devs[r]);
        reduce_kernel<<<1, 32>>>(b.in[r], 32); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
    return true;
}

// A loop over batches that sets each batch's device from a table: not a loop over the devices,
// so not bounded, although only the sweep calls it; nor where the bound's name holds the
// table's ('n_dev_batches' for 'dev'), or the table is iterated over its own size.
static void train_batches(const std::vector<int> &batch_dev, Buffers &b, size_t batches)
{
    for (size_t i = 0; i < batches; ++i) {
        cudaSetDevice(batch_dev[i]);
        reduce_kernel<<<1, 32>>>(b.in[0], 32); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}

static void settle_batches(const std::vector<int> &dev, Buffers &b, size_t n_dev_batches)
{
    for (size_t i = 0; i < n_dev_batches; ++i) {
        cudaSetDevice(dev[i % dev.size()]);
        reduce_kernel<<<1, 32>>>(b.in[0], 32); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}

static void settle_table(const std::vector<int> &batch_dev, Buffers &b)
{
    for (size_t i = 0; i < batch_dev.size(); ++i) {
        cudaSetDevice(batch_dev[i]);
        reduce_kernel<<<1, 32>>>(b.in[0], 32); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}

struct Case {
    unsigned bit;
    size_t bytes;
};

unsigned auto_tune(const std::vector<int> &devs)
{
    const Case cases[] = {{1, 4096},  {2, 1 << 20},  {4, 8192},
                          {8, 1 << 21}, {16, 4096}, {32, 1 << 20}};
    unsigned enabled = 0;
    for (const Case &c : cases) {
        Buffers b;
        if (!allocate(devs, c.bytes, b))
            continue;
        reduce_kernel<<<1, 256>>>(b.in[0], 256); // expect: SYNC101
        bool ok = zero_inputs(devs, b, c.bytes) && time_inputs(devs, b);
        train_batches(devs, b, 64);
        settle_batches(devs, b, 64);
        settle_table(devs, b);
        free_buffers(devs, b);
        if (ok)
            enabled |= c.bit;
    }
    return enabled;
}

bool custom_all_reduce_init(const std::vector<int> &devs)
{
    return auto_tune(devs) != 0;
}

// The inner loop runs once per buffer of a list whose length is not bounded: a warning.
void free_list(std::vector<float *> &list)
{
    for (size_t i = 0; i < list.size(); ++i)
        cudaFree(list[i]); // expect: SYNC402 expect-severity: warning
}

// A step called in the bounded sweep and also in a loop whose count is not bounded: a warning.
void settle_ranks(const std::vector<int> &devs)
{
    for (size_t r = 0; r < devs.size(); ++r) {
        cudaSetDevice(devs[r]);
        reduce_kernel<<<1, 32>>>(nullptr, 0); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}

unsigned sweep_lists(const std::vector<int> &devs, std::vector<float *> &list)
{
    const int sizes[] = {256, 1024, 4096};
    unsigned done = 0;
    for (int size : sizes) {
        reduce_kernel<<<1, 256>>>(list[0], size); // expect: SYNC101
        free_list(list);
        settle_ranks(devs);
        done++;
    }
    return done;
}

bool init_lists(const std::vector<int> &devs, std::vector<float *> &list)
{
    return sweep_lists(devs, list) == 3;
}

void train(const std::vector<int> &devs, int steps)
{
    for (int s = 0; s < steps; ++s)
        settle_ranks(devs);
}
