// frequency_not_shown.cu: a warning needs a loop that repeats the call. A readback, a pageable
// copy or a legacy launch in no loop of its function, in a function that no loop of this unit
// reaches, runs as often as code lint does not see decides (another unit's loop, a call through
// a pointer): a note that says so. The same code reached from a loop that queues device work, in
// a loop of its own, in a lambda or in 'main' keeps what those say, and so does a helper that a
// loop of this unit calls whatever that loop queues (a library's work, which lint does not count).
#include <cuda_runtime.h>
#include <vector>

__global__ void count_kernel(int *count, int n) { count[0] = n; }
__global__ void scale_kernel(float *v, int n) { v[threadIdx.x % n] *= 2.0f; }

/* Called by nothing here: another unit's loop may call it, or nothing may. */
int survivors(int *d_count, float *d_v, int n, cudaStream_t s)
{
    count_kernel<<<1, 1, 0, s>>>(d_count, n);
    int count = 0;
    cudaMemcpy(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: how often it runs is not shown: it is in no loop that lint sees, and no loop of this translation unit reaches 'survivors()' (one of another unit, or a call through a pointer, may run it on every iteration; lint does not weigh those: name it, or a function that calls it, in hot-functions to make this a warning)
    scale_kernel<<<1, 32, 0, s>>>(d_v, n);
    return count;
}

/* A pageable upload in a function nothing here calls. */
void upload(float *d_v, const std::vector<float> &v, cudaStream_t s)
{
    cudaMemcpyAsync(d_v, v.data(), v.size() * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: note expect-message: how often it runs is not shown
    scale_kernel<<<1, 32, 0, s>>>(d_v, (int)v.size());
}

/* A stream at hand, left out: still a question of how often it runs. */
void rescale(float *d_v, int n, cudaStream_t s)
{
    scale_kernel<<<1, 32>>>(d_v, n); // expect: SYNC101 expect-severity: note expect-message: how often it runs is not shown
    scale_kernel<<<1, 32, 0, s>>>(d_v, n);
}

/* The same kind of readback, reached from a loop of this unit that queues device work. */
static int peek(int *d_count)
{
    int count = 0;
    cudaMemcpy(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning expect-message: in 'peek()' called from the loop at frequency_not_shown.cu:48
    return count;
}

int drain(int *d_count, float *d_v, int steps, cudaStream_t s)
{
    int total = 0;
    for (int i = 0; i < steps; i++) {
        scale_kernel<<<1, 32, 0, s>>>(d_v, 32);
        total += peek(d_count);
    }
    return total;
}

/* A loop of its own whose body queues nothing lint sees (a host-side convergence loop around
   a library's calls): the call repeats, the rule's own severity stays. */
void host_side_reduce(const float *d_v, int n, int rounds, float *out);

float converge(const float *d_v, float *d_sum, int n, int rounds)
{
    float sum = 0.0f;
    for (int r = 0; r < rounds && sum < 1.0f; r++) {
        host_side_reduce(d_v, n, r, d_sum);
        cudaMemcpy(&sum, d_sum, sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning expect-no-message: how often it runs is not shown
    }
    return sum;
}

/* Once: 'main' calls it outside any loop. */
static int first_count(int *d_count, float *d_v)
{
    int count = 0;
    cudaMemcpy(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: it runs once: outside any loop, and 'first_count' is called once, from 'main'
    scale_kernel<<<1, 32>>>(d_v, 32); // expect: SYNC101 expect-severity: note expect-message: it runs once: outside any loop, and 'first_count' is called once, from 'main'
    return count;
}

int main()
{
    int *d_count = nullptr;
    float *d_v = nullptr;
    cudaMalloc(&d_count, sizeof(int));
    cudaMalloc(&d_v, 32 * sizeof(float));
    return first_count(d_count, d_v);
}

/* A helper that a loop of this unit calls, the loop's device work a library's (declared here,
   not work lint counts): the loop repeats the helper, so its readback keeps the warning. */
float g_total;
void library_step(float *d, int n);

static void read_one(const float *d_v)
{
    float v = 0.0f;
    cudaMemcpy(&v, d_v, sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning expect-no-message: how often it runs is not shown
    g_total += v;
}

void solve(float *d_v, int n, int rounds)
{
    for (int r = 0; r < rounds; r++) {
        library_step(d_v, n);
        read_one(d_v);
    }
}
