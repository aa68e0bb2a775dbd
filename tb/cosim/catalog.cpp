#include "cosim/catalog.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "scenario/scenario.hpp"
#include "scenario/yaml_load.hpp"

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
  std::error_code ec;
  if (fs::is_directory(c.dir, ec)) {
    for (fs::directory_iterator it(c.dir, ec), end; !ec && it != end; it.increment(ec)) {
      const fs::path& p = it->path();
      if (p.extension() == ".yaml" || p.extension() == ".yml") files.push_back(p);
    }
    if (ec) throw InputError(c.dir + ": cannot list the folder: " + ec.message());
  } else if (!dir.empty()) {
    // A folder the user named that is not there is bad input, not "(none)".
    throw InputError(dir + ": " + (fs::exists(dir, ec) ? "not a folder" : "no such folder") +
                     " (--dir names the folder of scenario files)");
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    ScenarioEntry s;
    s.name = f.stem().string();
    s.file = f.string();
    // Each entry on its own: one that is not a readable scenario file (a
    // folder named x.yaml, a FIFO, an oversized file) is named, the rest listed.
    try {
      const std::string text = read_regular_file_text(f.string(), scenario::kMaxScenarioBytes);
      const YAML::Node n = scenario::load_yaml(text);
      if (n.IsMap()) {
        if (n["target"] && n["target"].IsScalar()) s.target = n["target"].Scalar();
        if (n["op"] && n["op"].IsScalar()) s.op = n["op"].Scalar();
        if (n["description"] && n["description"].IsScalar()) s.description = n["description"].Scalar();
      } else {
        s.description = "(not a scenario: no map of keys)";
      }
    } catch (const YAML::Exception&) {
      s.description = "(not valid YAML)";
    } catch (const InputError& e) {
      const std::string why = e.what();
      const std::size_t colon = why.rfind(": ");
      s.description = "(skipped: " + (colon == std::string::npos ? why : why.substr(colon + 2)) + ")";
    } catch (const IoError& e) {
      s.description = std::string("(skipped: ") + e.what() + ")";
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
    // Names and texts come from files: control bytes shown escaped, one line each.
    std::snprintf(line, sizeof line, "  %-24s %-9s %-12s ", one_line(s.name).c_str(), one_line(s.target).c_str(),
                  one_line(s.op).c_str());
    out << line << one_line(s.description) << "\n";
  }
  if (c.scenarios.empty()) out << "  (none)\n";
  out << "targets:\n";
  // The ops column as wide as the longest list (at least 28), so every
  // description starts in one column, two spaces or more after its ops.
  std::vector<std::string> ops(c.targets.size());
  std::size_t width = 28;
  for (std::size_t i = 0; i < c.targets.size(); ++i) {
    for (const auto& o : c.targets[i].ops) ops[i] += (ops[i].empty() ? "" : ", ") + o;
    width = std::max(width, ops[i].size() + 1);
  }
  for (std::size_t i = 0; i < c.targets.size(); ++i) {
    const auto& t = c.targets[i];
    std::snprintf(line, sizeof line, "  %-9s ops: %-*s ", t.name.c_str(), static_cast<int>(width), ops[i].c_str());
    out << line << t.description << (t.origin.empty() ? "" : " [plugin " + t.origin + "]") << "\n";
  }
}

}  // namespace cosim::tb
