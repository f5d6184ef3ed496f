// member_counters.cu: a class reads its counters back into a member buffer of pinned memory in
// a method that ends with the wait (the copy, then the wait), and what its loop does next sizes
// device work with them, in the loop itself or in a method of the same object that the loop
// calls (a decoder's per-frame step: copy the lane counters back and wait, check them, then copy
// as many queued tokens as they count). The wait is inherent as written: a note. Twins where the
// next device work does not need the counters, or may run on another object, stay warnings.
#include <cstdio>
#include <cuda_runtime.h>

struct Counters {
    int end;
    int overflow;
};

__global__ void expand(Counters *c, int lanes) { c[threadIdx.x % lanes].end = 1; }
__global__ void prune(float *q, int n) { q[threadIdx.x % n] = 0.f; }

void log_warning(const char *what); // another unit's
void publish(int end);                // another unit's

#define LOG_WARN(what) log_warning(what)

// The loop's next device work is a method's copy, sized by the counters; a check of them that
// only logs (through another unit's function, in a log line) comes first.
class Decoder {
    Counters *h_counters_ = nullptr;
    Counters *d_counters_ = nullptr;
    float *d_queue_ = nullptr;
    float *h_queue_ = nullptr;
    int lanes_ = 4;
    cudaStream_t st_ = nullptr;

    void CountersToHostSync()
    {
        cudaMemcpyAsync(h_counters_, d_counters_, lanes_ * sizeof(Counters), cudaMemcpyDeviceToHost, st_);
        cudaStreamSynchronize(st_); // expect: SYNC401 expect-severity: note expect-message: inherent: every call from a loop is followed by device work that needs the value read back at line 35 (the call at member_counters.cu:67: the next device work needs the value (line 69 calls 'Decoder::CopyQueue()', whose first device work, at line 50, sizes a copy with 'n', computed from it); the statements before it only test, bound or compute with it on the host)
    }

    void CheckOverflow()
    {
        for (int l = 0; l < lanes_; ++l) {
            if (h_counters_[l].overflow)
                LOG_WARN("a lane overflowed");
        }
    }

    void CopyQueue()
    {
        int n = h_counters_[lanes_ - 1].end;
        cudaMemcpyAsync(h_queue_, d_queue_, n * sizeof(float), cudaMemcpyDeviceToHost, st_);
    }

  public:
    Decoder()
    {
        cudaStreamCreateWithFlags(&st_, cudaStreamNonBlocking);
        cudaMallocHost(&h_counters_, 4 * sizeof(Counters));
        cudaMallocHost(&h_queue_, 1024 * sizeof(float));
        cudaMalloc(&d_counters_, 4 * sizeof(Counters));
        cudaMalloc(&d_queue_, 1024 * sizeof(float));
    }

    void Advance(int frames)
    {
        for (int f = 0; f < frames; ++f) {
            expand<<<1, 32, 0, st_>>>(d_counters_, lanes_);
            CountersToHostSync();
            CheckOverflow();
            CopyQueue();
        }
    }
};

// The copy comes two calls down, after an event is recorded, another stream made to wait for it
// and an earlier event waited for: none of that is device work to overlap.
class Marked {
    Counters *h_counters_ = nullptr;
    Counters *d_counters_ = nullptr;
    float *d_queue_ = nullptr;
    float *h_queue_ = nullptr;
    int lanes_ = 4;
    cudaStream_t st_ = nullptr, copy_st_ = nullptr;
    cudaEvent_t ready_ = nullptr, copied_ = nullptr;

    void CountersToHostSync()
    {
        cudaMemcpyAsync(h_counters_, d_counters_, lanes_ * sizeof(Counters), cudaMemcpyDeviceToHost, st_);
        cudaStreamSynchronize(st_); // expect: SYNC401 expect-severity: note expect-message: (the call at member_counters.cu:123: the next device work needs the value (line 124 calls 'Marked::CopyAfterMark()', whose first device work, at line 102, calls 'Marked::CopyQueue()', whose first device work, at line 94, sizes a copy with 'n', computed from it)
    }

    void CopyQueue()
    {
        int n = h_counters_[0].end;
        cudaMemcpyAsync(h_queue_, d_queue_, n * sizeof(float), cudaMemcpyDeviceToHost, copy_st_);
    }

    void CopyAfterMark()
    {
        cudaEventRecord(ready_, st_);
        cudaStreamWaitEvent(copy_st_, ready_, 0);
        cudaEventSynchronize(copied_); // expect: SYNC401 expect-severity: warning
        CopyQueue();
        cudaEventRecord(copied_, copy_st_);
    }

