// uncalled_member_template.cu: a member function template defined in the body of its class is
// inline although the keyword is not written (a member defined in its class is), so where
// nothing in the unit calls it, it runs nowhere in this unit: its findings are notes, "not
// called in this unit", as for any inline function (a class's template helper in a shared
// header, instantiated only by the units that call it). Still warnings: a member template
// defined outside its class that the unit instantiates explicitly (for other units to call),
// one the unit calls, and a member template of a class template that the unit calls.
#include <cuda_runtime.h>
#include <vector>

struct Segments {
    std::vector<int> table;

    template <typename Op> void finish(int *d, cudaStream_t s, Op op) const
    {
        cudaMemcpyAsync(d, table.data(), table.size() * sizeof(int), cudaMemcpyDefault, s); // expect: SYNC201 expect-severity: note expect-message: not called in this unit: 'Segments::finish' is inline, and nothing in this unit calls it or takes its address
        op(d);
    }

    template <typename T> void refresh(T *d, cudaStream_t s) const;

    template <typename T> void upload(T *d, cudaStream_t s) const
    {
        cudaMemcpyAsync(d, table.data(), table.size() * sizeof(int), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: note expect-message: how often it runs is not shown
    }
};

template <typename T> void Segments::refresh(T *d, cudaStream_t s) const
{
    cudaMemcpyAsync(d, table.data(), table.size() * sizeof(int), cudaMemcpyDefault, s); // expect: SYNC201 expect-severity: note expect-message: how often it runs is not shown
}

template void Segments::refresh<int>(int *, cudaStream_t) const;

template <typename T> struct Batch {
    std::vector<T> rows;

    template <typename U> void stage(U *d, cudaStream_t s) const
    {
        cudaMemcpyAsync(d, rows.data(), rows.size() * sizeof(T), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: note expect-message: not called in this unit: 'Batch::stage' is inline
    }

    template <typename U> void send(U *d, cudaStream_t s) const
    {
        cudaMemcpyAsync(d, rows.data(), rows.size() * sizeof(T), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: note expect-message: how often it runs is not shown
    }
};

void upload_all(const Segments &segs, const Batch<float> &batch, int *d, float *df, cudaStream_t s)
{
    segs.upload(d, s);
    batch.send(df, s);
}

// Since session 32 a warning whose call is in no loop that lint sees ends as the note "how often
// it runs is not shown" (docs/lint.md, "Warning or note", item 5): such a case that stays a
// warning above is that note here, asserted by its words (no other reason for a note applies).
