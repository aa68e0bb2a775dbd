// Each simulation of the Python module runs in a forked child (SystemC
// elaborates once per process; a crash stays out of Python). Unlike
// tb::in_child, the parent's wait can be interrupted and the child cannot be
// orphaned:
//  - the parent waits with the GIL released and runs Python's signal
//    handlers every 100 ms: Ctrl-C stops the child (SIGTERM, SIGKILL after
//    5 s), reaps it and raises KeyboardInterrupt;
//  - the child asks for a parent-death signal (SIGTERM): when the Python
//    process dies, even by SIGKILL, the simulation stops too (a run folder
//    then says "interrupted").
#pragma once

#include <functional>
#include <nlohmann/json.hpp>

namespace cosim::python {

// The JSON `body` returns in the child. An exception escaping `body` comes
// back as {"exception": type name, "what": message}; a child that dies or
// sends nothing as {"child_error": what happened}. Throws
// pybind11::error_already_set when a Python signal handler raised (after
// the child is gone). Call with the GIL held.
nlohmann::json run_in_child(const std::function<nlohmann::json()>& body);

}  // namespace cosim::python
