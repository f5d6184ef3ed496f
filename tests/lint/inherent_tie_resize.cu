// inherent_tie_resize.cu: the host needs a read-back value at once also when it is unpacked
// with std::tie (the next statement branches on one of the names) and when the next statement
// resizes a container with it (an allocation's size).
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <tuple>
#include <utility>
#include <vector>

double weighted_mean(thrust::device_vector<std::pair<double, double>> &v)
{
    double sum, weight;
    std::tie(sum, weight) = thrust::reduce(v.begin(), v.end()); // expect: SYNC301 expect-severity: note expect-message: inherent: the next statement needs the value (line 14 branches on it)
    if (weight != 0)
        return sum / weight;
    return 0.0;
}

void fit_output(thrust::device_vector<size_t> &scan, std::vector<int> *out)
{
    size_t total = scan.back(); // expect: SYNC301 expect-severity: note expect-message: inherent: the next statement needs the value (line 22 sizes an allocation with it)
    out->resize(total);
}
