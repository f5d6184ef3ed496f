#pragma once
#include <cuda_runtime.h>

void finish_all();
void gather(float *p);

template <typename L> void on_devices(int n, L work)
{
    for (int d = 0; d < n; d++)
        work(d);
}

struct Builder {
    Builder(int n);
    virtual ~Builder()
    {
    }
    virtual void refresh();
    virtual void sweep() = 0;
    virtual void split(int level, int device) = 0;
    virtual void regroup() = 0;
    virtual void prune();
    virtual void load() = 0;
    virtual void report() = 0;
    virtual void settle() = 0;
    virtual void tally() = 0;
    virtual void pack() = 0;
    virtual void seal() = 0;
    virtual void mark()
    {
        cudaDeviceSynchronize();
    }
    void grow(int depth, int devices);
    void init(int devices);
    float *data;
};

struct Exact : Builder {
    Exact(int n) : Builder(n)
    {
    }
    void refresh() override;
    void sweep() override;
    void split(int level, int device) override;
    void regroup() override;
    void prune() override;
    void load() override;
    void report() override;
    void settle() override;
    void tally() override;
    void pack() override;
    void seal() final;
    void mark() override
    {
        cudaMemsetAsync(data, 0, 4);
        cudaDeviceSynchronize();
    }
};

void drive(Exact *e, int n);
void by_value(int n);
void sealed(Exact *e, int n);

struct Sweep {
    Sweep(Builder *b, int n);
};
