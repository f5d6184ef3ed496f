// post.cpp: the post-processing steps of another unit; each passes its pointer on.
#include "kernels.h"
#include "post.h"
#include <iostream>
int Post::decode(unsigned *n, cudaStream_t s)
{
    launch_count(n, s);
    return 0;
}
int Post::nms(unsigned n, unsigned long long *mask, cudaStream_t s)
{
    if (n > 4096)
        std::cerr << "too many boxes" << std::endl;
    launch_mask(mask, n, s);
    return 0;
}
int Post::decode_offset(unsigned *n, cudaStream_t s)
{
    launch_offset(n + 1, s);
    return 0;
}
int Post::decode_more(unsigned *n, cudaStream_t s)
{
    launch_more(n, s);
    log_step();
    return 0;
}
int Post::decode_twice(unsigned *n, cudaStream_t s)
{
    launch_twice(n, s);
    return 0;
}
int Step::go(unsigned *n, cudaStream_t s)
{
    launch_virtual(n, s);
    return 0;
}
int Forward::operator()(unsigned *n, cudaStream_t s)
{
    launch_op(n, s);
    return 0;
}
