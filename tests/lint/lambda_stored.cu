// lambda_stored.cu: a lambda written in a loop runs in that loop only where the loop invokes it:
// called at once, handed to a call that is no store (an algorithm, a project function: the
// callee may call it), or kept in a local, a container or a std::function that the same loop
// then names otherwise than by storing into it or assigning to it. Stored into a container
// (push_back, emplace_back, insert, emplace, push, assign, an element assigned) or assigned to
// a variable or std::function the loop does not call, it runs after the loop, so the waits it
// reaches are not "on every iteration" (no SYNC401). A field or global stored into keeps the
// loop's warning when the loop calls a function of the project (it may call what was stored).
#include <algorithm>
#include <cuda_runtime.h>
#include <functional>
#include <map>
#include <queue>
#include <vector>

__global__ void gain(float *p) { p[threadIdx.x] += 1.0f; }

void pushed(float *p, cudaStream_t s)
{
    gain<<<1, 32, 0, s>>>(p);
    cudaStreamSynchronize(s);
}

void assigned_later(float *p, cudaStream_t s)
{
    gain<<<1, 32, 0, s>>>(p);
    cudaStreamSynchronize(s);
}

void element_set(float *p, cudaStream_t s)
{
    gain<<<1, 32, 0, s>>>(p);
    cudaStreamSynchronize(s);
}

void bound_pushed(float *p, cudaStream_t s)
{
    gain<<<1, 32, 0, s>>>(p);
    cudaStreamSynchronize(s);
}

void queued(float *p, cudaStream_t s)
{
    gain<<<1, 32, 0, s>>>(p);
    cudaStreamSynchronize(s);
}

void mapped(float *p, cudaStream_t s)
{
    gain<<<1, 32, 0, s>>>(p);
    cudaStreamSynchronize(s);
}

void called_here(float *p, cudaStream_t s)
{
    gain<<<1, 32, 0, s>>>(p);
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
}

void at_once(float *p, cudaStream_t s)
{
    gain<<<1, 32, 0, s>>>(p);
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
}

void handed_on(float *p, cudaStream_t s)
{
    gain<<<1, 32, 0, s>>>(p);
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
}

void algorithm(float *p, cudaStream_t s)
{
    gain<<<1, 32, 0, s>>>(p);
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
}

void element_called(float *p, cudaStream_t s)
{
    gain<<<1, 32, 0, s>>>(p);
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
}

void field_kept(float *p, cudaStream_t s)
{
    gain<<<1, 32, 0, s>>>(p);
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
}

void moved(float *p, cudaStream_t s)
{
    gain<<<1, 32, 0, s>>>(p);
    cudaStreamSynchronize(s);
}

void field_only(float *p, cudaStream_t s)
{
    gain<<<1, 32, 0, s>>>(p);
    cudaStreamSynchronize(s);
}

void outer_runs(float *p, cudaStream_t s)
{
    gain<<<1, 32, 0, s>>>(p);
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-message: called from the loop at lambda_stored.cu:175
}

void on_devices(int n, const std::function<void(int)> &f);
void drain_pending();

struct Pool {
    std::vector<std::function<void()>> tasks;
    void fill(float **bufs, int n, cudaStream_t s)
    {
        for (int i = 0; i < n; i++) {
            tasks.push_back([=] { field_kept(bufs[i], s); });
            drain_pending(); /* may run what the field holds */
        }
    }
};

struct Queue {
    std::vector<std::function<void()>> tasks;
    void fill(float **bufs, int n, cudaStream_t s)
    {
        for (int i = 0; i < n; i++) {
            tasks.push_back([=] { field_only(bufs[i], s); }); /* the loop calls nothing else */
            gain<<<1, 32, 0, s>>>(bufs[i]);
        }
    }
};

void stores(std::vector<std::function<void()>> &later, float **bufs, int n, cudaStream_t s)
{
    std::function<void()> last;
    std::vector<std::function<void()>> slots(n);
    std::queue<std::function<void()>> fifo;
    std::map<int, std::function<void()>> by_index;
    for (int i = 0; i < n; i++) {
        later.push_back([=] { pushed(bufs[i], s); });
        last = [=] { assigned_later(bufs[i], s); };
        slots[i] = [=] { element_set(bufs[i], s); };
        auto task = [=] { bound_pushed(bufs[i], s); };
        later.emplace_back(task);
        fifo.push([=] { queued(bufs[i], s); });
        by_index.emplace(i, [=] { mapped(bufs[i], s); });
        auto kept = [=] { moved(bufs[i], s); };
        later.push_back(std::move(kept));
        later.push_back([=] {
            gain<<<1, 32, 0, s>>>(bufs[i]);
            cudaStreamSynchronize(s);
        });
    }
    last();
}

void runs(float **bufs, int n, cudaStream_t s)
{
    std::function<void()> now;
    std::vector<std::function<void()>> slots(n);
    for (int i = 0; i < n; i++) {
        now = [=] { called_here(bufs[i], s); };
        now();
        [&] { at_once(bufs[i], s); }();
        on_devices(2, [&](int d) { handed_on(bufs[d], s); });
        std::for_each(bufs, bufs + 1, [&](float *b) { algorithm(b, s); });
        slots[i] = [=] { element_called(bufs[i], s); };
        slots[i]();
    }
}

/* Assigned in the inner loop, called in the outer one: the outer loop runs it. */
void nested(float **bufs, int n, cudaStream_t s)
{
    for (int i = 0; i < n; i++) {
        std::function<void()> pending;
        for (int j = 0; j < n; j++) {
            gain<<<1, 32, 0, s>>>(bufs[j]);
            pending = [=] { outer_runs(bufs[j], s); };
        }
        pending();
    }
}

/* Work only in a lambda the loop stores: the loop enqueues nothing, and its wait is no SYNC401. */
void work_stored(std::vector<std::function<void()>> &later, float **bufs, int n, cudaStream_t s)
{
    for (int i = 0; i < n; i++) {
        later.push_back([=] { gain<<<1, 32, 0, s>>>(bufs[i]); });
        cudaStreamSynchronize(s);
    }
}
