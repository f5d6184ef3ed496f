// legacy_stream_at_hand.cu: legacy-stream work is a warning only where a stream was at hand
// that it could have been queued on: its function takes one (a parameter), keeps one (a
// local), passes one to another call (a getter's too), or, for a member function, its class
// keeps one or another of its member functions passes one; in a lambda, the function around
// it. Without one (single-stream helper code in a unit that also uses streams) the work is a
// note that says so: whether the other streams have work then is a run-time question.
#include <cuda_runtime.h>

__global__ void scale(float *x) { x[threadIdx.x] *= 2.0f; }
__global__ void shift(float *x) { x[threadIdx.x] += 1.0f; }

cudaStream_t current_stream();

// A stream parameter the function does not use for one of its launches.
void forward(float *x, cudaStream_t stream)
{
    scale<<<1, 32, 0, stream>>>(x);
    shift<<<1, 32>>>(x); // expect: SYNC101 expect-severity: note expect-message: convention:
}

// A stream parameter used by nothing at all: still at hand.
void backward(float *x, cudaStream_t stream)
{
    (void)stream;
    shift<<<1, 32>>>(x); // expect: SYNC101 expect-severity: note expect-message: convention:
}

// A sibling call passes a getter's stream.
void gemv(float *x)
{
    scale<<<1, 32, 0, current_stream()>>>(x);
    cudaMemsetAsync(x, 0, 128); // expect: SYNC102 expect-severity: note expect-message: convention:
}

// A local stream the function creates.
void staged(float *x)
{
    cudaStream_t s;
    cudaStreamCreate(&s); // expect: SYNC103 expect-severity: note
    shift<<<1, 32>>>(x); // expect: SYNC101 expect-severity: note expect-message: convention:
    scale<<<1, 32, 0, s>>>(x);
    cudaStreamSynchronize(s);
    cudaStreamDestroy(s);
}

// A class that keeps a stream: its members' legacy work had it at hand.
class Layer {
  public:
    explicit Layer(cudaStream_t s) : stream_(s) {}
    void run(float *x) { scale<<<1, 32, 0, stream_>>>(x); }
    void blend(float *x);

  private:
    cudaStream_t stream_;
};

void Layer::blend(float *x)
{
    shift<<<1, 32>>>(x); // expect: SYNC101 expect-severity: note expect-message: convention:
}

// A class that keeps none, but another member passes a getter's stream.
class Gemv {
  public:
    void compute(float *x) { scale<<<1, 32, 0, current_stream()>>>(x); }
    void compute2(float *x);
};

void Gemv::compute2(float *x)
{
    shift<<<1, 32>>>(x); // expect: SYNC101 expect-severity: note expect-message: convention:
}

// A lambda inside a function that takes a stream.
void each(float *x, int n, cudaStream_t stream)
{
    auto step = [&](int i) {
        shift<<<1, 32>>>(x + i); // expect: SYNC101 expect-severity: note expect-message: convention:
    };
    for (int i = 0; i < n; i++)
        step(i);
    scale<<<1, 32, 0, stream>>>(x);
}

// No stream at hand: single-stream helper code.
void clear(float *x)
{
    shift<<<1, 32>>>(x); // expect: SYNC101 expect-severity: note expect-message: no stream at hand: 'clear' takes no stream, keeps none and passes none other than the legacy one to any call, so the legacy stream is all this code knows
    cudaMemsetAsync(x, 0, 128); // expect: SYNC102 expect-severity: note expect-message: no stream at hand: 'clear' takes no stream
}

// Nor here: a local stream that always holds the legacy one.
void legacy_local(float *x)
{
    cudaStream_t s = 0;
    scale<<<1, 32, 0, s>>>(x); // expect: SYNC101 expect-severity: note expect-message: no stream at hand: 'legacy_local' takes no stream
}

// A class with no stream whose members pass none: a note that names the class.
class Counter {
  public:
    void zero(float *x);
    void bump(float *x);
};

void Counter::zero(float *x)
{
    cudaMemsetAsync(x, 0, 128); // expect: SYNC102 expect-severity: note expect-message: no stream at hand: 'Counter::zero' takes no stream, keeps none and passes none other than the legacy one to any call, nor does 'Counter' keep one
}

