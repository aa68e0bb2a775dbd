// Tensor value type: shape bookkeeping and typed views over the byte buffer.
#include "tensor/tensor.hpp"

#include <limits>
#include <stdexcept>
#include <string>

namespace cosim {

std::size_t dtype_size(DType dtype) {
  switch (dtype) {
    case DType::kInt8: return 1;
    case DType::kInt16: return 2;
    case DType::kInt32: return 4;
    case DType::kBf16: return 2;
    case DType::kFp32: return 4;
    case DType::kUint8: return 1;
    case DType::kUint16: return 2;
    case DType::kUint32: return 4;
    case DType::kInt64: return 8;
    case DType::kUint64: return 8;
  }
  throw std::logic_error("dtype_size: unknown dtype");
}

const char* dtype_name(DType dtype) {
  switch (dtype) {
    case DType::kInt8: return "int8";
    case DType::kInt16: return "int16";
    case DType::kInt32: return "int32";
    case DType::kBf16: return "bf16";
    case DType::kFp32: return "fp32";
    case DType::kUint8: return "uint8";
    case DType::kUint16: return "uint16";
    case DType::kUint32: return "uint32";
    case DType::kInt64: return "int64";
    case DType::kUint64: return "uint64";
  }
  return "unknown";
}

namespace {

// Element count with overflow and sign checks; the buffer must be addressable.
int64_t checked_numel(const std::vector<int64_t>& shape, std::size_t elem) {
  int64_t n = 1;
  const int64_t limit = std::numeric_limits<int64_t>::max() / static_cast<int64_t>(elem);
  for (int64_t d : shape) {
    if (d < 0) throw std::invalid_argument("Tensor: negative dimension " + std::to_string(d));
    if (d != 0 && n > limit / d) throw std::invalid_argument("Tensor: shape too large");
    n *= d;
  }
  return n;
}

// Whether elements of type T are those of `d`: uint16_t serves bf16's bits too.
template <class T> bool holds(DType d);
template <> bool holds<int8_t>(DType d) { return d == DType::kInt8; }
template <> bool holds<int16_t>(DType d) { return d == DType::kInt16; }
template <> bool holds<int32_t>(DType d) { return d == DType::kInt32; }
template <> bool holds<float>(DType d) { return d == DType::kFp32; }
template <> bool holds<uint8_t>(DType d) { return d == DType::kUint8; }
template <> bool holds<uint16_t>(DType d) { return d == DType::kBf16 || d == DType::kUint16; }
template <> bool holds<uint32_t>(DType d) { return d == DType::kUint32; }
template <> bool holds<int64_t>(DType d) { return d == DType::kInt64; }
template <> bool holds<uint64_t>(DType d) { return d == DType::kUint64; }

}  // namespace

Tensor::Tensor(DType dtype, std::vector<int64_t> shape, Layout layout)
    : dtype_(dtype), layout_(layout), shape_(std::move(shape)) {
  const int64_t n = checked_numel(shape_, dtype_size(dtype_));
  bytes_.assign(static_cast<std::size_t>(n) * dtype_size(dtype_), 0);
}

template <class T> T* Tensor::data() {
  if (!holds<T>(dtype_))
    throw std::logic_error(std::string("Tensor::data: element type does not match dtype ") +
                           dtype_name(dtype_));
  return reinterpret_cast<T*>(bytes_.data());
}

template <class T> const T* Tensor::data() const {
  if (!holds<T>(dtype_))
    throw std::logic_error(std::string("Tensor::data: element type does not match dtype ") +
                           dtype_name(dtype_));
  return reinterpret_cast<const T*>(bytes_.data());
}

template int8_t* Tensor::data<int8_t>();
template int16_t* Tensor::data<int16_t>();
template int32_t* Tensor::data<int32_t>();
template uint16_t* Tensor::data<uint16_t>();
template float* Tensor::data<float>();
template uint8_t* Tensor::data<uint8_t>();
template uint32_t* Tensor::data<uint32_t>();
template int64_t* Tensor::data<int64_t>();
template uint64_t* Tensor::data<uint64_t>();
template const int8_t* Tensor::data<int8_t>() const;
template const int16_t* Tensor::data<int16_t>() const;
template const int32_t* Tensor::data<int32_t>() const;
template const uint16_t* Tensor::data<uint16_t>() const;
template const float* Tensor::data<float>() const;
template const uint8_t* Tensor::data<uint8_t>() const;
template const uint32_t* Tensor::data<uint32_t>() const;
template const int64_t* Tensor::data<int64_t>() const;
template const uint64_t* Tensor::data<uint64_t>() const;

int64_t Tensor::offset(const std::vector<int64_t>& index) const {
  if (index.size() != shape_.size())
    throw std::out_of_range("Tensor::offset: index rank " + std::to_string(index.size()) +
                            " != tensor rank " + std::to_string(shape_.size()));
  int64_t off = 0;
  for (std::size_t i = 0; i < index.size(); ++i) {
    if (index[i] < 0 || index[i] >= shape_[i])
      throw std::out_of_range("Tensor::offset: index " + std::to_string(index[i]) + " out of range [0, " +
                              std::to_string(shape_[i]) + ") on axis " + std::to_string(i));
    off = off * shape_[i] + index[i];
  }
  return off;
}

bool Tensor::operator==(const Tensor& other) const {
  return dtype_ == other.dtype_ && shape_ == other.shape_ && bytes_ == other.bytes_;
}

}  // namespace cosim
