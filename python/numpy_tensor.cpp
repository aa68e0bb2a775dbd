#include "numpy_tensor.hpp"

#include <cstring>

#include "common/error.hpp"

namespace py = pybind11;

namespace cosim::python {

namespace {

py::dtype numpy_dtype(DType d) {
  switch (d) {
    case DType::kInt8: return py::dtype::of<int8_t>();
    case DType::kInt16: return py::dtype::of<int16_t>();
    case DType::kInt32: return py::dtype::of<int32_t>();
    case DType::kBf16: return py::dtype::of<uint16_t>();
    case DType::kFp32: return py::dtype::of<float>();
    case DType::kUint8: return py::dtype::of<uint8_t>();
    case DType::kUint16: return py::dtype::of<uint16_t>();
    case DType::kUint32: return py::dtype::of<uint32_t>();
    case DType::kInt64: return py::dtype::of<int64_t>();
    case DType::kUint64: return py::dtype::of<uint64_t>();
  }
  throw std::logic_error("numpy_dtype: unknown dtype");
}

// Equivalent dtypes (PyArray_EquivTypes), not the same dtype object.
bool has_dtype(const py::array& a, DType d) {
  switch (d) {
    case DType::kInt8: return py::isinstance<py::array_t<int8_t>>(a);
    case DType::kInt16: return py::isinstance<py::array_t<int16_t>>(a);
    case DType::kInt32: return py::isinstance<py::array_t<int32_t>>(a);
    case DType::kBf16: return py::isinstance<py::array_t<uint16_t>>(a);
    case DType::kFp32: return py::isinstance<py::array_t<float>>(a);
    case DType::kUint8: return py::isinstance<py::array_t<uint8_t>>(a);
    case DType::kUint16: return py::isinstance<py::array_t<uint16_t>>(a);
    case DType::kUint32: return py::isinstance<py::array_t<uint32_t>>(a);
    case DType::kInt64: return py::isinstance<py::array_t<int64_t>>(a);
    case DType::kUint64: return py::isinstance<py::array_t<uint64_t>>(a);
  }
  return false;
}

std::string numpy_name(DType d) { return d == DType::kBf16 ? "uint16 (bf16 bits)" : dtype_name(d); }

// The array's elements, C order, as a tensor of `d` (an element type it has).
Tensor copied(const py::array& array, DType d) {
  const py::array c = py::array::ensure(array, py::array::c_style);
  std::vector<int64_t> shape(c.shape(), c.shape() + c.ndim());
  Tensor t(d, shape);
  if (t.nbytes() > 0) std::memcpy(t.bytes().data(), c.data(), t.nbytes());
  return t;
}

}  // namespace

Tensor to_tensor(const py::array& array, const std::string& what) {
  // A uint16 array is bf16 bits here, as in a .npy file; a typed reader takes it as uint16.
  for (DType d : {DType::kInt8, DType::kInt16, DType::kInt32, DType::kInt64, DType::kFp32, DType::kBf16, DType::kUint8,
                  DType::kUint32, DType::kUint64}) {
    if (has_dtype(array, d)) return copied(array, d);
  }
  throw InputError(what + ": a NumPy array of dtype " + py::str(array.dtype()).cast<std::string>() +
                   "; expected int8, int16, int32, int64, float32, uint8, uint32, uint64 or uint16 (uint16 or bf16 bits)");
}

Tensor to_tensor(const py::handle& value, DType dtype, const std::string& what) {
  if (py::isinstance<py::array>(value)) {
    const py::array a = py::reinterpret_borrow<py::array>(value);
    if (!has_dtype(a, dtype)) {
      throw InputError(what + ": a NumPy array of dtype " + py::str(a.dtype()).cast<std::string>() + "; expected " +
                       numpy_name(dtype));
    }
    return copied(a, dtype);
  }
  // A list or a scalar: through NumPy, checking that no value changes.
  py::module_ np = py::module_::import("numpy");
  const py::object exact = np.attr("asarray")(value);
  const py::object cast = exact.attr("astype")(numpy_dtype(dtype));
  if (!np.attr("array_equal")(exact, cast).cast<bool>()) {
    throw InputError(what + ": values do not fit " + numpy_name(dtype));
  }
  return copied(py::reinterpret_borrow<py::array>(cast), dtype);
}

py::array to_numpy(const Tensor& t) {
  py::array a(numpy_dtype(t.dtype()), std::vector<py::ssize_t>(t.shape().begin(), t.shape().end()));
  if (t.nbytes() > 0) std::memcpy(a.mutable_data(), t.bytes().data(), t.nbytes());
  return a;
}

}  // namespace cosim::python
