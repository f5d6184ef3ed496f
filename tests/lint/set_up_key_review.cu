// set_up_key_review.cu: a set-up once per constant key (set_up_key.cu) keeps the warning where
// the set's object may be new on every iteration: a method called on a new object (made with
// make_unique, new, a temporary, an element of an array, a range-for's reference, a function
// object), or on a caller's reference; where something may lose the key: an 'extern'
// redeclaration cleared, a lambda or pointer made at namespace scope, a template that clears a
// member of that name; and where a 'throw' before the insert may be caught (the unit has a
// 'try'). Notes: 'this->configured' against 'configured', a destructor of the set's own class
// that clears it, a lasting object declared before the loop.
#include <cuda_runtime.h>
#include <memory>
#include <set>

__global__ void k(float *b) { b[threadIdx.x] += 1.f; }

struct Owned {
    std::set<int> configured;
    float *buf = nullptr;
    void prepare(cudaStream_t s)
    {
        if (!configured.count(0)) {
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
            configured.insert(0);
        }
        k<<<1, 32, 0, s>>>(buf);
    }
};

struct Newed {
    std::set<int> configured;
    float *buf = nullptr;
    void prepare(cudaStream_t s)
    {
        if (!configured.count(0)) {
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
            configured.insert(0);
        }
        k<<<1, 32, 0, s>>>(buf);
    }
};

struct Temporary {
    std::set<int> configured;
    float *buf = nullptr;
    void prepare(cudaStream_t s)
    {
        if (!configured.count(0)) {
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
            configured.insert(0);
        }
        k<<<1, 32, 0, s>>>(buf);
    }
};

struct Element {
    std::set<int> configured;
    float *buf = nullptr;
    void prepare(cudaStream_t s)
    {
        if (!configured.count(0)) {
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
            configured.insert(0);
        }
        k<<<1, 32, 0, s>>>(buf);
    }
};

struct Ranged {
    std::set<int> configured;
    float *buf = nullptr;
    void prepare(cudaStream_t s)
    {
        if (!configured.count(0)) {
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
            configured.insert(0);
        }
        k<<<1, 32, 0, s>>>(buf);
    }
};

// 1: a new object on every iteration, five ways (one class each)
void fresh_objects(cudaStream_t s, int steps, Element *elements, Ranged (&ranged)[4])
{
    Newed *p = nullptr;
    for (int i = 0; i < steps; ++i) {
        auto owned = std::make_unique<Owned>();
        owned->prepare(s);
        p = new Newed;
        p->prepare(s);
        delete p;
        Temporary{}.prepare(s);
        elements[i].prepare(s);
    }
    for (Ranged &r : ranged)
        r.prepare(s);
}

struct Worker {
    std::set<int> seen;
    float *buf = nullptr;
    cudaStream_t s = nullptr;
    void operator()()
    {
        if (!seen.count(0)) {
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
            seen.insert(0);
        }
        k<<<1, 32, 0, s>>>(buf);
    }
};

// 2: a function object made on every iteration
void functor(int steps)
{
    for (int i = 0; i < steps; ++i) {
        Worker w;
        w();
    }
}

struct Kept {
    std::set<int> configured;
    float *buf = nullptr;
    void prepare(cudaStream_t s)
    {
        if (!this->configured.count(0)) {
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: lazy: it runs only while its key is not in the set yet (line 125 tests whether 'this->configured' holds '0', a constant key, and line 127 inserts it)
            configured.insert(0);
        }
        k<<<1, 32, 0, s>>>(buf);
    }
    ~Kept() { configured.clear(); }
};

// 3: one object declared before the loop, its destructor clearing the set: a note
void kept(cudaStream_t s, int steps)
{
    Kept st;
    for (int i = 0; i < steps; ++i)
        st.prepare(s);
}

// 4: sets something may empty: an 'extern' redeclaration cleared, a namespace-scope lambda, a
// namespace-scope pointer, a template that clears a member of the name
extern std::set<int> g_declared;
std::set<int> g_declared;
static std::set<int> g_lambda;
static std::set<int> g_pointed;
static auto g_reset = [] { g_lambda.clear(); };
static std::set<int> *g_alias = &g_pointed;
void forget_declared();

