#include "tf2/npy_weights.hpp"

#include <cstring>

#include "common/error.hpp"
#include "tensor/tensor.hpp"

namespace cosim::tf2 {

FloatArray load_float_npy(const std::string& path) {
  const Tensor t = read_npy(path);
  if (t.dtype() != DType::kFp32) {
    throw InputError(path + ": expected a float32 array, got " + dtype_name(t.dtype()));
  }
  FloatArray a;
  a.shape = t.shape();
  a.values.resize(static_cast<std::size_t>(t.numel()));
  std::memcpy(a.values.data(), t.data<float>(), a.values.size() * sizeof(float));
  return a;
}

InqWeights inq_compress_npy(const std::string& path, std::vector<int64_t>* shape) {
  FloatArray a = load_float_npy(path);
  if (shape) *shape = a.shape;
  try {
    return inq_compress(a.values);
  } catch (const InputError& e) {
    throw InputError(path + ": " + e.what());
  }
}

}  // namespace cosim::tf2
