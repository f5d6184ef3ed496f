// pieces_once.cu: a loop whose only device work is copies, each moving a different piece of one
// batch (both sides pick it by the loop's counter, or the source is a buffer the body declares),
// in a function that runs once (main, or a function main calls once): one transfer in pieces,
// made once, a note (the cuBLAS batched samples, cuBLASLt's TestBench). Twins that stay
// warnings: the same loop in a function a frame loop calls, a loop that also launches, a loop
// that copies the same buffer each time, a loop inside another loop, a loop that calls another
// unit's function.
#include <cstdio>
#include <cuda_runtime.h>
#include <functional>
#include <stdexcept>
#include <vector>

#define CUDA_CHECK(err)                                                                          \
    do {                                                                                         \
        cudaError_t err_ = (err);                                                                \
        if (err_ != cudaSuccess) {                                                               \
            std::printf("CUDA error %s\n", cudaGetErrorString(err_));                            \
            throw std::runtime_error("CUDA error");                                              \
        }                                                                                        \
    } while (0)

__global__ void scale(double *a, int n) { a[threadIdx.x % n] *= 2.0; }

void publish(const double *values, int n); // another unit's
void more_pieces(int n, int batch);         // below main

struct Bench {
    std::vector<std::vector<double>> host;
    std::vector<double *> dev;
    int pieces = 4, n = 1024;
    cudaStream_t stream = nullptr;

    // Each piece's scale factors, filled in a buffer the body declares.
    void upload_scales()
    {
        for (int i = 0; i < pieces; ++i) {
            std::vector<double> scales(n, 0.5);
            CUDA_CHECK(cudaMemcpyAsync(dev[i], scales.data(), n * sizeof(double), cudaMemcpyHostToDevice, stream)); // expect: SYNC201 expect-severity: note expect-message: once: the loop at line 37 copies a different piece on each iteration (by 'i'), its only device work, and 'Bench::upload_scales' is called once, from 'main'
        }
    }

    // The same, a frame loop's: per frame.
    void upload_frame()
    {
        for (int i = 0; i < pieces; ++i)
            CUDA_CHECK(cudaMemcpyAsync(dev[i], host[i].data(), n * sizeof(double), cudaMemcpyHostToDevice, stream)); // expect: SYNC201 expect-severity: warning
    }
};

int main()
{
    const int n = 1 << 20;
    int batch = 3;
    std::vector<std::vector<double>> A(batch, std::vector<double>(n, 1.0));
    std::vector<double *> dA(batch);
    std::vector<double> h(n, 1.0);
    double *d = nullptr;
    cudaStream_t stream;
    cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    cudaMalloc(&d, n * sizeof(double));
    for (int i = 0; i < batch; i++)
        cudaMalloc(&dA[i], n * sizeof(double));

    // Each matrix once, then each result once.
    for (int i = 0; i < batch; i++) {
        CUDA_CHECK(cudaMemcpyAsync(dA[i], A[i].data(), n * sizeof(double), cudaMemcpyHostToDevice, stream)); // expect: SYNC201 expect-severity: note expect-message: once: the loop at line 66 copies a different piece on each iteration (by 'i'), its only device work, and 'main' runs once: one transfer in pieces, made once
    }
    scale<<<1, 256, 0, stream>>>(dA[0], n);
    for (int i = 0; i < batch; i++) {
        CUDA_CHECK(cudaMemcpyAsync(A[i].data(), dA[i], n * sizeof(double), cudaMemcpyDeviceToHost, stream)); // expect: SYNC201 expect-severity: note expect-message: once: the loop at line 70
    }
    CUDA_CHECK(cudaStreamSynchronize(stream));

    Bench bench;
    bench.stream = stream;
    bench.upload_scales();
    for (int frame = 0; frame < 100; ++frame) {
        bench.upload_frame();
        scale<<<1, 256, 0, stream>>>(bench.dev[0], n);
    }

    // A launch in the loop: work of its own every iteration.
    for (int i = 0; i < batch; i++) {
        cudaMemcpyAsync(dA[i], A[i].data(), n * sizeof(double), cudaMemcpyHostToDevice, stream); // expect: SYNC201 expect-severity: warning
        scale<<<1, 256, 0, stream>>>(dA[i], n);
    }

    // The same buffer every time: a transfer repeated, not pieces.
    for (int i = 0; i < batch; i++)
        cudaMemcpyAsync(d, h.data(), n * sizeof(double), cudaMemcpyHostToDevice, stream); // expect: SYNC201 expect-severity: warning

    // Inside another loop: the pieces move on every round.
    for (int round = 0; round < 10; ++round) {
        for (int i = 0; i < batch; i++)
            cudaMemcpyAsync(dA[i], A[i].data(), n * sizeof(double), cudaMemcpyHostToDevice, stream); // expect: SYNC201 expect-severity: warning
    }

    // Another unit's function in the loop may queue work of its own.
    for (int i = 0; i < batch; i++) {
        cudaMemcpyAsync(A[i].data(), dA[i], n * sizeof(double), cudaMemcpyDeviceToHost, stream); // expect: SYNC201 expect-severity: warning
        publish(A[i].data(), n);
    }
    cudaStreamSynchronize(stream);
    more_pieces(n, batch);
    return 0;
}

