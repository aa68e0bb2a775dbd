#include "scenario/scenario.hpp"

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "scenario/yaml_load.hpp"

namespace fs = std::filesystem;

namespace cosim::scenario {

const char* requant_name(Requant r) {
  switch (r) {
    case Requant::kVta16: return "vta16";
    case Requant::kTfliteDouble: return "tflite_double";
    case Requant::kTfliteSingle: return "tflite_single";
    case Requant::kSaturate: return "saturate";
  }
  return "?";
}

namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

bool all_digits(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

// Applies "a.b.c=value"; returns the key path. Missing maps on the way are
// created so that a default-only section (testbench) can still be set.
std::string apply_override(YAML::Node root, const std::string& assignment) {
  const auto eq = assignment.find('=');
  const std::string where = "--set " + assignment;
  if (eq == std::string::npos || eq == 0) {
    throw InputError(where + ": expected key.path=value");
  }
  const std::string key = assignment.substr(0, eq);
  const std::string text = assignment.substr(eq + 1);
  const std::vector<std::string> parts = split(key, '.');
  YAML::Node value;
  try {
    value = load_yaml(text);
  } catch (const YAML::Exception& e) {
    throw InputError(where + ": value is not valid YAML: " + e.msg);
  }
  YAML::Node cur;
  cur.reset(root);
  std::string path;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::string& part = parts[i];
    if (part.empty()) throw InputError(where + ": empty key segment in '" + key + "'");
    const bool last = i + 1 == parts.size();
    if (cur.IsSequence()) {
      // At most 9 digits: std::stoul of a longer string may overflow.
      if (!all_digits(part) || part.size() > 9 || std::stoul(part) >= cur.size()) {
        throw InputError(where + ": '" + path + "' is a list of " + std::to_string(cur.size()) +
                         " elements; expected an index, got '" + part + "'");
      }
      const std::size_t index = std::stoul(part);
      path += "[" + part + "]";
      if (last) {
        cur[index] = value;
      } else {
        YAML::Node next = cur[index];
        cur.reset(next);
      }
      continue;
    }
    if (!cur.IsMap() && !cur.IsNull()) {
      throw InputError(where + ": '" + path + "' is not a map, cannot set '" + part + "'");
    }
    path += (path.empty() ? "" : ".") + part;
    if (last) {
      cur[part] = value;
    } else {
      YAML::Node next = cur[part];
      if (!next.IsDefined() || next.IsNull()) {
        cur[part] = YAML::Node(YAML::NodeType::Map);
        next = cur[part];
      }
      cur.reset(next);
    }
  }
  return path;
}

const TargetSchema* find_target(const std::vector<TargetSchema>& targets, const std::string& name) {
  for (const auto& t : targets) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

uint64_t fnv1a(const std::string& s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace

Schema common_schema(const std::vector<TargetSchema>& targets) {
  std::vector<std::string> names;
  for (const auto& t : targets) names.push_back(t.name);
  Schema testbench = Schema::map()
                         .optional("dram_latency", Schema::integer(0, 100000), "20")
                         .optional("bytes_per_cycle", Schema::integer(1, 4096), "8")
                         .optional("stall_probability", Schema::number(0.0, 0.9), "0.0")
                         .optional("timeout_cycles", Schema::integer(1, 1000000000000ll), "10000000");
  return Schema::map()
      .optional("name", Schema::string())
      .optional("description", Schema::string())
      .required("target", Schema::one_of(names))
      .required("op", Schema::string())
      .optional("seed", Schema::integer(0, INT64_MAX), "1")
      .optional("requant", Schema::one_of({"vta16", "tflite_double", "tflite_single", "saturate"}))
      .optional("testbench", testbench, "{}")
      .optional("output_format", schemas::output_format());
}

namespace {
Scenario load_scenario_impl(const std::string& file, const std::vector<TargetSchema>& targets,
                            const std::vector<std::string>& overrides, std::optional<uint64_t> seed,
                            const std::map<std::string, Tensor>& tensors);
}  // namespace

Scenario load_scenario(const std::string& file, const std::vector<TargetSchema>& targets,
                       const std::vector<std::string>& overrides, std::optional<uint64_t> seed,
                       const std::map<std::string, Tensor>& tensors) {
  // Messages quote the file, YAML parser messages and --set text: one line
  // each, whatever control characters those hold.
  try {
    return load_scenario_impl(file, targets, overrides, seed, tensors);
  } catch (const InputError& e) {
    throw InputError(one_line(e.what()));
  }
}

namespace {

// Where in-memory tensor `name` goes: the key path and the node holding the
// data source under `field`. data.<name> when the scenario's data section has
// it, else a top-level <name> (a model scenario's input), else the data of
// the entry of that name in a `buffers` or `streams` list, else the file an
// `args` or `results` entry of that name reads (the op call's).
struct MemoryTensorKey {
  std::string path;
  YAML::Node parent;
  std::string field;
};

MemoryTensorKey memory_tensor_key(YAML::Node& root, const std::string& name, const std::string& file) {
  // A missing key of a const node is an invalid node: only IsDefined() may be
  // asked of it (a model scenario has no data section).
  const YAML::Node data = root["data"];
  const bool has_data = data.IsDefined() && data.IsMap();
  if (has_data && data[name]) return {"data." + name, root["data"], name};
  if (root[name]) return {name, root, name};
  std::string keys;
  if (has_data) {
    for (const auto& kv : data) keys += (keys.empty() ? "" : ", ") + kv.first.as<std::string>();
  }
  for (const char* list : {"buffers", "streams"}) {
    const YAML::Node entries = root[list];
    if (!entries.IsDefined() || !entries.IsSequence()) continue;
    for (std::size_t i = 0; i < entries.size(); ++i) {
      const YAML::Node e = entries[i];
      if (!e.IsMap() || !e["name"] || !e["name"].IsScalar()) continue;
      const std::string entry = e["name"].as<std::string>();
      // A buffer or stream that is only checked takes the array as its expected values.
      const std::string field = e["expect"] && !e["data"] ? "expect" : "data";
      if (entry == name) return {std::string(list) + "[" + std::to_string(i) + "]." + field, root[list][i], field};
      keys += (keys.empty() ? "" : ", ") + entry;
    }
  }
  for (const char* section : {"args", "results"}) {
    const YAML::Node entries = root[section];
    if (!entries.IsDefined() || !entries.IsMap()) continue;
    for (const auto& kv : entries) {
      if (!kv.second.IsMap() || !kv.second["npy"]) continue;
      const std::string entry = kv.first.as<std::string>();
      if (entry == name) return {std::string(section) + "." + name, root[section], name};
      keys += (keys.empty() ? "" : ", ") + entry;
    }
  }
  throw InputError(file + ": inputs['" + name + "']: the scenario has no tensor of that name" +
                   (keys.empty() ? std::string(" (it has no data section)") : "; its data keys: " + keys));
}

// What a path given as a scenario file is when it is not one.
void check_scenario_path(const std::string& file) {
  if (fs::is_directory(file)) {
    throw InputError(file + ": a folder, not a scenario file (give one of its .yaml files; `cosim list --dir " + file +
                     "` lists them)");
  }
  if (!fs::exists(file)) throw InputError(file + ": no such scenario file");
  if (!fs::is_regular_file(file)) throw InputError(file + ": cannot open scenario file (not a regular file)");
}

Scenario load_scenario_impl(const std::string& file, const std::vector<TargetSchema>& targets,
                            const std::vector<std::string>& overrides, std::optional<uint64_t> seed,
                            const std::map<std::string, Tensor>& tensors) {
  check_scenario_path(file);
  // Read whole under a cap before parsing (a scenario is a page of keys;
  // tensors come from .npy or .tflite files).
  const std::string text = read_regular_file_text(file, kMaxScenarioBytes, "a scenario file");
  YAML::Node root;
  try {
    std::vector<YAML::Node> docs = load_yaml_documents(text);
    if (docs.size() > 1) {
      const YAML::Mark m = docs[1].Mark();
      throw InputError(file + ":" + std::to_string(m.line >= 0 ? m.line + 1 : 1) +
                       ": a second YAML document ('---'); a scenario file holds one");
    }
    if (!docs.empty()) root = docs[0];
  } catch (const YAML::ParserException& e) {
    throw InputError(file + ":" + std::to_string(e.mark.line + 1) + ": YAML syntax error: " + e.msg);
  } catch (const YAML::Exception& e) {
    throw InputError(file + ": cannot read YAML: " + e.msg);
  }
  if (!root.IsMap()) {
    throw InputError(file + ":1: '(top level)': expected a map of scenario keys (target, op, ...)");
  }
  Overrides applied;
  for (const std::string& o : overrides) {
    const std::string path = apply_override(root, o);
    applied[path] = "--set " + o;
  }
  if (seed) {
    root["seed"] = *seed;
    applied["seed"] = "--seed " + std::to_string(*seed);
  }
  std::map<std::string, Tensor> memory_npy;
  for (const auto& [name, tensor] : tensors) {
    MemoryTensorKey key = memory_tensor_key(root, name, file);
    const std::string label = "inputs['" + name + "']";
    YAML::Node source(YAML::NodeType::Map);
    // The keys the source already has beside its data (an MLI format, say:
    // --set data.input='{mli: fx8, frac_bits: 5}') stay.
    const YAML::Node before = key.parent[key.field];
    if (before.IsDefined() && before.IsMap()) {
      for (const auto& kv : before) {
        const std::string k = kv.first.as<std::string>();
        if (k != "npy" && k != "random") source[k] = kv.second;
      }
    }
    source["npy"] = label;
    key.parent[key.field] = source;
    applied[key.path] = label;
    memory_npy[label] = tensor;
  }

  // target and op first: they select the rest of the schema.
  const Schema common = common_schema(targets);
  YAML::Node only_target(YAML::NodeType::Map);
  if (root["target"]) only_target["target"] = root["target"];
  const Value target_v = validate(only_target, Schema::map().required("target", Schema::one_of([&] {
    std::vector<std::string> n;
    for (const auto& t : targets) n.push_back(t.name);
    return n;
  }())), file, "", applied)["target"];
  const TargetSchema* target = find_target(targets, target_v.s);
  YAML::Node only_op(YAML::NodeType::Map);
  if (root["op"]) only_op["op"] = root["op"];
  const Value op_v = validate(only_op, Schema::map().required("op", Schema::one_of(target->ops)), file, "", applied)["op"];

  Schema full = Schema::map();
  full.merge(common);
  if (target->op_schema) full.merge(target->op_schema(op_v.s));
  Scenario sc;
  sc.root = validate(root, full, file, "", applied);
  sc.file = file;
  sc.dir = fs::path(file).parent_path().string();
  sc.memory_npy = std::move(memory_npy);
  sc.target = target_v.s;
  sc.op = op_v.s;
  // Echoed on the console and in reports: control bytes written as \xNN.
  sc.name = one_line(sc.root.has("name") ? sc.root["name"].s : fs::path(file).stem().string());
  sc.seed = static_cast<uint64_t>(sc.root["seed"].i);
  if (sc.root.has("requant")) {
    const std::string& r = sc.root["requant"].s;
    sc.requant = r == "vta16"           ? Requant::kVta16
                 : r == "tflite_single" ? Requant::kTfliteSingle
                 : r == "saturate"      ? Requant::kSaturate
                                        : Requant::kTfliteDouble;
  }
  const Value& tb = sc.root["testbench"];
  sc.testbench.dram_latency = static_cast<uint32_t>(tb["dram_latency"].i);
  sc.testbench.bytes_per_cycle = static_cast<uint32_t>(tb["bytes_per_cycle"].i);
  sc.testbench.stall_probability = tb["stall_probability"].as_float();
  sc.testbench.timeout_cycles = static_cast<uint64_t>(tb["timeout_cycles"].i);
  if (sc.root.has("output_format")) sc.output_format = mli_source(sc.root["output_format"]);
  return sc;
}
}  // namespace

// ---- data ----

Rng::Rng(uint64_t seed, const std::string& stream) : state_(seed ^ fnv1a(stream)) {}

uint64_t Rng::next() {
  uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

int64_t Rng::uniform_int(int64_t lo, int64_t hi) {
  const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;
  const uint64_t r = span == 0 ? next() : next() % span;
  return static_cast<int64_t>(static_cast<uint64_t>(lo) + r);
}

double Rng::uniform(double lo, double hi) {
  const double unit = static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0);
  return lo + (hi - lo) * unit;
}

namespace {

struct Range {
  double lo, hi;
};

Range dtype_range(DType d) {
  switch (d) {
    case DType::kInt8: return {-128, 127};
    case DType::kInt16: return {-32768, 32767};
    case DType::kInt32: return {-2147483648.0, 2147483647.0};
    case DType::kBf16:
    case DType::kFp32: return {-1.0, 1.0};
    case DType::kUint8: return {0, 255};
    case DType::kUint16: return {0, 65535};
    case DType::kUint32: return {0, 4294967295.0};
    case DType::kInt64: return {-9223372036854775808.0, 9223372036854775807.0};  // the top rounds to 2^63
    case DType::kUint64: return {0, 18446744073709551615.0};                     // to 2^64
  }
  return {0, 0};
}

bool is_float(DType d) { return d == DType::kBf16 || d == DType::kFp32; }

// Integers drawn uniformly from [r.lo, r.hi], one draw an element in order.
template <class T> void fill_uniform(Tensor& t, Rng& rng, Range r) {
  T* v = t.data<T>();
  for (int64_t i = 0; i < t.numel(); ++i)
    v[i] = static_cast<T>(rng.uniform_int(static_cast<int64_t>(r.lo), static_cast<int64_t>(r.hi)));
}

// 64-bit integers: the bounds as integers (a double at 2^63 or 2^64 is the type's top), drawn by
// uniform_int, whose span arithmetic is modulo 2^64 (a uint64 bound passes as the same word).
template <class T> void fill_uniform_64(Tensor& t, Rng& rng, Range r) {
  const auto bound = [](double d) {
    if (d >= static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
    if (d <= static_cast<double>(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
    return static_cast<T>(d);
  };
  const auto lo = static_cast<int64_t>(bound(r.lo)), hi = static_cast<int64_t>(bound(r.hi));
  T* v = t.data<T>();
  for (int64_t i = 0; i < t.numel(); ++i) v[i] = static_cast<T>(rng.uniform_int(lo, hi));
}

uint16_t to_bf16(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  bits += 0x7fff + ((bits >> 16) & 1);  // round to nearest even
  return static_cast<uint16_t>(bits >> 16);
}

std::string shape_text(const std::vector<int64_t>& s) {
  std::string t = "[";
  for (std::size_t i = 0; i < s.size(); ++i) t += (i ? "," : "") + std::to_string(s[i]);
  return t + "]";
}

}  // namespace

Tensor make_tensor(const Scenario& sc, const Value& source, DType dtype, const std::vector<int64_t>& shape,
                   Layout layout, const std::string& name, const std::optional<Int8Quant>& quant) {
  // A safety net under every backend: whatever shape a backend derives, no
  // tensor beyond the schema's per-tensor limit is allocated.
  int64_t elements = 1;
  for (int64_t d : shape) {
    if (d < 0 || (d > 0 && elements > kMaxShapeElements / d)) {
      source.fail("tensor '" + name + "' of shape " + shape_text(shape) + " has more than " +
                  std::to_string(kMaxShapeElements) + " elements (the limit of one tensor)");
    }
    elements *= d;
  }
  if (source.is_map() && source.has("npy")) {
    const Value& p = source["npy"];
    const auto memory = sc.memory_npy.find(p.s);
    const fs::path path = fs::path(p.s).is_absolute() ? fs::path(p.s) : fs::path(sc.dir) / p.s;
    const std::string where = memory != sc.memory_npy.end() ? p.s : path.string();
    Tensor t;
    if (memory != sc.memory_npy.end()) {
      t = memory->second;
    } else {
      try {
        t = read_npy(path.string());
      } catch (const InputError& e) {
        p.fail(e.what());
      }
    }
    if (t.dtype() == DType::kBf16 && dtype == DType::kFp32) {
      // bf16 bits (a tinydnn workload's inputs, as --dump and RunResult.inputs
      // give them) where float32 is read: widened exactly, so they round-trip.
      Tensor f(DType::kFp32, t.shape());
      for (int64_t i = 0; i < t.numel(); ++i) {
        const uint32_t bits = static_cast<uint32_t>(t.data<uint16_t>()[i]) << 16;
        std::memcpy(&f.data<float>()[i], &bits, 4);
      }
      t = std::move(f);
    }
    if (t.shape() != shape) {
      p.fail(where + " has shape " + shape_text(t.shape()) + ", expected " + shape_text(shape));
    }
    if (const std::optional<MliSource> mli = mli_source(source)) t = from_mli(source, *mli, t, dtype, quant, name);
    // '<u2' is read as bf16 bits; where uint16 is expected they are taken as such.
    if (t.dtype() != dtype && !(t.dtype() == DType::kBf16 && dtype == DType::kUint16)) {
      const std::string held = t.dtype() == DType::kBf16 ? "'<u2' (uint16 or bf16 bits)" : dtype_name(t.dtype());
      p.fail(where + " holds " + held + ", expected " + dtype_name(dtype));
    }
    Tensor out(dtype, shape, layout);
    out.bytes() = t.bytes();
    return out;
  }
  Range r = dtype_range(dtype);
  const Range full = r;
  if (source.is_map() && source.has("random")) {
    const Value& range = source["random"];
    if (range.has("min")) r.lo = range["min"].as_float();
    if (range.has("max")) r.hi = range["max"].as_float();
    if (r.lo > r.hi) range.fail("expected min <= max");
    if (r.lo < full.lo || r.hi > full.hi) {
      range.fail(std::string("expected a range inside ") + dtype_name(dtype) + " [" + std::to_string(full.lo) +
                 ", " + std::to_string(full.hi) + "]");
    }
    if (!is_float(dtype) && (r.lo != std::floor(r.lo) || r.hi != std::floor(r.hi))) {
      range.fail("expected integer min/max for an integer tensor");
    }
  }
  Rng rng(sc.seed, name);
  Tensor t(dtype, shape, layout);
  switch (dtype) {
    case DType::kInt8: fill_uniform<int8_t>(t, rng, r); break;
    case DType::kInt16: fill_uniform<int16_t>(t, rng, r); break;
    case DType::kInt32: fill_uniform<int32_t>(t, rng, r); break;
    case DType::kUint8: fill_uniform<uint8_t>(t, rng, r); break;
    case DType::kUint16: fill_uniform<uint16_t>(t, rng, r); break;
    case DType::kUint32: fill_uniform<uint32_t>(t, rng, r); break;
    case DType::kInt64: fill_uniform_64<int64_t>(t, rng, r); break;
    case DType::kUint64: fill_uniform_64<uint64_t>(t, rng, r); break;
    case DType::kBf16: {
      uint16_t* bits = t.data<uint16_t>();
      for (int64_t i = 0; i < t.numel(); ++i) bits[i] = to_bf16(static_cast<float>(rng.uniform(r.lo, r.hi)));
      break;
    }
    case DType::kFp32: {
      float* v = t.data<float>();
      for (int64_t i = 0; i < t.numel(); ++i) v[i] = static_cast<float>(rng.uniform(r.lo, r.hi));
      break;
    }
  }
  return t;
}

}  // namespace cosim::scenario