struct Holder {
    std::set<int> done;
    float *buf = nullptr;
    void step(cudaStream_t s)
    {
        if (!done.count(0)) {
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
            done.insert(0);
        }
        k<<<1, 32, 0, s>>>(buf);
    }
};

template <class T> void wipe(T &o) { o.done.clear(); }

void emptied(float *buf, cudaStream_t s, int steps)
{
    Holder h;
    for (int i = 0; i < steps; ++i) {
        if (!g_declared.count(0)) {
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
            g_declared.insert(0);
        }
        if (!g_lambda.count(0)) {
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
            g_lambda.insert(0);
        }
        if (!g_pointed.count(0)) {
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
            g_pointed.insert(0);
        }
        h.step(s);
        k<<<1, 32, 0, s>>>(buf);
        if (i % 10 == 0) {
            forget_declared();
            g_reset();
            g_alias->clear();
            wipe(h);
        }
    }
}

void forget_declared() { g_declared.clear(); }

// 5: a throw before the insert, caught in the loop: the set-up runs again
static std::set<int> g_thrown;

void thrown(float *buf, cudaStream_t s, int steps, bool bad)
{
    for (int i = 0; i < steps; ++i) {
        try {
            if (!g_thrown.count(0)) {
                cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
                if (bad)
                    throw 1;
                g_thrown.insert(0);
            }
        } catch (int) {
        }
        k<<<1, 32, 0, s>>>(buf);
    }
}

// 6 (second review): a call in a lambda the loop runs; a global pointer made to point to a new
// object in the loop; an object rebuilt in place; a set emptied inside a look-up's argument; a
// guard in an inner loop that queues nothing, the object new on every iteration of the outer one
struct InLambda {
    std::set<int> seen;
    float *buf = nullptr;
    void prepare(cudaStream_t s)
    {
        if (!seen.count(0)) {
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
            seen.insert(0);
        }
        k<<<1, 32, 0, s>>>(buf);
    }
};

struct Repointed {
    std::set<int> seen;
    float *buf = nullptr;
    void prepare(cudaStream_t s)
    {
        if (!seen.count(0)) {
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
            seen.insert(0);
        }
        k<<<1, 32, 0, s>>>(buf);
    }
};
static Repointed *g_current = nullptr;

struct Rebuilt {
    std::set<int> seen;
    float *buf = nullptr;
    void prepare(cudaStream_t s)
    {
        if (!seen.count(0)) {
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
            seen.insert(0);
        }
        k<<<1, 32, 0, s>>>(buf);
    }
};
static Rebuilt g_rebuilt;

struct Retried {
    std::set<int> seen;
    float *buf = nullptr;
    void prepare(cudaStream_t s, int tries)
    {
        for (int t = 0; t < tries; ++t) {
            if (!seen.count(0)) {
                cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
                seen.insert(0);
            }
        }
        k<<<1, 32, 0, s>>>(buf);
    }
};

static std::set<int> g_extracted;
static std::set<int> g_old;

void second_review(float *buf, cudaStream_t s, int steps)
{
    for (int i = 0; i < steps; ++i) {
        InLambda st;
        auto run = [&] { st.prepare(s); };
        run();
        g_current = new Repointed;
        g_current->prepare(s);
        delete g_current;
        g_rebuilt.~Rebuilt();
        new (&g_rebuilt) Rebuilt();
        g_rebuilt.prepare(s);
        if (!g_extracted.count(0)) {
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
            g_extracted.insert(0);
        }
        g_old.insert(g_extracted.extract(0));
        Retried r;
        r.prepare(s, 3);
        k<<<1, 32, 0, s>>>(buf);
    }
}

// 7: a member object of 'this' called in the method's own loop: a note
struct Simulation {
    InLambda stage;
    void run(cudaStream_t s, int steps)
    {
        for (int i = 0; i < steps; ++i)
            kept_stage.prepare(s);
    }
    Kept kept_stage;
};
