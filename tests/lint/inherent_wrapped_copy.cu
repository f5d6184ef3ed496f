// inherent_wrapped_copy.cu: a count read back on every round (a partition's point, a counter
// copied to the host) whose next use is a call of a function of this unit, a buffer class's
// method or a free function, that sizes a copy with the parameter given the count: the host
// cannot queue that copy without the value, as a cudaMemcpy written in place with it.
// Inherent, a note, also past a time stamp read (a function of the unit given nothing that
// reads the wall clock). Warnings stay where the function given the count copies a size that
// does not come from it (it only keeps the count), where the parameter that sizes its copy is
// given another value, and where other host work of the program's own comes between.
// lint-args: -std=c++17
#include <cuda_runtime.h>
#include <thrust/execution_policy.h>
#include <thrust/partition.h>

template <typename T> struct Slab {
    T *items;
    int used;
    int capacity;
    void fill_from(const Slab &from, int count)
    {
        cudaMemcpy(items, from.items, count * sizeof(T), cudaMemcpyDeviceToDevice);
    }
    void note_count(const Slab &from, int count)
    {
        used = count;
        cudaMemcpy(items, from.items, capacity * sizeof(T), cudaMemcpyDeviceToDevice);
    }
};

struct is_hot {
    int limit;
    __host__ __device__ bool operator()(int x) const { return x > limit; }
};

__global__ void heat(int *v, int n) { v[threadIdx.x % n] += n; }

static void move_items(int *to, const int *from, int count, int bytes_cap, cudaStream_t s)
{
    cudaMemcpyAsync(to, from, count * sizeof(int), cudaMemcpyDeviceToDevice, s);
    cudaMemsetAsync(to + count, 0, bytes_cap, s);
}

// The partition's point sizes the method's copy.
int rounds_method(Slab<int> &all, Slab<int> &hot, int n, int rounds)
{
    int moved = 0;
    for (int r = 0; r < rounds; ++r) {
        heat<<<1, 64>>>(all.items, n); // expect: SYNC101
        int *cut = thrust::partition(thrust::device, all.items, all.items + n, is_hot{r}); // expect: SYNC301 expect-severity: note expect-message: inherent: the next device work needs the value (line 50 passes it to 'Slab::fill_from()', which sizes a copy with 'count', computed from it)
        const int count = (int)(cut - all.items);
        hot.fill_from(all, count);
        moved += count;
    }
    return moved;
}

// A counter read back sizes a free function's copy.
void rounds_function(int *d_out, const int *d_in, int *d_count, cudaStream_t s, int rounds)
{
    for (int r = 0; r < rounds; ++r) {
        heat<<<1, 64, 0, s>>>(d_count, 1);
        int count = 0;
        cudaMemcpy(&count, d_count, sizeof count, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: (line 63 passes it to 'move_items()', which sizes a copy with it)
        move_items(d_out, d_in, count, 4096, s);
    }
}

// The method given the count copies a size of its own: it only keeps the count.
int rounds_kept(Slab<int> &all, Slab<int> &hot, int n, int rounds)
{
    int moved = 0;
    for (int r = 0; r < rounds; ++r) {
        heat<<<1, 64>>>(all.items, n); // expect: SYNC101
        int *cut = thrust::partition(thrust::device, all.items, all.items + n, is_hot{r}); // expect: SYNC301 expect-severity: warning
        const int count = (int)(cut - all.items);
        hot.note_count(all, count);
        moved += count;
    }
    return moved;
}

// The count goes to the parameter that only sizes the clearing, not the copy.
void rounds_other_param(int *d_out, const int *d_in, int *d_count, cudaStream_t s, int rounds)
{
    for (int r = 0; r < rounds; ++r) {
        heat<<<1, 64, 0, s>>>(d_count, 1);
        int count = 0;
        cudaMemcpy(&count, d_count, sizeof count, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        move_items(d_out, d_in, 256, count, s);
    }
}

#include <sys/time.h>

static double wall_seconds()
{
    struct timeval now;
    gettimeofday(&now, 0);
    return now.tv_sec + 1e-6 * now.tv_usec;
}

static double spent;
static int tally_round(); // host work of this unit that could overlap the partition

static int tally_round()
{
    spent = 0;
    return 0;
}

// A time stamp read between the count and the copy it sizes: the host only notes the time.
int split_timed(Slab<int> &all, Slab<int> &hot, int n)
{
    int *cut = thrust::partition(thrust::device, all.items, all.items + n, is_hot{n}); // expect: SYNC301 expect-severity: note expect-message: (line 116 passes it to 'Slab::fill_from()', which sizes a copy with 'count', computed from it)
    const int count = (int)(cut - all.items);
    double t = wall_seconds();
    hot.fill_from(all, count);
    spent += wall_seconds() - t;
    return count;
}

// Host work of the program's own between: it could come before the partition.
int split_then_tally(Slab<int> &all, Slab<int> &hot, int n)
{
    int *cut = thrust::partition(thrust::device, all.items, all.items + n, is_hot{n}); // expect: SYNC301 expect-severity: note expect-message: how often it runs is not shown
    const int count = (int)(cut - all.items);
    int ready = tally_round();
    hot.fill_from(all, count + ready);
    return count;
}

// Since session 32 a warning whose call is in no loop that lint sees ends as the note "how often
// it runs is not shown" (docs/lint.md, "Warning or note", item 5): such a case that stays a
// warning above is that note here, asserted by its words (no other reason for a note applies).
