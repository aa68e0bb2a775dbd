#include "cosim/plugins.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "common/error.hpp"

namespace cosim::tb {

namespace fs = std::filesystem;

namespace {

constexpr const char* kSuffix = ".cosim-plugin.so";

bool is_plugin(const fs::path& p) {
  const std::string n = p.filename().string();
  return n.size() > std::string(kSuffix).size() && n.compare(n.size() - std::string(kSuffix).size(), std::string::npos,
                                                             kSuffix) == 0;
}

// The testbench's symbols must be visible to the plugin. In the `cosim`
// program they are (it exports them); in a shared library that was loaded
// privately (the Python module) they are made global first.
void export_own_symbols() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&dut_path_from_environment), &info) == 0 || info.dli_fname == nullptr) return;
  dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_GLOBAL);
}

}  // namespace

std::vector<std::string> dut_path_from_environment() {
  std::vector<std::string> out;
  const char* env = std::getenv("COSIM_DUT_PATH");
  if (env == nullptr) return out;
  std::string s = env;
  std::size_t start = 0;
  while (start <= s.size()) {
    const std::size_t end = std::min(s.find(':', start), s.size());
    if (end > start) out.push_back(s.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

std::vector<std::string> load_plugins(BackendRegistry& registry, const std::vector<std::string>& dirs) {
  std::vector<std::string> loaded;
  if (dirs.empty()) return loaded;
  export_own_symbols();
  for (const std::string& dir : dirs) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) throw InputError("--dut-path / COSIM_DUT_PATH: " + dir + " is not a folder");
    std::vector<fs::path> found;
    for (const fs::path& d : {fs::path(dir), fs::path(dir) / "build"}) {
      if (!fs::is_directory(d, ec)) continue;
      for (const auto& e : fs::directory_iterator(d, ec)) {
        if (e.is_regular_file() && is_plugin(e.path())) found.push_back(e.path());
      }
    }
    if (found.empty()) {
      throw InputError("--dut-path / COSIM_DUT_PATH: no *" + std::string(kSuffix) + " in " + dir + " or " + dir +
                       "/build (build the accelerator first: cmake -S " + dir + " -B " + dir + "/build && cmake --build " +
                       dir + "/build)");
    }
    std::sort(found.begin(), found.end());
    for (const fs::path& p : found) {
      const std::string path = fs::absolute(p).lexically_normal().string();
      if (std::find(loaded.begin(), loaded.end(), path) != loaded.end()) continue;
      // Never closed: the backends' code lives in the library.
      void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (h == nullptr) {
        const char* why = dlerror();
        throw InputError("cannot load plugin " + path + ": " + (why ? why : "unknown error") +
                         " (was it built against this cosim?)");
      }
      using Register = int (*)(BackendRegistry&, int);
      auto reg = reinterpret_cast<Register>(dlsym(h, "cosim_plugin_register"));
      if (reg == nullptr) throw InputError("plugin " + path + " exports no cosim_plugin_register()");
      registry.set_origin(path);
      const int rc = reg(registry, kPluginAbi);
      registry.set_origin("");
      if (rc != 0) {
        throw InputError("plugin " + path + " was built for plugin ABI " + std::to_string(rc) + ", this cosim has " +
                         std::to_string(kPluginAbi) + " (rebuild it against this installation)");
      }
      loaded.push_back(path);
    }
  }
  return loaded;
}

}  // namespace cosim::tb
