// What `cosim list` shows, as data: the scenarios of a folder (name, target,
// op, description read from each YAML) and the registered targets. The CLI
// prints it; the Python API returns it as dicts.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "cosim/backend.hpp"

namespace cosim::tb {

struct ScenarioEntry {
  std::string name;  // the file stem
  std::string file;
  std::string target = "?";  // "?" when the file does not say (or is not YAML)
  std::string op = "?";
  std::string description;
};

struct TargetEntry {
  std::string name;
  std::string description;
  std::vector<std::string> ops;
  std::string origin;  // the plugin it came from; empty when built in
};

struct Catalog {
  std::string dir;  // the scenario folder read
  std::vector<ScenarioEntry> scenarios;  // sorted by file name
  std::vector<TargetEntry> targets;      // sorted by name
};

// ./scenarios when it exists, else the source tree's (so `cosim list` works
// from any directory of a build).
std::string default_scenario_dir();

// `dir` empty: default_scenario_dir(). A missing folder lists no scenario.
Catalog list_catalog(const BackendRegistry& registry, const std::string& dir = "");

void print_catalog(const Catalog& catalog, std::ostream& out);

}  // namespace cosim::tb
