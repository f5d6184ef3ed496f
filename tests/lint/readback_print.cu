// readback_print.cu: printing a Thrust device element with operator<< reads it back to the
// host (SYNC301), like converting it to a value; writing one does not.
#include <thrust/device_vector.h>

#include <iostream>

void dump(thrust::device_vector<float> &v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        std::cout << v[i] << " "; // expect: SYNC301
    std::cout << v.front() << std::endl; // expect: SYNC301
    v[0] = 1.0f;
}
