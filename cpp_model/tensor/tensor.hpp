// A dense tensor value type: shape, element type and memory layout tag, with
// its bytes held contiguously in C (row-major) order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cosim {

// The unsigned and 64-bit types are for kernels written elsewhere (an image's
// uint8 pixels, an HLS kernel's 64-bit ports); the accelerators here compute in
// the signed ones up to 32 bits, bf16 and fp32.
enum class DType { kInt8, kInt16, kInt32, kBf16, kFp32, kUint8, kUint16, kUint32, kInt64, kUint64 };
inline constexpr DType kDTypes[] = {DType::kInt8,  DType::kInt16,  DType::kInt32,  DType::kBf16,  DType::kFp32,
                                    DType::kUint8, DType::kUint16, DType::kUint32, DType::kInt64, DType::kUint64};
// The layout is a tag for readers of 4-D activations; the bytes are always
// row-major over shape().
enum class Layout { kAny, kNHWC, kNCHW };

std::size_t dtype_size(DType dtype);
const char* dtype_name(DType dtype);

class Tensor {
 public:
  Tensor() = default;
  Tensor(DType dtype, std::vector<int64_t> shape, Layout layout = Layout::kAny);

  DType dtype() const { return dtype_; }
  Layout layout() const { return layout_; }
  const std::vector<int64_t>& shape() const { return shape_; }
  int64_t dim(std::size_t i) const { return shape_.at(i); }
  std::size_t rank() const { return shape_.size(); }
  // Inline: kernels test it in their loop conditions.
  int64_t numel() const {
    int64_t n = 1;
    for (int64_t d : shape_) n *= d;
    return n;
  }
  std::size_t nbytes() const { return bytes_.size(); }

  // Typed access; throws std::logic_error when T does not match dtype()
  // (uint16_t for kBf16 and kUint16).
  template <class T> T* data();
  template <class T> const T* data() const;
  // Row-major flat offset of a full index; throws on rank or range errors.
  int64_t offset(const std::vector<int64_t>& index) const;
  template <class T> T& at(const std::vector<int64_t>& index) { return data<T>()[offset(index)]; }
  template <class T> const T& at(const std::vector<int64_t>& index) const { return data<T>()[offset(index)]; }

  std::vector<uint8_t>& bytes() { return bytes_; }
  const std::vector<uint8_t>& bytes() const { return bytes_; }

  // Value equality: dtype, shape and bytes. The layout tag is a reader's hint
  // and does not take part (a .npy round trip does not carry it).
  bool operator==(const Tensor& other) const;
  bool operator!=(const Tensor& other) const { return !(*this == other); }

 private:
  DType dtype_ = DType::kInt8;
  Layout layout_ = Layout::kAny;
  std::vector<int64_t> shape_;
  std::vector<uint8_t> bytes_;
};

// .npy format 1.0 / 2.0 (and 3.0), little-endian, C order. Errors are
// cosim::InputError naming the file and the problem.
// dtypes: '<i1' or '|i1' int8, '<i2' int16, '<i4' int32, '<f4' fp32,
// '<u1' or '|u1' uint8, '<u4' uint32, '<i8' int64, '<u8' uint64, and '<u2' bf16 (raw bit patterns;
// NumPy has no bf16): read_npy gives a '<u2' file as bf16, and a reader that
// expects uint16 takes the same bits as such; write_npy writes both as '<u2'.
// write_npy writes version 1.0 unless the header needs 2.0.
// The file's size is checked against kMaxNpyBytes (1 GiB) before it is read;
// the shape's byte count (overflow-safe, at most kMaxNpyBytes even counting
// only the non-zero dimensions of an empty array) must equal the data that
// follows.
constexpr uint64_t kMaxNpyBytes = uint64_t{1} << 30;
Tensor read_npy(const std::string& path);
void write_npy(const std::string& path, const Tensor& tensor);

}  // namespace cosim
