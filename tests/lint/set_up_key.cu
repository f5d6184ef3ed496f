// set_up_key.cu: a set-up run once per constant key of a lasting set, 'if (!configured.count(STAGE))
// { ...; configured.insert(STAGE); }' (held-out-41's CV, CudaTextureGen's Erosion10 stages), in a
// method the step loop calls: its allocation, upload and wait run on the first step only, notes
// that say so; also 'find(K) == end()', a wait in a function the branch calls, a key kept in a
// local never written again, an error's 'throw' before the insert. Still warnings: a key that is
// no constant (a parameter, the loop's index, a local written again), a set that is a local, one
// the unit erases from, clears or assigns, or whose object it replaces; an insert of another key,
// or one a 'continue' may skip; a helper another loop calls with no guard.
#include <cuda_runtime.h>
#include <set>
#include <unordered_set>

__global__ void addRain(float *water, float rate) { water[threadIdx.x] += rate; }

enum class Stage { Rain, Flow };

struct Pointers {
    float *water;
};

class Simulation {
public:
    void run(int steps);
    void reset();

private:
    void stageRain();
    void stageFlow();
    void upload();

    std::unordered_set<Stage> configured;
    std::set<int> seen;
    cudaStream_t stream = nullptr;
    Pointers host{};
    Pointers *devicePointers = nullptr;
    float rate = 0.1f;
};

