#include "project_config.h"
#include "project_streams.h"

#if !defined(PROJECT_CONFIG) || !defined(PROJECT_STREAMS) || PROJECT_DEFINE != 1
#error the compile command was not read whole
#endif

__global__ void kernel(int *p) { p[0] = PROJECT_CONFIG; }

void launch(int *p)
{
    kernel<<<1, 1>>>(p);
}
