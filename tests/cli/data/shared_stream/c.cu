// c.cu: make_stream() creates the stream it returns; d.cu calls it.
#include "streams.h"
cudaStream_t make_stream(void)
{
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamDefault);
    return s;
}
