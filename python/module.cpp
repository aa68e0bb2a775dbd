// The Python module `cosim`: run, replay and list scenarios as the CLI does
// (simulation_api), and the golden operators on NumPy arrays (golden_api).
// C++ errors become Python exceptions carrying the CLI's one-line message.
#include <pybind11/pybind11.h>

#include "common/error.hpp"
#include "golden_api.hpp"
#include "simulation_api.hpp"

namespace py = pybind11;

PYBIND11_MODULE(cosim, m) {
  m.doc() = "Bit-exact co-simulation of NN accelerators: run scenarios on the Verilated RTL, golden operators.";
  // ValueError: bad input, as `cosim` exit status 2; RuntimeError: the DUT
  // hung (exit status 3).
  py::register_exception<cosim::InputError>(m, "InputError", PyExc_ValueError);
  py::register_exception<cosim::TimeoutError>(m, "SimulationTimeout", PyExc_RuntimeError);
  cosim::python::bind_simulation(m);
  cosim::python::bind_golden(m);
}
