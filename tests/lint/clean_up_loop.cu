// clean_up_loop.cu: a loop whose only device work is frees (NVIDIA Warp's free_deferred_allocs,
// run once a graph capture ends): the first free that waits drains the device, the later ones
// find nothing new to wait for (cudaFree, cudaFreeArray and cudaFreeHost wait for the whole
// device, measured), and allocating once before the loop is no remedy for a loop that only gives
// memory back. The frees' findings stay, as notes ("clean-up"), also in nested loops that only
// free and through a helper the loop calls; a host unregistration gives memory back too. A loop
// that also launches, memsets or copies (itself or through a function it calls) keeps its
// warnings, and so does a free-only loop that a loop with kernels runs (nested in it, or called
// from it). A loop that allocates as well as frees keeps its warnings: the allocation may wait as
// a free does, and the loop churns memory, which allocating once before it removes. A wait after
// each free is no free: it stays a warning (one wait after the loop does as well). A destructor's
// loop is teardown, as before.
#include <cuda_runtime.h>
#include <vector>

struct FreeInfo {
    void *ptr;
    bool is_async;
};

static std::vector<FreeInfo> g_deferred;

// Warp's shape: stream-ordered frees on the legacy stream on purpose, the others with cudaFree.
static int free_deferred_allocs()
{
    int n = 0;
    for (auto it = g_deferred.begin(); it != g_deferred.end();) {
        if (it->is_async)
            cudaFreeAsync(it->ptr, NULL); // expect: SYNC102 expect-severity: note expect-message: clean-up: the only device work of the loop at line 27 is freeing memory, and no loop that runs it does other work: the first free waits for the work queued before the loop, the later ones find nothing new to wait for
        else
            cudaFree(it->ptr); // expect: SYNC402 expect-severity: note expect-message: clean-up: the only device work of the loop at line 27 is freeing memory
        ++n;
        it = g_deferred.erase(it);
    }
    return n;
}

bool capture_end(cudaStream_t s, cudaGraph_t *graph)
{
    if (cudaStreamEndCapture(s, graph) != cudaSuccess)
        return false;
    free_deferred_allocs();
    return true;
}

// The unit creates blocking streams of its own, which the legacy stream serializes with.
cudaStream_t make_stream()
{
    cudaStream_t s;
    cudaStreamCreate(&s); // expect: SYNC103
    return s;
}

__global__ void fill(float *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = 0.0f;
}

// A list emptied from its back. A loop of cudaFree alone enqueues nothing: no finding, as before.
void drain_lists(std::vector<void *> &device, std::vector<void *> &ordered,
                 std::vector<void *> &host, cudaStream_t s)
{
    while (!device.empty()) {
        cudaFree(device.back());
        device.pop_back();
    }
    while (!host.empty()) {
        cudaFreeAsync(ordered.back(), s);
        ordered.pop_back();
        cudaFreeHost(host.back()); // expect: SYNC402 expect-severity: note expect-message: clean-up: the only device work of the loop at line 69 is freeing memory
        host.pop_back();
    }
}

// Nested loops that only free, as Warp's loop over destroyed graphs and their allocations; a
// host registration given back counts as a free.
void drop_graphs(std::vector<std::vector<void *>> &graphs, std::vector<void *> &registered,
                 cudaStream_t s)
{
    for (std::vector<void *> &allocs : graphs) {
        for (void *p : allocs)
            cudaFreeAsync(p, s);
        cudaFree(allocs.front()); // expect: SYNC402 expect-severity: note expect-message: clean-up: the only device work of the loop at line 82 is freeing memory
        cudaHostUnregister(registered.back()); // expect: SYNC402 expect-severity: note expect-message: clean-up: the only device work of the loop at line 82 is freeing memory
        registered.pop_back();
    }
}

// Through a helper the loop calls.
static void release(const FreeInfo &info)
{
    if (info.is_async)
        cudaFreeAsync(info.ptr, 0); // expect: SYNC102 expect-severity: note expect-message: clean-up: the only device work of the loop at clean_up_loop.cu:102 is freeing memory
    else
        cudaFree(info.ptr); // expect: SYNC402 expect-severity: note expect-message: clean-up: the only device work of the loop at clean_up_loop.cu:102 is freeing memory
}

