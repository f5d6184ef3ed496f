// Functions main.cpp's loop calls (held-out-38's CR and CQ, fastllm's getCudaInfos() and
// FastllmInitTP2P2PState()): waits on the way to which a guard makes rare.
#include "model.h"
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

// Reached under a lazy guard first (in the order of the unit's calls) and then straight, through
// a helper defined after: every call may wait.
static void settle_twice()
{
    cudaDeviceSynchronize();
}

static int *table2 = nullptr;

static void helper_settle();

void ordered_step(float *x, int n)
{
    if (table2 == nullptr) {
        cudaMalloc((void **)&table2, 64);
        settle_twice();
    }
    helper_settle();
    attn_kernel<<<1, 256>>>(x, n);
}

static void helper_settle()
{
    settle_twice();
}

// The pointer a lazy guard tests is a member of an object that is new on every call.
struct Table {
    int *rows = nullptr;
};

static void fill_wait()
{
    cudaDeviceSynchronize();
}

static int *get_rows(Table &t)
{
    if (t.rows == nullptr) {
        cudaMalloc((void **)&t.rows, 64);
        fill_wait();
    }
    return t.rows;
}

void table_step(float *x, int n)
{
    Table t;
    get_rows(t);
    attn_kernel<<<1, 256>>>(x, n);
}

// The branch sets the pointer and unsets it again: it runs on every call.
static int *scratch2 = nullptr;

static void drain_again()
{
    cudaDeviceSynchronize();
}

void reset_step(float *x, int n)
{
    if (scratch2 == nullptr) {
        cudaMalloc((void **)&scratch2, 64);
        drain_again();
        cudaFree(scratch2);
        scratch2 = nullptr;
    }
    attn_kernel<<<1, 256>>>(x, n);
}

// A lazy guard on a member of 'this': main.cpp's loop makes a new Model on every step, which the
// unit cannot see, so the guard is not taken across units.
static void model_wait()
{
    cudaDeviceSynchronize();
}

void Model::forward(float *x, int n)
{
    if (workspace == nullptr) {
        cudaMalloc((void **)&workspace, 64);
        model_wait();
    }
    attn_kernel<<<1, 256>>>(x, n);
}
