// Functions main.cpp's loop calls (held-out-38's CR and CQ, fastllm's getCudaInfos() and
// FastllmInitTP2P2PState()): waits on the way to which a guard makes rare.
#include <cuda_runtime.h>

bool nccl_active = true;

// Waits before an allocation while NCCL is active (fastllm's FastllmCudaCheckedMalloc).
cudaError_t checked_malloc(void **p, size_t n)
{
    if (nccl_active)
        cudaDeviceSynchronize();
    return cudaMalloc(p, n);
}

__global__ void info_kernel(int *o) { o[0] = 800; }

struct Infos {
    int arch = 0;
    Infos()
    {
        int *d = nullptr;
        checked_malloc((void **)&d, sizeof(int));
        info_kernel<<<1, 1>>>(d);
        cudaMemcpy(&arch, d, sizeof(int), cudaMemcpyDeviceToHost);
        cudaFree(d);
    }
};

Infos *infos = nullptr;

// A lazily made singleton: the constructor runs while the pointer is unset.
Infos *get_infos()
{
    if (infos == nullptr)
        infos = new Infos();
    return infos;
}

__global__ void attn_kernel(float *x, int n)
{
    int i = threadIdx.x;
    if (i < n)
        x[i] *= 2.f;
}

void attention_step(float *x, int n)
{
    if (get_infos()->arch >= 700)
        attn_kernel<<<1, 256>>>(x, n);
}

// A set-up behind an early return on a member the function sets (CQ), reached from the loop.
struct PeerState {
    bool initialized = false;
    int *signal = nullptr;
};

static PeerState peer;

static bool init_peer(PeerState &state)
{
    if (state.initialized)
        return state.signal != nullptr;
    state.initialized = true;
    cudaMalloc((void **)&state.signal, sizeof(int));
    cudaDeviceSynchronize();
    return true;
}

void reduce_step(float *x, int n)
{
    if (init_peer(peer))
        attn_kernel<<<1, 256>>>(x, n);
}

// A wait reached both under a lazy guard and straight: every call may wait.
static void settle()
{
    cudaDeviceSynchronize();
}

static int *table = nullptr;

void mixed_step(float *x, int n)
{
    if (table == nullptr) {
        cudaMalloc((void **)&table, 64);
        settle();
    }
    settle();
    attn_kernel<<<1, 256>>>(x, n);
}

// A pointer that is new on every call guards nothing.
static void drain()
{
    cudaDeviceSynchronize();
}

void local_step(float *x, int n)
{
    float *scratch = nullptr;
    if (scratch == nullptr) {
        cudaMalloc((void **)&scratch, 64);
        drain();
    }
    attn_kernel<<<1, 256>>>(x, n);
}
