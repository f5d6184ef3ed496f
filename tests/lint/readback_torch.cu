// readback_torch.cu: SYNC301 for libtorch: item(), item<T>(), cpu(), to(kCPU), is_nonzero(),
// nonzero(), equal() on tensors that are (or may be) on CUDA.
#include <torch/torch.h>

double training_step(const at::Tensor &loss, at::Tensor logits, at::Tensor labels)
{
    double value = loss.item().to_double(); // expect: SYNC301
    float scalar = loss.item<float>(); // expect: SYNC301
    at::Tensor host = logits.cpu(); // expect: SYNC301
    at::Tensor moved = logits.to(at::kCPU); // expect: SYNC301
    at::Tensor also_moved = logits.to(torch::kCPU, true); // expect: SYNC301
    bool any = labels.is_nonzero(); // expect: SYNC301
    at::Tensor idx = at::nonzero(labels); // expect: SYNC301
    at::Tensor idx2 = torch::nonzero(labels); // expect: SYNC301
    at::Tensor idx3 = labels.nonzero(); // expect: SYNC301
    bool same = logits.equal(labels); // expect: SYNC301
    float *data = logits.cpu().data_ptr<float>(); // expect: SYNC301
    at::Tensor still_cuda = logits.to(at::kCUDA);
    return value + scalar + any + same + (data != nullptr) + host.numel() + moved.numel() +
           also_moved.numel() + idx.numel() + idx2.numel() + idx3.numel() + still_cuda.numel();
}

double cpu_tensors()
{
    at::Tensor counts = at::zeros({4});
    at::Tensor on_gpu = torch::zeros({4}, torch::device(torch::kCUDA));
    at::Tensor copied = counts;
    double a = counts.item<double>();
    double b = copied.sum().item<double>(); // expect: SYNC301
    double c = on_gpu.item<double>(); // expect: SYNC301
    double d = on_gpu.cpu().item<double>(); // expect: SYNC301
    return a + b + c + d + counts.is_nonzero();
}
