// cosim.run / cosim.replay / cosim.list: the CLI's library functions
// (tb/cosim/runner, tb/cosim/catalog) behind Python signatures.
#pragma once

#include <pybind11/pybind11.h>

namespace cosim::python {

// Defines RunResult, run, replay and list on `m`.
void bind_simulation(pybind11::module_& m);

}  // namespace cosim::python
