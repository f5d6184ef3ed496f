// launch_spaced.cu: kernel launches written with spaces inside the brackets, as Visual Studio
// formats them ('k << <g, b >> >(a)'); nvcc reads them as '<<<' and '>>>', and so does lint (it
// parses the file again with them rewritten in place): the launches are seen, so the waits
// after them in the loops are found, and the file has no parse error. C++ that looks alike is
// left as it is: operator<< specialized, '>> >' closing three templates, a launch in a comment
// or a string (the static_assert fails if the string is changed).
#include <cuda_runtime.h>
#include <ostream>

template <typename T> struct box { static const int size = 1; };
template <typename T> std::ostream &operator<<(std::ostream &o, const box<T> &) { return o; }
template std::ostream &operator<< <>(std::ostream &, const box<int> &);
template std::ostream &operator<< <float>(std::ostream &, const box<float> &);
template std::ostream &operator<< <box<box<int>> >(std::ostream &, const box<box<box<int>>> &);
static_assert("k << <g, b >> >(a)"[4] == ' ' && "k << <g, b >> >(a)"[13] == ' ', "as written");
const int boxes = sizeof "<< <" + box<box<box<int>> >::size;
// scale << <grid,
box<box<box<char>> > *nested;
/* scale << <grid, block >> >(img); */

__global__ void scale(float *a, float f) { a[0] *= f; }

void frames(float *img, int n, cudaStream_t s)
{
    dim3 grid(64), block(256);
    for (int i = 0; i < n; i++) {
        scale << <grid, block, 0, s >> >(img, 0.5f);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-message: kernel 'scale' is launched at line 27
    }
}

void frames_default(float *img, int n)
{
    for (int i = 0; i < n; i++) {
        scale << <64, 256 >> >(img, 2.0f); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}