  public:
    Marked()
    {
        cudaStreamCreateWithFlags(&st_, cudaStreamNonBlocking);
        cudaStreamCreateWithFlags(&copy_st_, cudaStreamNonBlocking);
        cudaEventCreate(&ready_);
        cudaEventCreate(&copied_);
        cudaMallocHost(&h_counters_, 4 * sizeof(Counters));
        cudaMallocHost(&h_queue_, 1024 * sizeof(float));
        cudaMalloc(&d_counters_, 4 * sizeof(Counters));
        cudaMalloc(&d_queue_, 1024 * sizeof(float));
    }

    void Advance(int frames)
    {
        for (int f = 0; f < frames; ++f) {
            expand<<<1, 32, 0, st_>>>(d_counters_, lanes_);
            CountersToHostSync();
            CopyAfterMark();
        }
    }
};

// The caller sizes the copy itself, on the next statement.
class Inline {
    Counters *h_counters_ = nullptr;
    Counters *d_counters_ = nullptr;
    float *d_queue_ = nullptr;
    float *h_queue_ = nullptr;
    cudaStream_t st_ = nullptr;

    void CountersToHostSync()
    {
        cudaMemcpyAsync(h_counters_, d_counters_, 4 * sizeof(Counters), cudaMemcpyDeviceToHost, st_);
        cudaStreamSynchronize(st_); // expect: SYNC401 expect-severity: note expect-message: (the call at member_counters.cu:157: the next statement needs the value (line 158 sizes a copy with it))
    }

  public:
    Inline()
    {
        cudaStreamCreateWithFlags(&st_, cudaStreamNonBlocking);
        cudaMallocHost(&h_counters_, 4 * sizeof(Counters));
        cudaMallocHost(&h_queue_, 1024 * sizeof(float));
        cudaMalloc(&d_counters_, 4 * sizeof(Counters));
        cudaMalloc(&d_queue_, 1024 * sizeof(float));
    }

    void Advance(int frames)
    {
        for (int f = 0; f < frames; ++f) {
            expand<<<1, 32, 0, st_>>>(d_counters_, 4);
            CountersToHostSync();
            cudaMemcpyAsync(h_queue_, d_queue_, h_counters_[3].end * sizeof(float), cudaMemcpyDeviceToHost, st_);
        }
    }
};

// The copy is a method of its own, which the waiting method calls first.
class Split {
    Counters *h_counters_ = nullptr;
    Counters *d_counters_ = nullptr;
    float *d_queue_ = nullptr;
    float *h_queue_ = nullptr;
    cudaStream_t st_ = nullptr;

    void CountersToHostAsync()
    {
        cudaMemcpyAsync(h_counters_, d_counters_, 4 * sizeof(Counters), cudaMemcpyDeviceToHost, st_);
    }

    void CountersToHostSync()
    {
        CountersToHostAsync();
        cudaStreamSynchronize(st_); // expect: SYNC401 expect-severity: note expect-message: needs the value read back at line 173 (the call at member_counters.cu:196: the next statement needs the value
    }

  public:
    Split()
    {
        cudaStreamCreateWithFlags(&st_, cudaStreamNonBlocking);
        cudaMallocHost(&h_counters_, 4 * sizeof(Counters));
        cudaMallocHost(&h_queue_, 1024 * sizeof(float));
        cudaMalloc(&d_counters_, 4 * sizeof(Counters));
        cudaMalloc(&d_queue_, 1024 * sizeof(float));
    }

    void Advance(int frames)
    {
        for (int f = 0; f < frames; ++f) {
            expand<<<1, 32, 0, st_>>>(d_counters_, 4);
            CountersToHostSync();
            cudaMemcpyAsync(h_queue_, d_queue_, h_counters_[3].end * sizeof(float), cudaMemcpyDeviceToHost, st_);
        }
    }
};

// The same, with each call in an error-checking macro that expands to a block whose 'if' tests
// the call's result, assigned to a local ('if ((ret = (call)) != 0)', Kaldi's CU_SAFE_CALL).
#define SAFE_CALL(call)                                                                          \
    {                                                                                            \
        int ret;                                                                                 \
        if ((ret = (call)) != 0) {                                                               \
            LOG_WARN("a CUDA call failed");                                                      \
        }                                                                                        \
    }

class Checked {
    Counters *h_counters_ = nullptr;
    Counters *d_counters_ = nullptr;
    float *d_queue_ = nullptr;
    float *h_queue_ = nullptr;
    cudaStream_t st_ = nullptr;

