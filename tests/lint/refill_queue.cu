// refill_queue.cu: a batch loop takes one request at a time from a queue and, when the queue
// runs dry, calls a function that fills it with up to a batch of requests in a loop and then
// waits once for the batch's uploads. The wait runs once per batch the refill queues, not on
// every iteration of the taking loop: a note. A call under the same test whose branch adds one
// request (no loop), and a wait the taking loop makes itself, run on every iteration: warnings.
// The same refill written inside the taking loop: a note.
#include <cuda_runtime.h>
#include <queue>
#include <vector>

__global__ void decode(float *x) { x[threadIdx.x] += 1.0f; }

struct Batcher {
    std::queue<int> ready;
    std::vector<int> taken;
    float *d;
    float *h;
    cudaStream_t s;
    size_t max_batch;

    void FillQueue();
    void AddOne();
    void Take();
    void TakeOneByOne();
    void TakeInline();
};

void Batcher::FillQueue()
{
    do {
        cudaMemcpyAsync(d, h, 256 * sizeof(float), cudaMemcpyHostToDevice, s);
        decode<<<1, 32, 0, s>>>(d);
        ready.push(1);
    } while (ready.size() < max_batch);
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: refill: every call from a loop runs only when a queue it fills is empty
}

void Batcher::AddOne()
{
    decode<<<1, 32, 0, s>>>(d);
    ready.push(1);
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
}

void Batcher::Take()
{
    while (taken.size() < max_batch) {
        if (ready.size() == 0)
            FillQueue();
        if (ready.empty())
            break;
        taken.push_back(ready.front());
        ready.pop();
        decode<<<1, 32, 0, s>>>(d);
    }
}

void Batcher::TakeOneByOne()
{
    while (taken.size() < max_batch) {
        if (ready.empty())
            AddOne();
        taken.push_back(ready.front());
        ready.pop();
        decode<<<1, 32, 0, s>>>(d);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
    }
}

void Batcher::TakeInline()
{
    while (taken.size() < max_batch) {
        if (!ready.size()) {
            for (size_t i = 0; i < max_batch; i++) {
                decode<<<1, 32, 0, s>>>(d);
                ready.push(1);
            }
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: refill: it runs only when a queue it fills is empty (line 73 tests 'ready' for emptiness
        }
        taken.push_back(ready.front());
        ready.pop();
        decode<<<1, 32, 0, s>>>(d);
    }
}