void release_all(const std::vector<FreeInfo> &infos)
{
    for (const FreeInfo &info : infos)
        release(info);
}

// Frees beside a launch, a memset, or a copy through a function the loop calls: warnings.
static void upload(float *dst, const float *src, int n, cudaStream_t s)
{
    cudaMemcpyAsync(dst, src, n * sizeof(float), cudaMemcpyHostToDevice, s);
}

void busy_loops(float **bufs, void **olds, const float *host, int n, int count, cudaStream_t s)
{
    for (int i = 0; i < count; i++) {
        fill<<<(n + 255) / 256, 256, 0, s>>>(bufs[i], n);
        cudaFreeAsync(olds[i], NULL); // expect: SYNC102 expect-severity: warning
        cudaFree(bufs[i]); // expect: SYNC402 expect-severity: warning
    }
    for (int i = 0; i < count; i++) {
        cudaMemsetAsync(bufs[i], 0, n * sizeof(float), s);
        cudaFree(bufs[i]); // expect: SYNC402 expect-severity: warning
    }
    for (int i = 0; i < count; i++) {
        upload(bufs[i], host, n, s);
        cudaFree(olds[i]); // expect: SYNC402 expect-severity: warning
    }
}

// An allocation and a free on every iteration, no kernel: warnings. cudaMalloc may wait as
// cudaFree does, and the loop churns memory, which one allocation before the loop removes.
void churn(void **olds, int n, int count, cudaStream_t s)
{
    for (int i = 0; i < count; i++) {
        void *tmp;
        cudaMalloc(&tmp, n); // expect: SYNC402 expect-severity: warning
        cudaFree(tmp); // expect: SYNC402 expect-severity: warning
        cudaFreeAsync(olds[i], s);
    }
}

// A free-only loop that a loop with kernels runs: nested in it, or through a call.
void step_and_free(float *w, void **olds, void **plain, int n, int steps, int count,
                   cudaStream_t s)
{
    for (int t = 0; t < steps; t++) {
        fill<<<(n + 255) / 256, 256, 0, s>>>(w, n);
        for (int i = 0; i < count; i++) {
            cudaFreeAsync(olds[i], s);
            cudaFree(plain[i]); // expect: SYNC402 expect-severity: warning
        }
    }
}

static void free_batch(void **olds, void **plain, int count, cudaStream_t s)
{
    for (int i = 0; i < count; i++) {
        cudaFreeAsync(olds[i], s);
        cudaFree(plain[i]); // expect: SYNC402 expect-severity: warning
    }
}

void step_then_free(float *w, void **olds, void **plain, int n, int steps, int count,
                    cudaStream_t s)
{
    for (int t = 0; t < steps; t++) {
        fill<<<(n + 255) / 256, 256, 0, s>>>(w, n);
        free_batch(olds, plain, count, s);
    }
}

// A wait after each free on a stream: the wait is no free and keeps its warning (nothing on the
// host needs it: one wait after the loop does as well); the host memory's free beside it is a
// note, since the loop does no device work but frees.
void free_waiting(void **device, void **host, int count, cudaStream_t s)
{
    for (int i = 0; i < count; i++) {
        cudaFreeAsync(device[i], s);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        cudaFreeHost(host[i]); // expect: SYNC402 expect-severity: note expect-message: clean-up: the only device work of the loop at line 176 is freeing memory
    }
}

// A destructor's loop: teardown, as before.
class Pool {
public:
    ~Pool()
    {
        for (FreeInfo &b : blocks_) {
            if (b.is_async)
                cudaFreeAsync(b.ptr, NULL); // expect: SYNC102 expect-severity: note expect-message: teardown: the loop at line 188 runs when an object is destroyed
            else
                cudaFree(b.ptr); // expect: SYNC402 expect-severity: note expect-message: teardown: the loop at line 188 runs when an object is destroyed
        }
    }
    std::vector<FreeInfo> blocks_;
};
