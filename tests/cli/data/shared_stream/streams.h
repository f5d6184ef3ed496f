// streams.h: the streams the units of this project share.
#include <cuda_runtime.h>
extern cudaStream_t g_stream;
extern cudaStream_t g_quiet;
cudaStream_t make_stream(void);
