// set_up_flag.cu: a one-time set-up behind an early return on a lasting flag that the function
// sets itself ('if (state.initialized) return state.available; ...; state.initialized = true;',
// held-out-38's CQ, fastllm's FastllmInitTP2P2PState), reached from a loop that enqueues device
// work: what follows the return runs once, so its waits and allocations are notes that say so.
// The flag must outlive the call (a member, a global, a static local; not of a local object or a
// by-value parameter, nor of a caller's local passed by reference), its name must say set-up (a
// word starting with init or setup), a statement of the function's own must set it to the value
// the return waits for, with no way out between the call and that statement, and nothing in the
// unit but a teardown run outside the loops may clear it (set_up_flag_cleared.cu); otherwise the
// findings stay warnings.
#include <cuda_runtime.h>

__global__ void add_one(float *x, int n)
{
    int i = threadIdx.x;
    if (i < n)
        x[i] += 1.f;
}

struct State {
    bool initialized = false;
    bool available = false;
    int *signal = nullptr;
};

State &get_state()
{
    static State s;
    return s;
}

// The member of a state object given by reference (fastllm's shape).
bool init_state(State &state)
{
    if (state.initialized) {
        return state.available;
    }
    bool ok = cudaMalloc((void **)&state.signal, sizeof(int)) == cudaSuccess; // expect: SYNC402 expect-severity: note expect-message: lazy: it runs only while its set-up flag says it has not run (line 35 returns early while 'state.initialized' is true, and line 41 sets it so)
    if (ok && cudaDeviceSynchronize() != cudaSuccess) // expect: SYNC401 expect-severity: note expect-message: lazy: it runs only while its set-up flag says it has not run (line 35 returns early while 'state.initialized' is true, and line 41 sets it so)
        ok = false;
    state.initialized = true;
    state.available = ok;
    return ok;
}

void all_reduce_add(float *x, int n)
{
    if (init_state(get_state()))
        add_one<<<1, 256>>>(x, n); // expect: SYNC101
}

void forward(float **layers, int count, int n)
{
    for (int l = 0; l < count; ++l)
        all_reduce_add(layers[l], n);
}

// A method's own member, the flag set before the work; the test written '== true'.
class Workspace {
public:
    void ensure();
    void step(float *x, int n);

private:
    bool m_bInitDone = false;
    float *scratch = nullptr;
};

void Workspace::ensure()
{
    if (m_bInitDone == true)
        return;
    m_bInitDone = true;
    cudaMalloc((void **)&scratch, 1024 * sizeof(float)); // expect: SYNC402 expect-severity: note expect-message: (line 71 returns early while 'm_bInitDone' is true, and line 73 sets it so)
}

void Workspace::step(float *x, int n)
{
    ensure();
    add_one<<<1, 256>>>(x, n); // expect: SYNC101
}

void run_workspace(Workspace &w, float *x, int n, int steps)
{
    for (int s = 0; s < steps; ++s)
        w.step(x, n);
}

// A global flag that says the set-up is still to run: the function returns while it is false,
// and clears it.
static bool needs_setup = true;
static float *lookup = nullptr;

void prepare_lookup()
{
    if (!needs_setup)
        return;
    cudaMalloc((void **)&lookup, 256 * sizeof(float)); // expect: SYNC402 expect-severity: note expect-message: (line 96 returns early while 'needs_setup' is false, and line 99 sets it so)
    needs_setup = false;
}

void run_lookup(float *x, int n, int steps)
{
    for (int s = 0; s < steps; ++s) {
        prepare_lookup();
        add_one<<<1, 256>>>(x, n); // expect: SYNC101
    }
}

// Cleared on every iteration by a function the loop calls: the set-up runs every time.
struct Cache {
    bool initialized = false;
    float *rows = nullptr;
};

static Cache cache;

void refresh_cache()
{
    if (cache.initialized)
        return;
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    cache.initialized = true;
}

void invalidate_cache()
{
    cache.initialized = false;
}

void run_cache(float *x, int n, int steps)
{
    for (int s = 0; s < steps; ++s) {
        refresh_cache();
        add_one<<<1, 256>>>(x, n); // expect: SYNC101
        invalidate_cache();
    }
}

// A flag whose name does not say set-up (a 'dirty' mark's kin): not taken on trust.
struct Params {
    bool uploaded = false;
    float host[16];
    float *device = nullptr;
};

