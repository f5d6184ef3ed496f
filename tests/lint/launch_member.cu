// launch_member.cu: launches in member functions and streams held in struct members.
#include <cuda_runtime.h>

__global__ void step(float *state) { state[threadIdx.x] += 1.0f; }

struct Context {
    cudaStream_t stream;
    float *state;
};

class Simulator {
  public:
    void advance();
    void advance_default();

  private:
    cudaStream_t stream_;
    float *state_;
};

void Simulator::advance()
{
    step<<<1, 256, 0, stream_>>>(state_);
}

void Simulator::advance_default()
{
    step<<<1, 256>>>(state_); // expect: SYNC101
}

void with_context(float *state)
{
    Context zeroed = {};
    zeroed.state = state;
    step<<<1, 256, 0, zeroed.stream>>>(zeroed.state); // expect: SYNC101

    Context assigned;
    assigned.stream = cudaStreamLegacy;
    step<<<1, 256, 0, assigned.stream>>>(state); // expect: SYNC101

    Context created;
    cudaStreamCreateWithFlags(&created.stream, cudaStreamNonBlocking);
    step<<<1, 256, 0, created.stream>>>(state);
}

void from_pointer(Context *ctx)
{
    step<<<1, 256, 0, ctx->stream>>>(ctx->state);
}
