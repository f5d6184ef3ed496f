// post.h: the post-processing steps, each passing its buffer on to a launch.
#include <cuda_runtime.h>
class Post
{
  public:
    int decode(unsigned *n, cudaStream_t s);
    int nms(unsigned n, unsigned long long *mask, cudaStream_t s);
    int decode_offset(unsigned *n, cudaStream_t s);
    int decode_more(unsigned *n, cudaStream_t s);
    int decode_twice(unsigned *n, cudaStream_t s);
};
struct Step {
    virtual int go(unsigned *n, cudaStream_t s);
};
struct Forward {
    int operator()(unsigned *n, cudaStream_t s);
};
