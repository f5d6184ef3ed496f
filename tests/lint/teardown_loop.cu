// teardown_loop.cu: a loop in a destructor runs when an object is destroyed, once per object,
// not on a hot path: what it reaches is teardown, a note, also through a member function the
// loop calls (a pool that frees every block it still holds). The same kind of member function
// called from a loop of a function that runs on every step too stays a warning.
#include <cuda_runtime.h>
#include <map>

class Pool {
public:
    ~Pool()
    {
        while (!blocks_.empty())
            release(blocks_.begin()->first, blocks_.begin()->second);
    }
    void release(void *p, bool host)
    {
        if (host) {
            cudaFreeHost(p); // expect: SYNC402 expect-severity: note expect-message: teardown: the loop at teardown_loop.cu:12 runs when an object is destroyed: 'Pool::~Pool' is a destructor
        } else {
            cudaFreeAsync(p, stream_);
            cudaStreamSynchronize(stream_); // expect: SYNC401 expect-severity: note expect-message: teardown: the loop at teardown_loop.cu:12 runs when an object is destroyed
        }
        blocks_.erase(p);
    }
    std::map<void *, bool> blocks_;
    cudaStream_t stream_;
};

class Streams {
public:
    ~Streams()
    {
        for (int i = 0; i < count_; i++) {
            cudaMemsetAsync(bufs_[i], 0, 256, streams_[i]);
            cudaStreamSynchronize(streams_[i]); // expect: SYNC401 expect-severity: note expect-message: teardown: the loop at line 33 runs when an object is destroyed: 'Streams::~Streams' is a destructor
        }
    }
    int count_;
    void *bufs_[4];
    cudaStream_t streams_[4];
};

class Cache {
public:
    ~Cache()
    {
        for (int i = 0; i < 8; i++)
            drop(i);
    }
    void trim(int steps)
    {
        for (int t = 0; t < steps; t++) {
            cudaMemsetAsync(slots_[t % 8], 0, 64, stream_);
            drop(t % 8);
        }
    }
    void drop(int i)
    {
        cudaFreeAsync(slots_[i], stream_);
        cudaStreamSynchronize(stream_); // expect: SYNC401 expect-severity: warning
    }
    void *slots_[8];
    cudaStream_t stream_;
};
