// readback_thrust.cu: SYNC301 for Thrust: device_vector elements read on the host,
// device_ptr dereferences, and algorithms that return a value from a device range.
// lint-args: -std=c++17
#include <thrust/count.h>
#include <thrust/device_ptr.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/extrema.h>
#include <thrust/host_vector.h>
#include <thrust/logical.h>
#include <thrust/reduce.h>

struct positive {
    __host__ __device__ bool operator()(float x) const { return x > 0.0f; }
};

float algorithms(thrust::device_vector<float> &v, float *raw, int n)
{
    float total = thrust::reduce(v.begin(), v.end()); // expect: SYNC301
    float raw_total = thrust::reduce(thrust::device, raw, raw + n); // expect: SYNC301
    long ones = thrust::count(v.begin(), v.end(), 1.0f); // expect: SYNC301
    bool any = thrust::any_of(v.begin(), v.end(), positive()); // expect: SYNC301
    bool sorted = thrust::is_sorted(v.begin(), v.end()); // expect: SYNC301
    float top = *thrust::max_element(v.begin(), v.end()); // expect: SYNC301
    float raw_top = *thrust::max_element(thrust::device, raw, raw + n); // expect: SYNC301
    auto where = thrust::max_element(v.begin(), v.end());
    return total + raw_total + ones + any + sorted + top + raw_top + (where == v.end());
}

float host_ranges(thrust::host_vector<float> &h, float *raw, int n)
{
    float total = thrust::reduce(h.begin(), h.end());
    float raw_total = thrust::reduce(thrust::host, raw, raw + n);
    float first = h[0];
    return total + raw_total + first;
}

float elements(thrust::device_vector<float> &v, float *raw)
{
    float first = v[0]; // expect: SYNC301
    float ends = v.front() + v.back(); // expect: SYNC301, SYNC301
    v[1] = 2.0f;
    v[2] += 1.0f; // expect: SYNC301
    thrust::device_ptr<float> p = thrust::device_pointer_cast(raw);
    float value = *p; // expect: SYNC301
    *p = 0.0f;
    thrust::device_ptr<float> second = &v[1];
    return first + ends + value + (second.get() != raw);
}

// The container a member (session 46): an element read through the field itself.
struct Holder {
    thrust::device_vector<float> vals;
    float touch()
    {
        vals[1] = 2.0f;
        vals[2] += 1.0f; // expect: SYNC301
        return vals[0]; // expect: SYNC301
    }
};
