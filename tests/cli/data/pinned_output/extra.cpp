// extra.cpp: another caller of Post::decode_twice, which does not read what it wrote.
#include <cuda_runtime.h>
#include "post.h"
void warm_up(Post *post, unsigned *h, cudaStream_t s)
{
    for (int i = 0; i < 3; i++)
        post->decode_twice(h, s);
}
