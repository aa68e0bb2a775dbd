// cosim.golden: the TFLite int8 reference operators of cpp_model/ops on
// NumPy arrays, in double or single rounding.
#pragma once

#include <pybind11/pybind11.h>

namespace cosim::python {

// Defines the submodule `golden` of `m`.
void bind_golden(pybind11::module_& m);

}  // namespace cosim::python
