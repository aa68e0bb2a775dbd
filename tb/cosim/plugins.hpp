// Accelerators built outside this tree: a plugin is a shared library
// (<name>.cosim-plugin.so, built with the installed CMake package's
// cosim_add_plugin()) that registers its target backend and its waveform view
// with the running program. `cosim --dut-path DIR` and the Python module load
// the plugins of DIR (and DIR/build); COSIM_DUT_PATH holds more folders,
// separated by ':'. A plugin resolves the testbench's symbols against the
// program that loads it, so it must be built against the same cosim.
#pragma once

#include <string>
#include <vector>

#include "cosim/backend.hpp"

// What a plugin exports (cosim_add_plugin generates it): registers its
// backends and views; returns 0, or the ABI version it was built for when
// that differs from `abi`.
extern "C" int cosim_plugin_register(cosim::tb::BackendRegistry& registry, int abi);

namespace cosim::tb {

// Bumped whenever a plugin built against the old headers would misbehave.
constexpr int kPluginAbi = 1;

// The folders of COSIM_DUT_PATH (':'-separated; empty entries skipped).
std::vector<std::string> dut_path_from_environment();

// Loads every *.cosim-plugin.so in each folder of `dirs` and its build/
// subfolder into `registry` (its backends' origin: the plugin's path).
// Returns the files loaded. A folder without a plugin, a plugin that does not
// load, a wrong ABI or a target registered twice: cosim::InputError naming it.
std::vector<std::string> load_plugins(BackendRegistry& registry, const std::vector<std::string>& dirs);

}  // namespace cosim::tb