// Review of session 40: twins the first version took for pieces.
struct Stage {
    virtual void run(double *d, int n, cudaStream_t s) {}
};
struct LaunchStage : Stage {
    void run(double *d, int n, cudaStream_t s) override { scale<<<1, 256, 0, s>>>(d, n); }
};

// Named for loading (ss_callgraph_runs_once takes a name at its word), but a frame loop calls it.
void load_frame_pieces(std::vector<std::vector<double>> &A, std::vector<double *> &dA, int n, cudaStream_t stream)
{
    for (size_t i = 0; i < A.size(); i++)
        cudaMemcpyAsync(dA[i], A[i].data(), n * sizeof(double), cudaMemcpyHostToDevice, stream); // expect: SYNC201 expect-severity: warning
}

// Called once, from main.
void more_pieces(int n, int batch)
{
    std::vector<std::vector<double>> A(batch, std::vector<double>(n, 1.0));
    std::vector<double *> dA(batch);
    std::vector<double> h(n, 1.0);
    double *d = nullptr;
    cudaStream_t stream;
    cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    cudaMalloc(&d, n * sizeof(double));
    for (int i = 0; i < batch; i++)
        cudaMalloc(&dA[i], n * sizeof(double));
    Stage *stage = new LaunchStage;

    // A function object that launches: device work of its own on every iteration.
    std::function<void(int)> launch = [&](int i) { scale<<<1, 256, 0, stream>>>(dA[i], n); };
    for (int i = 0; i < batch; i++) {
        cudaMemcpyAsync(dA[i], A[i].data(), n * sizeof(double), cudaMemcpyHostToDevice, stream); // expect: SYNC201 expect-severity: warning
        launch(i);
    }

    // A virtual call: the override launches.
    for (int i = 0; i < batch; i++) {
        cudaMemcpyAsync(dA[i], A[i].data(), n * sizeof(double), cudaMemcpyHostToDevice, stream); // expect: SYNC201 expect-severity: warning
        stage->run(dA[i], n, stream);
    }

    // Pointers the body declares, set the same way each time: the same buffer every time.
    for (int i = 0; i < batch; i++) {
        double *dst = d;
        const double *src = h.data();
        cudaMemcpyAsync(dst, src, n * sizeof(double), cudaMemcpyHostToDevice, stream); // expect: SYNC201 expect-severity: warning
    }

    // Pointers the body computes from the counter: a piece each time.
    for (int i = 0; i < batch; i++) {
        double *dst = dA[i];
        const double *src = A[i].data();
        cudaMemcpyAsync(dst, src, n * sizeof(double), cudaMemcpyHostToDevice, stream); // expect: SYNC201 expect-severity: note expect-message: once: the loop at line 159 copies a different piece on each iteration (by 'i'), its only device work, and 'more_pieces' is called once, from 'main'
    }

    // A body that starts the pieces over.
    for (int i = 0; i < batch; i++) {
        cudaMemcpyAsync(dA[i], A[i].data(), n * sizeof(double), cudaMemcpyHostToDevice, stream); // expect: SYNC201 expect-severity: warning
        if (i == batch - 1 && h[0] > 0.0)
            i = -1;
    }

    for (int frame = 0; frame < 100; ++frame) {
        load_frame_pieces(A, dA, n, stream);
        scale<<<1, 256, 0, stream>>>(dA[0], n);
    }
    cudaStreamSynchronize(stream);
}
