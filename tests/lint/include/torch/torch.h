// torch.h: a stand-in for libtorch's C++ front end, enough for the readback lint tests.
#pragma once
#include <ATen/ATen.h>

namespace torch
{
using at::kCPU;
using at::kCUDA;
using at::Tensor;
using at::TensorOptions;
inline TensorOptions device(at::Device d)
{
    return TensorOptions().device(d);
}
Tensor zeros(at::IntArrayRef size, TensorOptions options = {});
Tensor ones(at::IntArrayRef size, TensorOptions options = {});
Tensor nonzero(const Tensor &self);
} // namespace torch
