#include "cosim/catalog.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace fs = std::filesystem;

namespace cosim::tb {

std::string default_scenario_dir() {
  fs::path dir = "scenarios";
#ifdef COSIM_SOURCE_DIR
  if (!fs::is_directory(dir)) dir = fs::path(COSIM_SOURCE_DIR) / "scenarios";
#endif
  return dir.string();
}

Catalog list_catalog(const BackendRegistry& registry, const std::string& dir) {
  Catalog c;
  c.dir = dir.empty() ? default_scenario_dir() : dir;
  std::vector<fs::path> files;
  if (fs::is_directory(c.dir)) {
    for (const auto& e : fs::directory_iterator(c.dir)) {
      if (e.path().extension() == ".yaml" || e.path().extension() == ".yml") files.push_back(e.path());
    }
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    ScenarioEntry s;
    s.name = f.stem().string();
    s.file = f.string();
    try {
      const YAML::Node n = YAML::LoadFile(f.string());
      if (n["target"] && n["target"].IsScalar()) s.target = n["target"].Scalar();
      if (n["op"] && n["op"].IsScalar()) s.op = n["op"].Scalar();
      if (n["description"] && n["description"].IsScalar()) s.description = n["description"].Scalar();
    } catch (const YAML::Exception&) {
      s.description = "(not valid YAML)";
    }
    c.scenarios.push_back(s);
  }
  for (const auto* b : registry.all()) {
    c.targets.push_back({b->name(), b->description(), b->ops(), registry.origin(b->name())});
  }
  return c;
}

void print_catalog(const Catalog& c, std::ostream& out) {
  char line[512];
  out << "scenarios in " << c.dir << ":\n";
  for (const auto& s : c.scenarios) {
    std::snprintf(line, sizeof line, "  %-24s %-9s %-12s ", s.name.c_str(), s.target.c_str(), s.op.c_str());
    out << line << s.description << "\n";
  }
  if (c.scenarios.empty()) out << "  (none)\n";
  out << "targets:\n";
  for (const auto& t : c.targets) {
    std::string ops;
    for (const auto& o : t.ops) ops += (ops.empty() ? "" : ", ") + o;
    std::snprintf(line, sizeof line, "  %-9s ops: %-28s ", t.name.c_str(), ops.c_str());
    out << line << t.description << (t.origin.empty() ? "" : " [plugin " + t.origin + "]") << "\n";
  }
}

}  // namespace cosim::tb
