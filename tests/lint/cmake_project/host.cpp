#include "project_config.h"
#include "project_streams.h"

#if !defined(PROJECT_CONFIG) || !defined(PROJECT_STREAMS) || PROJECT_DEFINE != 1
#error the compile command was not read whole
#endif

void make_stream(cudaStream_t *s)
{
    cudaStreamCreate(s);
}
