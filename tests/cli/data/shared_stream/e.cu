// e.cu: creates g_quiet, which f.cu shares without legacy-stream work: safe to fix.
#include "streams.h"
cudaStream_t g_quiet;
void init_quiet(void)
{
    cudaStreamCreate(&g_quiet);
}