// 1: CudaTextureGen's form, a const local key
void Simulation::stageRain()
{
    const Stage stage = Stage::Rain;
    if (!configured.count(stage)) {
        cudaMalloc(&host.water, 256 * sizeof(float)); // expect: SYNC402 expect-severity: note expect-message: lazy: it runs only while its key is not in the set yet (line 43 tests whether 'configured' holds 'stage', a constant key, and line 47 inserts it)
        cudaMemcpy(devicePointers, &host, sizeof(host), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: note
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: note
        configured.insert(stage);
    }
    addRain<<<1, 256, 0, stream>>>(host.water, rate);
}

void Simulation::upload()
{
    cudaMemcpy(devicePointers, &host, sizeof(host), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: note expect-message: lazy: every call from a loop runs only while its key is not in the set yet
}

// 2: find() == end(), an enumerator for key, the upload in a function the branch calls
void Simulation::stageFlow()
{
    if (configured.find(Stage::Flow) == configured.end()) {
        upload();
        configured.insert(Stage::Flow);
    }
    addRain<<<1, 256, 0, stream>>>(host.water, rate);
}

void Simulation::run(int steps)
{
    cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    cudaMalloc(&devicePointers, sizeof(Pointers));
    for (int i = 0; i < steps; ++i) {
        stageRain();
        stageFlow();
    }
    cudaStreamSynchronize(stream);
}

class Keyed {
public:
    void step(int key);
    void loop(int steps);
    void forget(int key) { done.erase(key); }

private:
    std::set<int> done;
    std::set<int> kept;
    std::set<int> other;
    float *buf = nullptr;
    cudaStream_t stream = nullptr;
};

// 3: the key is a parameter: once per key, and the keys may be many
void Keyed::step(int key)
{
    if (!kept.count(key)) {
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: warning
        kept.insert(key);
    }
    addRain<<<1, 256, 0, stream>>>(buf, 1.f);
}

void Keyed::loop(int steps)
{
    for (int i = 0; i < steps; ++i) {
        step(i);
        // 4: the unit erases from 'done' (forget)
        if (!done.count(1)) {
            cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: warning
            done.insert(1);
        }
        // 5: the loop's index for key
        if (other.find(i) == other.end()) {
            cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: warning
            other.insert(i);
        }
        addRain<<<1, 256, 0, stream>>>(buf, 1.f);
    }
}

// 6: a local set, new on every call
void local_set(float *buf, cudaStream_t s, int steps)
{
    for (int i = 0; i < steps; ++i) {
        std::set<int> once;
        if (!once.count(0)) {
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
            once.insert(0);
        }
        addRain<<<1, 256, 0, s>>>(buf, 1.f);
    }
}

// 7: another key inserted; 8: a 'continue' that may skip the insert; 9: a set cleared
static std::set<int> g_ready;
static std::set<int> g_skipped;
static std::set<int> g_cleared;

void other_key(float *buf, cudaStream_t s, int steps, bool bad)
{
    for (int i = 0; i < steps; ++i) {
        if (!g_ready.count(0)) {
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
            g_ready.insert(1);
        }
        if (g_skipped.count(0) == 0) {
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
            if (bad)
                continue;
            g_skipped.insert(0);
        }
        if (!g_cleared.count(0)) {
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
            g_cleared.insert(0);
        }
        addRain<<<1, 256, 0, s>>>(buf, 1.f);
        if (i % 100 == 0)
            g_cleared.clear();
    }
}

// 10: a global set with a constant key: a note
static std::unordered_set<int> g_warmed;

void warmed(float *buf, cudaStream_t s, int steps)
{
    for (int i = 0; i < steps; ++i) {
        if (!g_warmed.count(7)) {
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: lazy: it runs only while its key is not in the set yet (line 167 tests whether 'g_warmed' holds '7', a constant key, and line 169 inserts it)
            g_warmed.insert(7);
        }
        addRain<<<1, 256, 0, s>>>(buf, 1.f);
    }
}

// 11: the object whose member the set is, replaced in the loop
struct Stages {
    std::set<int> configured;
    void prepare(float *buf, cudaStream_t s)
    {
        if (!configured.count(0)) {
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
            configured.insert(0);
        }
        addRain<<<1, 256, 0, s>>>(buf, 1.f);
    }
};

void replaced(Stages &st, float *buf, cudaStream_t s, int steps)
{
    for (int i = 0; i < steps; ++i) {
        st.prepare(buf, s);
        st = Stages();
    }
}

// 12: a key kept in a local that is not const but never written again, and an error's throw
// before the insert (it leaves the loop too): a note
struct Thrown {
    std::set<int> configured;
    float *buf = nullptr;
    void step(cudaStream_t s)
    {
        auto stage = 3;
        if (!configured.count(stage)) {
            if (buf == nullptr)
                throw 1;
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: lazy: it runs only while its key is not in the set yet (line 204 tests whether 'configured' holds 'stage', a constant key, and line 208 inserts it)
            configured.insert(stage);
        }
        addRain<<<1, 256, 0, s>>>(buf, 1.f);
    }
    // 13: a local key written again: a warning
    void step_moved(cudaStream_t s, int n)
    {
        int stage = 3;
        if (n > 2)
            stage = n;
        if (!configured.count(stage)) {
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
            configured.insert(stage);
        }
        addRain<<<1, 256, 0, s>>>(buf, 1.f);
    }
};

void thrown(Thrown &t, cudaStream_t s, int steps)
{
    for (int i = 0; i < steps; ++i) {
        t.step(s);
        t.step_moved(s, i);
    }
}

// 14: a helper that one loop calls under the key guard and another with no guard: a warning
static std::set<int> g_shared;

static void shared_upload(float *dst, const float *src)
{
    cudaMemcpy(dst, src, 4, cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: warning
}

void shared_guarded(float *dst, const float *src, float *buf, cudaStream_t s, int steps)
{
    for (int i = 0; i < steps; ++i) {
        if (!g_shared.count(1)) {
            shared_upload(dst, src);
            g_shared.insert(1);
        }
        addRain<<<1, 256, 0, s>>>(buf, 1.f);
    }
}

void shared_bare(float *dst, const float *src, float *buf, cudaStream_t s, int steps)
{
    for (int i = 0; i < steps; ++i) {
        shared_upload(dst, src);
        addRain<<<1, 256, 0, s>>>(buf, 1.f);
    }
}
