// inherent_return_alloc.cu: a read-back value that the function returns, computing only the
// other values it returns in between (a metric's last point and its total), and one that the
// next statement passes to a function of the unit that allocates with it (a buffer sized by the
// largest node): the host needs the value at once, notes. A value returned after a launch, or
// passed to a function that does not allocate, stays a warning.
#include <cuda_runtime.h>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <tuple>

std::tuple<double, double> last_and_total(thrust::device_vector<double> &curve)
{
    double last = curve.back(); // expect: SYNC301 expect-severity: note expect-message: inherent: the function returns the value (line 15), computing only the other values it returns in between
    double total = thrust::reduce(curve.begin(), curve.end()); // expect: SYNC301 expect-severity: note
    return std::make_tuple(last, total);
}

struct NodeSums {
    double *sums = nullptr;
    size_t size = 0;
    void Alloc(int max_node, int width)
    {
        size_t end = (size_t)(max_node + 1) * (size_t)width;
        if (size < end) {
            cudaFree(sums);
            cudaMalloc(&sums, end * sizeof(double));
            size = end;
        }
    }
};

struct Evaluator {
    NodeSums node_sums;
    void AllocNodeSum(int max_node, int width) { node_sums.Alloc(max_node, width); }
    void apply(thrust::device_vector<int> &children, int width)
    {
        int max_node = thrust::reduce(children.begin(), children.end()); // expect: SYNC301 expect-severity: note expect-message: inherent: the next statement needs the value (line 38 passes it to 'Evaluator::AllocNodeSum()', which allocates)
        AllocNodeSum(max_node, width);
    }
};

__global__ void halve(double *d, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        d[i] *= 0.5;
}

double last_then_halve(thrust::device_vector<double> &v, double *d, size_t n, cudaStream_t s)
{
    double last = v.back(); // expect: SYNC301 expect-severity: note expect-message: how often it runs is not shown
    halve<<<1, 32, 0, s>>>(d, n);
    return last;
}

void log_count(int n);

void count_and_log(thrust::device_vector<int> &flags)
{
    int count = thrust::reduce(flags.begin(), flags.end()); // expect: SYNC301 expect-severity: note expect-message: how often it runs is not shown
    log_count(count);
}

// Since session 32 a warning whose call is in no loop that lint sees ends as the note "how often
// it runs is not shown" (docs/lint.md, "Warning or note", item 5): such a case that stays a
// warning above is that note here, asserted by its words (no other reason for a note applies).