    void CountersToHostAsync()
    {
        SAFE_CALL(cudaMemcpyAsync(h_counters_, d_counters_, 4 * sizeof(Counters), cudaMemcpyDeviceToHost, st_));
    }

    void CountersToHostSync()
    {
        CountersToHostAsync();
        SAFE_CALL(cudaStreamSynchronize(st_)); // expect: SYNC401 expect-severity: note expect-message: needs the value read back at line 221 (the call at member_counters.cu:244: the next statement needs the value
    }

  public:
    Checked()
    {
        cudaStreamCreateWithFlags(&st_, cudaStreamNonBlocking);
        cudaMallocHost(&h_counters_, 4 * sizeof(Counters));
        cudaMallocHost(&h_queue_, 1024 * sizeof(float));
        cudaMalloc(&d_counters_, 4 * sizeof(Counters));
        cudaMalloc(&d_queue_, 1024 * sizeof(float));
    }

    void Advance(int frames)
    {
        for (int f = 0; f < frames; ++f) {
            expand<<<1, 32, 0, st_>>>(d_counters_, 4);
            CountersToHostSync();
            SAFE_CALL(cudaMemcpyAsync(h_queue_, d_queue_, h_counters_[3].end * sizeof(float), cudaMemcpyDeviceToHost, st_));
        }
    }
};

// Twins, warnings. The base of each: the same members, stream and wrapper.
class Base {
  protected:
    Counters *h_counters_ = nullptr;
    Counters *d_counters_ = nullptr;
    float *d_queue_ = nullptr;
    float *h_queue_ = nullptr;
    cudaStream_t st_ = nullptr;

    Base()
    {
        cudaStreamCreateWithFlags(&st_, cudaStreamNonBlocking);
        cudaMallocHost(&h_counters_, 4 * sizeof(Counters));
        cudaMallocHost(&h_queue_, 1024 * sizeof(float));
        cudaMalloc(&d_counters_, 4 * sizeof(Counters));
        cudaMalloc(&d_queue_, 1024 * sizeof(float));
    }
};

// The method's first device work is a launch the counters do not size: the wait could follow it.
class PruneFirst : Base {
    void CountersToHostSync()
    {
        cudaMemcpyAsync(h_counters_, d_counters_, 4 * sizeof(Counters), cudaMemcpyDeviceToHost, st_);
        cudaStreamSynchronize(st_); // expect: SYNC401 expect-severity: warning
    }

    void PruneAndCopy()
    {
        prune<<<1, 32, 0, st_>>>(d_queue_, 1024);
        int n = h_counters_[0].end;
        cudaMemcpyAsync(h_queue_, d_queue_, n * sizeof(float), cudaMemcpyDeviceToHost, st_);
    }

  public:
    void Advance(int frames)
    {
        for (int f = 0; f < frames; ++f) {
            expand<<<1, 32, 0, st_>>>(d_counters_, 4);
            CountersToHostSync();
            PruneAndCopy();
        }
    }
};

// The wrapper runs on another object: the copy after it reads this object's counters.
class OtherObject : Base {
    OtherObject *peer_ = nullptr;

    void CountersToHostSync()
    {
        cudaMemcpyAsync(h_counters_, d_counters_, 4 * sizeof(Counters), cudaMemcpyDeviceToHost, st_);
        cudaStreamSynchronize(st_); // expect: SYNC401 expect-severity: warning
    }

    void CopyQueue()
    {
        int n = h_counters_[0].end;
        cudaMemcpyAsync(h_queue_, d_queue_, n * sizeof(float), cudaMemcpyDeviceToHost, st_);
    }

  public:
    void Advance(int frames)
    {
        for (int f = 0; f < frames; ++f) {
            expand<<<1, 32, 0, st_>>>(d_counters_, 4);
            peer_->CountersToHostSync();
            CopyQueue();
        }
    }
};

// Between the wait and the sized copy the host hands the counters to another unit's function,
// which may queue work of its own.
class Unseen : Base {
    void CountersToHostSync()
    {
        cudaMemcpyAsync(h_counters_, d_counters_, 4 * sizeof(Counters), cudaMemcpyDeviceToHost, st_);
        cudaStreamSynchronize(st_); // expect: SYNC401 expect-severity: warning
    }

    void Report() { publish(h_counters_[0].end); }

    void CopyQueue()
    {
        int n = h_counters_[0].end;
        cudaMemcpyAsync(h_queue_, d_queue_, n * sizeof(float), cudaMemcpyDeviceToHost, st_);
    }

