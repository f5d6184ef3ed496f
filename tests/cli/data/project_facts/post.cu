// post.cu: Post::permute ends by calling permute_launch with its stream; Post::scale waits only
// on one branch.
#include <stdio.h>
#include "launch.h"
int Post::permute(float *d, int n, cudaStream_t stream)
{
    if (n > 1024)
        fprintf(stderr, "too many: %d\n", n);
    permute_launch(d, n, stream);
    return 0;
}
int Post::scale(float *d, int n, cudaStream_t stream)
{
    if (n > 1024)
        return permute_launch(d, n, stream);
    return launch_only(d, n, stream);
}