void Counter::bump(float *x)
{
    shift<<<1, 32>>>(x); // expect: SYNC101 expect-severity: note expect-message: nor does 'Counter' keep one or any of its member functions in this unit pass one
}

// Per iteration with no stream at hand: the loop's words, then why it is a note.
void sweep(float *x, int steps)
{
    for (int i = 0; i < steps; i++)
        shift<<<1, 32>>>(x); // expect: SYNC101 expect-severity: note expect-message: it runs on every iteration of the loop at line 119, which enqueues device work; no stream at hand: 'sweep'
}

// A member function template whose class's other member passes a getter's stream.
class GemvAwq {
  public:
    template <int N> void compute_gemv(float *x) { scale<<<N, 32, 0, current_stream()>>>(x); }
    template <int N> void compute_gemv2(float *x);
};

template <int N> void GemvAwq::compute_gemv2(float *x)
{
    shift<<<N, 32>>>(x); // expect: SYNC101 expect-severity: note expect-message: convention:
}

template void GemvAwq::compute_gemv<4>(float *);
template void GemvAwq::compute_gemv2<4>(float *);

// A lambda in a function with no stream at hand.
void each_plain(float *x, int n)
{
    auto step = [&](int i) {
        shift<<<1, 32>>>(x + i); // expect: SYNC101 expect-severity: note expect-message: no stream at hand: 'each_plain' takes no stream
    };
    for (int i = 0; i < n; i++)
        step(i);
}

// A helper with no stream whose caller in the unit has one (it could have passed it).
static void normalize(float *x, int steps)
{
    for (int i = 0; i < steps; i++)
        shift<<<1, 32>>>(x); // expect: SYNC101 expect-severity: note expect-message: it runs on every iteration of the loop at line 151, which enqueues device work
}

void pipeline(float *x, float *y, int n)
{
    cudaStream_t s;
    cudaStreamCreate(&s); // expect: SYNC103 expect-severity: note
    for (int it = 0; it < n; it++) {
        scale<<<1, 32, 0, s>>>(y);
        normalize(x, 4);
    }
    cudaStreamSynchronize(s);
    cudaStreamDestroy(s);
}

// Two calls up: 'outer' takes a stream, 'middle' has none, 'inner' launches.
static void inner(float *x)
{
    shift<<<1, 32>>>(x); // expect: SYNC101 expect-severity: note expect-message: convention:
}

static void middle(float *x) { inner(x); }

void outer(float *x, cudaStream_t stream)
{
    scale<<<1, 32, 0, stream>>>(x);
    middle(x);
}

// Its callers have no stream at hand either: a note.
static void plain_inner(float *x)
{
    shift<<<1, 32>>>(x); // expect: SYNC101 expect-severity: note expect-message: no stream at hand: 'plain_inner' takes no stream
}

void plain_outer(float *x) { plain_inner(x); }

// A parameter of a type that keeps a stream: by reference, by pointer, by value.
struct Context {
    cudaStream_t stream;
    int device;
};

void layernorm(Context &ctx, float *x)
{
    shift<<<1, 32>>>(x); // expect: SYNC101 expect-severity: note expect-message: convention:
}

void softmax(const Context *ctx, float *x)
{
    cudaMemsetAsync(x, 0, 128); // expect: SYNC102 expect-severity: note expect-message: convention:
}

void gelu(Context ctx, float *x)
{
    shift<<<1, 32>>>(x); // expect: SYNC101 expect-severity: note expect-message: convention:
}

// A type that keeps no stream is no stream at hand.
struct Shape {
    int rows, cols;
};

void reshape(const Shape &shape, float *x)
{
    shift<<<1, 32>>>(x); // expect: SYNC101 expect-severity: note expect-message: no stream at hand: 'reshape' takes no stream
}

// A class that keeps a record that keeps a stream.
class Model {
  public:
    void zero(float *x);

  private:
    Context ctx_;
};

void Model::zero(float *x)
{
    cudaMemsetAsync(x, 0, 128); // expect: SYNC102 expect-severity: note expect-message: convention:
}