  public:
    void Advance(int frames)
    {
        for (int f = 0; f < frames; ++f) {
            expand<<<1, 32, 0, st_>>>(d_counters_, 4);
            CountersToHostSync();
            Report();
            CopyQueue();
        }
    }
};

// One loop sizes the copy with the counters; another launches work they do not size first.
class TwoLoops : Base {
    void CountersToHostSync()
    {
        cudaMemcpyAsync(h_counters_, d_counters_, 4 * sizeof(Counters), cudaMemcpyDeviceToHost, st_);
        cudaStreamSynchronize(st_); // expect: SYNC401 expect-severity: warning
    }

    void CopyQueue()
    {
        int n = h_counters_[0].end;
        cudaMemcpyAsync(h_queue_, d_queue_, n * sizeof(float), cudaMemcpyDeviceToHost, st_);
    }

  public:
    void Advance(int frames)
    {
        for (int f = 0; f < frames; ++f) {
            expand<<<1, 32, 0, st_>>>(d_counters_, 4);
            CountersToHostSync();
            CopyQueue();
        }
    }

    void Flush(int rounds)
    {
        for (int r = 0; r < rounds; ++r) {
            expand<<<1, 32, 0, st_>>>(d_counters_, 4);
            CountersToHostSync();
            prune<<<1, 32, 0, st_>>>(d_queue_, 1024);
        }
    }
};

// The method may return before its copy: then the caller's next work comes first.
class EarlyReturn : Base {
    int lanes_ = 4;

    void CountersToHostSync()
    {
        cudaMemcpyAsync(h_counters_, d_counters_, 4 * sizeof(Counters), cudaMemcpyDeviceToHost, st_);
        cudaStreamSynchronize(st_); // expect: SYNC401 expect-severity: warning
    }

    void CopyQueue()
    {
        if (lanes_ == 0)
            return;
        int n = h_counters_[0].end;
        cudaMemcpyAsync(h_queue_, d_queue_, n * sizeof(float), cudaMemcpyDeviceToHost, st_);
    }

  public:
    void Advance(int frames)
    {
        for (int f = 0; f < frames; ++f) {
            expand<<<1, 32, 0, st_>>>(d_counters_, 4);
            CountersToHostSync();
            CopyQueue();
            prune<<<1, 32, 0, st_>>>(d_queue_, 1024);
        }
    }
};

// The wait is not the wrapper's last statement.
class NotLast : Base {
    int syncs_ = 0;

    void CountersToHostSync()
    {
        cudaMemcpyAsync(h_counters_, d_counters_, 4 * sizeof(Counters), cudaMemcpyDeviceToHost, st_);
        cudaStreamSynchronize(st_); // expect: SYNC401 expect-severity: warning
        ++syncs_;
    }

  public:
    void Advance(int frames)
    {
        for (int f = 0; f < frames; ++f) {
            expand<<<1, 32, 0, st_>>>(d_counters_, 4);
            CountersToHostSync();
            cudaMemcpyAsync(h_queue_, d_queue_, h_counters_[0].end * sizeof(float), cudaMemcpyDeviceToHost, st_);
        }
    }
};

// The copy is a virtual method's: an override may do other work first.
class Virtual : Base {
    void CountersToHostSync()
    {
        cudaMemcpyAsync(h_counters_, d_counters_, 4 * sizeof(Counters), cudaMemcpyDeviceToHost, st_);
        cudaStreamSynchronize(st_); // expect: SYNC401 expect-severity: warning
    }

  protected:
    virtual void CopyQueue()
    {
        int n = h_counters_[0].end;
        cudaMemcpyAsync(h_queue_, d_queue_, n * sizeof(float), cudaMemcpyDeviceToHost, st_);
    }

  public:
    void Advance(int frames)
    {
        for (int f = 0; f < frames; ++f) {
            expand<<<1, 32, 0, st_>>>(d_counters_, 4);
            CountersToHostSync();
            CopyQueue();
        }
    }
};

// Review of session 40. A function of the unit hands the counters to another unit's function
// (seen whole only where every function it calls is).
static void report_counters(const Counters *c) { publish(c[0].end); }

class UnseenBelow : Base {
    void CountersToHostSync()
    {
        cudaMemcpyAsync(h_counters_, d_counters_, 4 * sizeof(Counters), cudaMemcpyDeviceToHost, st_);
        cudaStreamSynchronize(st_); // expect: SYNC401 expect-severity: warning
    }

    void CopyQueue()
    {
        int n = h_counters_[0].end;
        cudaMemcpyAsync(h_queue_, d_queue_, n * sizeof(float), cudaMemcpyDeviceToHost, st_);
    }

