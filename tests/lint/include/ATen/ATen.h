// ATen.h: a stand-in for ATen's tensor API, enough for the readback lint tests (shaped like
// libtorch: methods on at::TensorBase / at::Tensor, c10 device constants used from at::).
#pragma once
#include <stdint.h>

namespace c10
{
enum class DeviceType : int8_t { CPU = 0, CUDA = 1 };
constexpr DeviceType kCPU = DeviceType::CPU;
constexpr DeviceType kCUDA = DeviceType::CUDA;
struct Device {
    Device(DeviceType type, int index = -1) : type_(type), index_(index)
    {
    }
    DeviceType type_;
    int index_;
};
struct Scalar {
    double to_double() const;
};
struct TensorOptions {
    TensorOptions()
    {
    }
    TensorOptions device(Device d) const;
};
template <typename T> struct ArrayRef {
    ArrayRef(const T *data, size_t n) : data_(data), size_(n)
    {
    }
    ArrayRef(const T &one) : data_(&one), size_(1)
    {
    }
    const T *data_;
    size_t size_;
};
using IntArrayRef = ArrayRef<int64_t>;
} // namespace c10

namespace at
{
using c10::Device;
using c10::DeviceType;
using c10::IntArrayRef;
using c10::kCPU;
using c10::kCUDA;
using c10::Scalar;
using c10::TensorOptions;

class TensorBase
{
  public:
    Scalar item() const;
    template <typename T> T item() const;
    template <typename T> T *data_ptr() const;
    int64_t numel() const;
};

class Tensor : public TensorBase
{
  public:
    Tensor cpu() const;
    Tensor cuda() const;
    Tensor to(Device device, bool non_blocking = false) const;
    bool is_nonzero() const;
    Tensor nonzero() const;
    bool equal(const Tensor &other) const;
    Tensor sum() const;
    Tensor operator+(const Tensor &other) const;
};

Tensor zeros(IntArrayRef size, TensorOptions options = {});
Tensor ones(IntArrayRef size, TensorOptions options = {});
Tensor nonzero(const Tensor &self);
bool equal(const Tensor &self, const Tensor &other);
} // namespace at
