// A scenario written back as YAML, resolved: its relative paths (`model:`,
// `npy:`) made absolute by the rules the loader used, so the text loads to
// the same scenario from any folder. A run keeps it beside its trace
// (trace/scenario.yaml) and a replay prepares the workload from it again.
#pragma once

#include <string>

#include "scenario/scenario.hpp"

namespace cosim::scenario {

// Empty when the scenario cannot be written back: it has tensors given in
// memory (the Python API's inputs=), which no file holds.
std::string resolved_yaml(const Scenario& sc);

// A path from the scenario: absolute as given; relative, from the scenario
// file's folder when written in the file, from the current folder when it
// came from --set (a path typed in a shell).
std::string resolve_path(const Scenario& sc, const Value& key);

}  // namespace cosim::scenario
