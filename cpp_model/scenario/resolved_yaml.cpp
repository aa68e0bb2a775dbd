#include "scenario/resolved_yaml.hpp"

#include <yaml-cpp/yaml.h>

#include <filesystem>

namespace cosim::scenario {

namespace fs = std::filesystem;

namespace {

std::string absolute_from(const fs::path& dir, const std::string& path) {
  const fs::path p(path);
  return p.is_absolute() ? p.string() : (fs::absolute(dir) / p).lexically_normal().string();
}

void emit(YAML::Emitter& out, const Scenario& sc, const Value& v, const std::string& key, bool top) {
  switch (v.kind) {
    case Value::Kind::kNull:
      out << YAML::Null;
      break;
    case Value::Kind::kBool:
      out << v.b;
      break;
    case Value::Kind::kInt:
      out << v.i;
      break;
    case Value::Kind::kFloat:
      out << v.f;
      break;
    case Value::Kind::kString:
      // The loader's path rules: a top-level model as resolve_path, an npy
      // source from the scenario's folder.
      if (top && key == "model") out << YAML::DoubleQuoted << resolve_path(sc, v);
      else if (key == "npy") out << YAML::DoubleQuoted << absolute_from(sc.dir.empty() ? "." : sc.dir, v.s);
      else out << YAML::DoubleQuoted << v.s;
      break;
    case Value::Kind::kList:
      out << YAML::Flow << YAML::BeginSeq;
      for (const Value& item : v.items) emit(out, sc, item, "", false);
      out << YAML::EndSeq;
      break;
    case Value::Kind::kMap:
      out << YAML::BeginMap;
      for (const auto& [k, item] : v.map) {
        out << YAML::Key << k << YAML::Value;
        emit(out, sc, item, k, false);
      }
      out << YAML::EndMap;
      break;
  }
}

}  // namespace

std::string resolve_path(const Scenario& sc, const Value& key) {
  const fs::path dir = !key.loc.override.empty() ? fs::current_path() : fs::path(sc.dir.empty() ? "." : sc.dir);
  return absolute_from(dir, key.as_string());
}

std::string resolved_yaml(const Scenario& sc) {
  if (!sc.memory_npy.empty() || !sc.root.is_map()) return "";
  YAML::Emitter out;
  out.SetDoublePrecision(17);
  out << YAML::BeginMap;
  for (const auto& [k, v] : sc.root.map) {
    out << YAML::Key << k << YAML::Value;
    emit(out, sc, v, k, true);
  }
  out << YAML::EndMap;
  return std::string("# The scenario of this trace, resolved (paths absolute); cosim replay reads it for its report.\n") +
         out.c_str() + "\n";
}

}  // namespace cosim::scenario
