// Small helpers shared by the ops tests.
#pragma once

#include <cstdint>
#include <vector>

#include "tensor/tensor.hpp"

namespace opstest {

inline cosim::Tensor i8(std::vector<int64_t> shape, const std::vector<int>& v) {
  cosim::Tensor t(cosim::DType::kInt8, std::move(shape));
  for (std::size_t i = 0; i < v.size(); ++i) t.data<int8_t>()[i] = static_cast<int8_t>(v[i]);
  return t;
}

inline cosim::Tensor i32(std::vector<int64_t> shape, const std::vector<int32_t>& v) {
  cosim::Tensor t(cosim::DType::kInt32, std::move(shape));
  for (std::size_t i = 0; i < v.size(); ++i) t.data<int32_t>()[i] = v[i];
  return t;
}

template <class T> std::vector<int> values(const cosim::Tensor& t) {
  std::vector<int> v;
  for (int64_t i = 0; i < t.numel(); ++i) v.push_back(t.data<T>()[i]);
  return v;
}

}  // namespace opstest
