// main.cpp: the frame loop; it gives the launches pinned memory and reads what they wrote.
#include "kernels.h"
#include "post.h"
#include <cstdlib>
class App {
  public:
    App();
    void run(cudaStream_t s, int steps);
    void step(unsigned *given, cudaStream_t s);
    unsigned *h_public_ = nullptr;

  private:
    Post post_;
    Step step_;
    Forward forward_;
    unsigned *h_count_ = nullptr, *h_direct_ = nullptr, *h_a_ = nullptr, *h_b_ = nullptr;
    unsigned *h_c_ = nullptr, *h_d_ = nullptr, *h_e_ = nullptr, *h_g_ = nullptr;
    unsigned *h_op_ = nullptr, *h_pageable_ = nullptr, *h_mixed_ = nullptr, *h_taken_ = nullptr;
    unsigned *h_virtual_ = nullptr, *h_offset_ = nullptr, *h_more_ = nullptr;
    unsigned *h_streams_ = nullptr, *h_queued_ = nullptr, *h_twice_ = nullptr, *h_null_ = nullptr, *h_store_ = nullptr, *h_loop_ = nullptr;
    unsigned long long *h_mask_ = nullptr;
    unsigned *d_ = nullptr;
    unsigned total_ = 0;
    bool verbose_ = false;
};
App::App()
{
    cudaMallocHost((void **)&h_count_, sizeof(unsigned));
    cudaMallocHost((void **)&h_mask_, 4096 * sizeof(unsigned long long));
    cudaMallocHost((void **)&h_direct_, 64 * sizeof(unsigned));
    cudaMallocHost((void **)&h_a_, 64 * sizeof(unsigned));
    cudaMallocHost((void **)&h_b_, 64 * sizeof(unsigned));
    cudaMallocHost((void **)&h_c_, 64 * sizeof(unsigned));
    cudaMallocHost((void **)&h_d_, 64 * sizeof(unsigned));
    cudaMallocHost((void **)&h_e_, 64 * sizeof(unsigned));
    cudaMallocHost((void **)&h_g_, 64 * sizeof(unsigned));
    cudaMallocHost((void **)&h_op_, 64 * sizeof(unsigned));
    h_pageable_ = (unsigned *)malloc(64 * sizeof(unsigned));
    cudaMallocHost((void **)&h_public_, 64 * sizeof(unsigned));
    cudaMallocHost((void **)&h_mixed_, 64 * sizeof(unsigned));
    cudaMallocHost((void **)&h_taken_, 64 * sizeof(unsigned));
    cudaMallocHost((void **)&h_virtual_, 64 * sizeof(unsigned));
    cudaMallocHost((void **)&h_offset_, 64 * sizeof(unsigned));
    cudaMallocHost((void **)&h_more_, 64 * sizeof(unsigned));
    cudaMallocHost((void **)&h_streams_, 64 * sizeof(unsigned));
    cudaMallocHost((void **)&h_queued_, 64 * sizeof(unsigned));
    cudaMallocHost((void **)&h_twice_, 64 * sizeof(unsigned)); cudaMallocHost((void **)&h_null_, 64 * sizeof(unsigned)); cudaMallocHost((void **)&h_store_, 64 * sizeof(unsigned)); cudaMallocHost((void **)&h_loop_, 64 * sizeof(unsigned));
    cudaMalloc((void **)&d_, 64 * sizeof(unsigned));
}
void App::step(unsigned *given, cudaStream_t s)
{
    launch_given(given, s);
    total_ += given[0];
}
void App::run(cudaStream_t s, int steps)
{
    int (*later)(unsigned *, cudaStream_t) = launch_taken;
    for (int i = 0; i < steps; i++) {
        post_.decode(h_count_, s);
        if (*h_count_ == 0)
            continue;
        post_.nms(*h_count_, h_mask_, s);
        cudaStreamSynchronize(s);
        int blocks = 64;
        unsigned long long kept = 0;
        for (int b = 0; b < blocks; b++)
            kept |= h_mask_[b];
        launch_direct(h_direct_, s);
        total_ += h_direct_[0];
        launch_if(h_a_, s);
        if (verbose_)
            total_ += h_a_[0];
        for (int k = 0; k < 2; k++) {
            launch_last(h_b_, s);
        }
        total_ += h_b_[0];
        launch_early(h_c_, s);
        if (i == 3)
            break;
        total_ += h_c_[0];
        launch_work(h_d_, s);
        cudaMemsetAsync(d_, 0, 64, s);
        total_ += h_d_[0];
        launch_unknown(h_e_, s);
        log_step();
        total_ += h_e_[0];
        {
            unsigned *h_g_ = h_pageable_;
            launch_shadow(h_g_, s);
            total_ += h_g_[0];
        }
        forward_(h_op_, s);
        total_ += h_op_[0];
        launch_pageable(h_pageable_, s);
        total_ += h_pageable_[0];
        step(h_direct_, s);
        launch_public(h_public_, s);
        total_ += h_public_[0];
        launch_mixed(h_mixed_, s);
        total_ += h_mixed_[0];
        launch_taken(h_taken_, s);
        total_ += h_taken_[0];
        step_.go(h_virtual_, s);
        total_ += h_virtual_[0];
        post_.decode_offset(h_offset_, s);
        total_ += h_offset_[0];
        post_.decode_more(h_more_, s);
        total_ += h_more_[0];
        launch_streams(h_streams_, s, 0);
        total_ += h_streams_[0];
        launch_queued(h_queued_, s, 0);
        total_ += h_queued_[0];
        post_.decode_twice(h_twice_, s);
        total_ += h_twice_[0];
        launch_null(h_null_, s);
        if (h_null_ == nullptr)
            total_ = 0;
        launch_store(h_store_, s);
        cudaMallocHost((void **)&h_store_, 64 * sizeof(unsigned));
        total_ += h_store_[0];
        launch_loop_work(h_loop_, s);
        for (int b = 0; b < 2; b++) {
            cudaMemsetAsync(d_, 0, 64, s);
            total_ += h_loop_[b];
        }
        if (total_ == 7)
            h_mixed_ = new unsigned[64];
    }
    later(h_taken_, s);
}
int main()
{
    App app;
    cudaStream_t s;
    cudaStreamCreate(&s);
    app.run(s, 100);
    return 0;
}
