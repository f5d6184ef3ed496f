// A frame of work that another unit (main.cpp) calls from its loop: waits under guards that make
// them rare (a buffer that only grows, one allocated while unset, a first-call flag, a queue
// refilled when it runs dry), one for a count that sizes the next launch, and one on every call.
__global__ void step_kernel(float *p) { p[threadIdx.x] += 1.0f; }

struct Arena {
    unsigned long m_size = 0;
    void *m_base = nullptr;
    void enlarge(unsigned long n_bytes)
    {
        if (n_bytes <= m_size) {
            return;
        }
        cudaDeviceSynchronize();
        cudaFree(m_base);
        cudaMalloc(&m_base, n_bytes);
        m_size = n_bytes;
    }
};

static Arena g_arena;
static float *g_params = nullptr;
static float *g_scratch = nullptr;

void train_step(unsigned long workspace)
{
    g_arena.enlarge(workspace);
    step_kernel<<<1, 256>>>(g_params);
}

void ensure_scratch()
{
    if (!g_scratch) {
        cudaDeviceSynchronize();
        cudaMalloc(&g_scratch, 1024);
    }
}

struct Requests {
    int count;
    bool empty() const { return count == 0; }
    void push(int request) { count += request; }
};

static Requests g_ready;

void refill()
{
    if (g_ready.empty()) {
        cudaDeviceSynchronize();
        for (int k = 0; k < 8; k++) {
            g_ready.push(1);
        }
    }
    g_ready.count--;
}

static float *g_table = nullptr;

void load_table()
{
    static bool first = true;
    if (first) {
        cudaDeviceSynchronize();
        cudaMalloc(&g_table, 4096);
        first = false;
    }
}

__global__ void count_k(int *n) { n[0] += 1; }

static int *g_count = nullptr;

void gather()
{
    count_k<<<1, 32>>>(g_count);
    int n;
    cudaMemcpyAsync(&n, g_count, sizeof(int), cudaMemcpyDeviceToHost, 0);
    cudaDeviceSynchronize();
    if (n > 0)
        step_kernel<<<n, 256>>>(g_scratch);
}

bool frame(int i)
{
    train_step(1ul << 20);
    ensure_scratch();
    refill();
    load_table();
    gather();
    step_kernel<<<1, 256>>>(g_scratch);
    cudaDeviceSynchronize();
    return i < 1000;
}