void upload_params(Params &p)
{
    if (p.uploaded)
        return;
    cudaMemcpy(p.device, p.host, sizeof p.host, cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: warning
    p.uploaded = true;
}

void run_params(Params &p, float *x, int n, int steps)
{
    for (int s = 0; s < steps; ++s) {
        upload_params(p);
        add_one<<<1, 256>>>(x, n); // expect: SYNC101
    }
}

// The function never sets the flag (another one does, or nobody): every call runs it.
struct Lazy {
    bool initialized = false;
};

void touch(Lazy &l)
{
    if (l.initialized)
        return;
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
}

// It sets the flag to the value that lets the set-up run again.
void touch_reset(Lazy &l)
{
    if (l.initialized)
        return;
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    l.initialized = false;
}

// A parameter is no lasting flag.
void touch_param(bool initialized)
{
    if (initialized)
        return;
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    initialized = true;
}

// The flag is set only in a lambda, which runs when it is called.
void touch_lambda(Lazy &l)
{
    if (l.initialized)
        return;
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    auto mark = [&l]() { l.initialized = true; };
    (void)mark;
}

// Another object's flag is set.
void touch_other(Lazy &a, Lazy &b)
{
    if (a.initialized)
        return;
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    b.initialized = true;
}

void run_lazy(Lazy &a, Lazy &b, float *x, int n, int steps)
{
    for (int s = 0; s < steps; ++s) {
        touch(a);
        touch_reset(a);
        touch_param(a.initialized);
        touch_lambda(a);
        touch_other(a, b);
        add_one<<<1, 256>>>(x, n); // expect: SYNC101
    }
}

// Whose object: a by-value parameter, a local, a caller's local passed by reference.
struct Once {
    bool initialized = false;
};

void by_value(Once once)
{
    if (once.initialized)
        return;
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    once.initialized = true;
}

void local_object()
{
    Once local;
    if (local.initialized)
        return;
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    local.initialized = true;
}

static void by_reference(Once &once)
{
    if (once.initialized)
        return;
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    once.initialized = true;
}

void fresh_each_call()
{
    Once local;
    by_reference(local);
}

// Set only on some ways: under a condition, or after a return that a failure takes.
static Once kept, probed;

void set_if(bool keep)
{
    if (kept.initialized)
        return;
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    if (keep)
        kept.initialized = true;
}

bool probe_peer()
{
    if (probed.initialized)
        return true;
    int can = 0;
    cudaDeviceCanAccessPeer(&can, 0, 1);
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    if (!can)
        return false;
    probed.initialized = true;
    return true;
}

void run_fresh(float *x, int n, int steps)
{
    for (int s = 0; s < steps; ++s) {
        by_value(kept);
        local_object();
        fresh_each_call();
        set_if(false);
        probe_peer();
        add_one<<<1, 256>>>(x, n); // expect: SYNC101
    }
}
// Cleared only by a shutdown that no loop reaches and no other unit may call: the set-up runs
// once.
struct Pool {
    bool initialized = false;
    int *slots = nullptr;
};

static Pool pool;

void ensure_pool()
{
    if (pool.initialized)
        return;
    cudaMalloc((void **)&pool.slots, 1024); // expect: SYNC402 expect-severity: note expect-message: lazy: it runs only while its set-up flag says it has not run (line 307 returns early while 'pool.initialized' is true, and line 310 sets it so)
    pool.initialized = true;
}

static void shutdown_pool()
{
    cudaFree(pool.slots);
    pool.initialized = false;
}

void run_pool(float *x, int n, int steps)
{
    for (int s = 0; s < steps; ++s) {
        ensure_pool();
        add_one<<<1, 256>>>(x, n); // expect: SYNC101
    }
    shutdown_pool();
}

// The object of 'this', of a pointer or of 'new' made on every iteration.
class Worker {
public:
    void prepare()
    {
        if (initialized)
            return;
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        initialized = true;
    }

private:
    bool initialized = false;
};

static void prepare_at(Once *once)
{
    if (once->initialized)
        return;
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    once->initialized = true;
}

static void prepare_made(Once &once)
{
    if (once.initialized)
        return;
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    once.initialized = true;
}

void run_objects(float *x, int n, int steps)
{
    for (int s = 0; s < steps; ++s) {
        Worker w;
        w.prepare();
        Once local;
        prepare_at(&local);
        Once *made = new Once;
        prepare_made(*made);
        delete made;
        add_one<<<1, 256>>>(x, n); // expect: SYNC101
    }
}
