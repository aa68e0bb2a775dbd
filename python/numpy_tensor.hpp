// cosim::Tensor <-> NumPy arrays. dtypes map one to one: int8, int16, int32,
// float32, and bf16 as uint16 bit patterns (as in .npy files; NumPy has no
// bf16). Arrays are copied both ways: a Tensor owns its bytes.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>

#include "tensor/tensor.hpp"

namespace cosim::python {

// `what` names the argument in errors. An array of another dtype is an
// InputError naming it (no silent cast: int8 wraparound would hide a bug);
// any memory order is accepted and copied to C order.
Tensor to_tensor(const pybind11::array& array, const std::string& what);

// The same, but the array must hold `dtype`; a Python list or scalar is
// converted first, its values checked to fit (e.g. [1, -3] for int8).
Tensor to_tensor(const pybind11::handle& value, DType dtype, const std::string& what);

pybind11::array to_numpy(const Tensor& tensor);

}  // namespace cosim::python
