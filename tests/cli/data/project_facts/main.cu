// main.cu: a per-task loop that waits for the stream after each wrapper.
#include "launch.h"
void run(Post *post, float *d, float *h, int n, int tasks, cudaStream_t stream)
{
    for (int t = 0; t < tasks; t++) {
        cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, stream);
        permute_launch(d, n, stream);
        cudaStreamSynchronize(stream);
        post->permute(d, n, stream);
        int half = n / 2;
        cudaStreamSynchronize(stream);
        launch_only(d, half, stream);
        cudaStreamSynchronize(stream);
        wait_then_launch(d, n, stream);
        cudaStreamSynchronize(stream);
        post->scale(d, n, stream);
        cudaStreamSynchronize(stream);
        permute_launch(d, n, stream);
        n++;
        cudaStreamSynchronize(stream);
        wait_other(d, n, stream);
        cudaStreamSynchronize(stream);
    }
}
// The wrappers that wait first: called with nothing queued (a device-wide wait, a wait for the
// stream just before), and wait_first also after other work (launch_only).
void run_idle(float *d, int n, int tasks, cudaStream_t stream)
{
    for (int t = 0; t < tasks; t++) {
        cudaDeviceSynchronize();
        sync_then_launch(d, n, stream);
        cudaStreamSynchronize(stream);
        wait_first(d, n, stream);
        launch_only(d, n, stream);
        wait_first(d, n, stream);
    }
}