  public:
    void Advance(int frames)
    {
        for (int f = 0; f < frames; ++f) {
            expand<<<1, 32, 0, st_>>>(d_counters_, 4);
            CountersToHostSync();
            report_counters(h_counters_);
            CopyQueue();
        }
    }
};

// The next method sizes its copy with another object's counters (a field of the same class).
class PeerSized : Base {
    PeerSized *peer_ = nullptr;

    void CountersToHostSync()
    {
        cudaMemcpyAsync(h_counters_, d_counters_, 4 * sizeof(Counters), cudaMemcpyDeviceToHost, st_);
        cudaStreamSynchronize(st_); // expect: SYNC401 expect-severity: warning
    }

    void CopyPeerQueue()
    {
        int n = peer_->h_counters_[0].end;
        cudaMemcpyAsync(h_queue_, d_queue_, n * sizeof(float), cudaMemcpyDeviceToHost, st_);
    }

  public:
    void Advance(int frames)
    {
        for (int f = 0; f < frames; ++f) {
            expand<<<1, 32, 0, st_>>>(d_counters_, 4);
            CountersToHostSync();
            CopyPeerQueue();
        }
    }
};

// The wrapper reads another object's counters back; this object's size the copy after it.
class PeerRead : Base {
    PeerRead *peer_ = nullptr;

    void CountersToHostSync()
    {
        cudaMemcpyAsync(peer_->h_counters_, d_counters_, 4 * sizeof(Counters), cudaMemcpyDeviceToHost, st_);
        cudaStreamSynchronize(st_); // expect: SYNC401 expect-severity: warning
    }

    void CopyQueue()
    {
        int n = h_counters_[0].end;
        cudaMemcpyAsync(h_queue_, d_queue_, n * sizeof(float), cudaMemcpyDeviceToHost, st_);
    }

  public:
    void Advance(int frames)
    {
        for (int f = 0; f < frames; ++f) {
            expand<<<1, 32, 0, st_>>>(d_counters_, 4);
            CountersToHostSync();
            CopyQueue();
        }
    }
};

// The counters are overwritten before the sized work: it no longer needs what was read back
// (a 'Reset()' method, or a store in the loop).
class Overwritten : Base {
    void CountersToHostSync()
    {
        cudaMemcpyAsync(h_counters_, d_counters_, 4 * sizeof(Counters), cudaMemcpyDeviceToHost, st_);
        cudaStreamSynchronize(st_); // expect: SYNC401 expect-severity: warning
    }

    void Reset() { memset(h_counters_, 0, 4 * sizeof(Counters)); }

    void CopyQueue()
    {
        int n = h_counters_[3].end;
        cudaMemcpyAsync(h_queue_, d_queue_, n * sizeof(float), cudaMemcpyDeviceToHost, st_);
    }

  public:
    void Advance(int frames)
    {
        for (int f = 0; f < frames; ++f) {
            expand<<<1, 32, 0, st_>>>(d_counters_, 4);
            CountersToHostSync();
            Reset();
            CopyQueue();
        }
    }
};

class Stored : Base {
    void CountersToHostSync()
    {
        cudaMemcpyAsync(h_counters_, d_counters_, 4 * sizeof(Counters), cudaMemcpyDeviceToHost, st_);
        cudaStreamSynchronize(st_); // expect: SYNC401 expect-severity: warning
    }

  public:
    void Advance(int frames)
    {
        for (int f = 0; f < frames; ++f) {
            expand<<<1, 32, 0, st_>>>(d_counters_, 4);
            CountersToHostSync();
            h_counters_[3].end = 16;
            cudaMemcpyAsync(h_queue_, d_queue_, h_counters_[3].end * sizeof(float), cudaMemcpyDeviceToHost, st_);
        }
    }
};

int main()
{
    Decoder d;
    d.Advance(100);
    Marked m;
    m.Advance(100);
    Inline i;
    i.Advance(100);
    Split sp;
    sp.Advance(100);
    Checked ck;
    ck.Advance(100);
    PruneFirst p;
    p.Advance(100);
    OtherObject o;
    o.Advance(100);
    Unseen u;
    u.Advance(100);
    TwoLoops t;
    t.Advance(100);
    t.Flush(10);
    EarlyReturn e;
    e.Advance(100);
    NotLast nl;
    nl.Advance(100);
    Virtual v;
    v.Advance(100);
    Overwritten ow;
    ow.Advance(100);
    Stored st;
    st.Advance(100);
    UnseenBelow ub;
    ub.Advance(100);
    PeerSized ps;
    ps.Advance(100);
    PeerRead pr;
    pr.Advance(100);
    return 0;
}
