// a.cu: creates g_stream, which b.cu shares and puts legacy-stream work beside.
#include "streams.h"
cudaStream_t g_stream;
void init_streams(void)
{
    cudaStreamCreate(&g_stream);
}
