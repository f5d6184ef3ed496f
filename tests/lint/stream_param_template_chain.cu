// stream_param_template_chain.cu: a stream parameter passed down a chain of function templates
// whose calls name their template arguments ('T3<A, true>(a, stm)': left for the call graph to
// resolve, not by libclang), and the chain's top given 0: the unit uses only the legacy stream,
// so the launch without a stream is a note. The same chain given a created stream keeps it a
// warning (stream_param_dependent_passed.cu shows the member case).
#include <cuda_runtime.h>

__global__ void k(float *a) { a[0] = 1; }

template <int A, bool B> void T3(float *a, cudaStream_t stm) { k<<<1, 1, 0, stm>>>(a); }

template <int A> void T2(bool b, float *a, cudaStream_t stm)
{
    if (b)
        T3<A, true>(a, stm);
    else
        T3<A, false>(a, stm);
}

template <int A> void T1(float *a, cudaStream_t stm) { T2<A>(true, a, stm); }

void top(float *a) { T1<3>(a, 0); }

void step(float *a)
{
    k<<<1, 1>>>(a); // expect: SYNC101 expect-severity: note
}
