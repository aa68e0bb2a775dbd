#include "scenario/schema.hpp"

#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <set>
#include <sstream>

#include "common/error.hpp"

namespace cosim::scenario {

struct Field {
  std::string key;
  Schema schema;
  bool required;
  std::string default_yaml;
};

struct SchemaNode {
  enum class Type { kInt, kNumber, kString, kBool, kEnum, kList, kMap, kAnyOf };
  Type type = Type::kString;
  int64_t imin = 0, imax = 0;
  double fmin = 0, fmax = 0;
  bool min_exclusive = false;
  std::vector<std::string> values;  // kEnum
  std::vector<Schema> children;     // kList: element; kAnyOf: alternatives
  std::size_t min_len = 0, max_len = 0;
  bool is_shape = false;
  std::vector<Field> fields;  // kMap
};

namespace {

using Type = SchemaNode::Type;

std::string fmt_double(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + v[i];
  return s;
}

struct Ctx {
  const std::string& file;
  const Overrides& overrides;
};

Location locate(const YAML::Node& node, const Ctx& ctx, const std::string& path, const Location& fallback) {
  for (const auto& [key, text] : ctx.overrides) {
    if (path == key || path.rfind(key + ".", 0) == 0 || path.rfind(key + "[", 0) == 0) {
      Location l;
      l.file = ctx.file;
      l.override = text;
      return l;
    }
  }
  if (!node.IsDefined() || node.Mark().is_null()) {
    // Not from the file: a map an override made on its way to its key
    // (--set foo.bar=1 makes 'foo').
    for (const auto& [key, text] : ctx.overrides) {
      if (key.rfind(path + ".", 0) == 0) {
        Location l;
        l.file = ctx.file;
        l.override = text;
        return l;
      }
    }
    return fallback;
  }
  Location l;
  l.file = ctx.file;
  l.line = node.Mark().line + 1;
  return l;
}

[[noreturn]] void fail_at(const Location& loc, const std::string& path, const std::string& msg) {
  throw InputError(one_line(loc.str() + ": '" + (path.empty() ? std::string("(top level)") : path) + "': " + msg));
}

std::string got(const YAML::Node& node) {
  if (node.IsNull()) return "nothing (null)";
  if (node.IsMap()) return "a map";
  if (node.IsSequence()) return "a list";
  return "'" + node.Scalar() + "'";
}

bool plain_scalar(const YAML::Node& node) { return node.IsScalar() && node.Tag() != "!"; }

bool parse_int(const std::string& t, int64_t* out) {
  if (t.empty()) return false;
  std::size_t start = (t[0] == '-' || t[0] == '+') ? 1 : 0;
  const bool hex = t.size() > start + 2 && t[start] == '0' && (t[start + 1] == 'x' || t[start + 1] == 'X');
  const std::string digits = t.substr(start + (hex ? 2 : 0));
  if (digits.empty()) return false;
  for (char c : digits) {
    if (!(hex ? std::isxdigit(static_cast<unsigned char>(c)) : std::isdigit(static_cast<unsigned char>(c)))) return false;
  }
  errno = 0;
  long long v = std::strtoll(t.c_str(), nullptr, hex ? 16 : 10);
  if (errno != 0) return false;
  *out = v;
  return true;
}

bool parse_number(const std::string& t, double* out) {
  if (t.empty()) return false;
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(t.c_str(), &end);
  if (errno != 0 || end != t.c_str() + t.size() || !std::isfinite(v)) return false;
  // strtod takes "0x1p3" and "infinity"; YAML numbers are decimal.
  for (char c : t) {
    if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E')) return false;
  }
  *out = v;
  return true;
}

Value validate_impl(const YAML::Node& node, const Schema& schema, const Ctx& ctx, const std::string& path,
                    const Location& fallback);

Value validate_map(const YAML::Node& node, const SchemaNode& s, const Ctx& ctx, const std::string& path,
                   const Location& loc, const Schema& schema) {
  if (!node.IsMap() && !node.IsNull()) fail_at(loc, path, "expected " + schema.describe() + ", got " + got(node));
  Value v;
  v.kind = Value::Kind::kMap;
  v.path = path;
  v.loc = loc;
  auto child_path = [&](const std::string& key) { return path.empty() ? key : path + "." + key; };
  std::set<std::string> seen;
  if (node.IsMap()) {
    for (auto it = node.begin(); it != node.end(); ++it) {
      const YAML::Node key_node = it->first;
      const Location key_loc = locate(key_node, ctx, path, loc);
      if (!key_node.IsScalar()) fail_at(key_loc, path, "expected string keys, got " + got(key_node));
      const std::string key = key_node.Scalar();
      const Location kloc = locate(key_node, ctx, child_path(key), loc);
      if (!seen.insert(key).second) fail_at(kloc, child_path(key), "duplicate key");
      bool known = false;
      for (const Field& f : s.fields) known = known || f.key == key;
      if (!known) {
        std::vector<std::string> names;
        for (const Field& f : s.fields) names.push_back(f.key);
        fail_at(kloc, child_path(key), "unknown key; expected one of: " + join(names, ", "));
      }
    }
  }
  for (const Field& f : s.fields) {
    const YAML::Node child = node.IsMap() ? node[f.key] : YAML::Node();
    if (child.IsDefined() && node.IsMap()) {
      v.map.emplace_back(f.key, validate_impl(child, f.schema, ctx, child_path(f.key), loc));
    } else if (f.required) {
      fail_at(loc, child_path(f.key), "missing required key; expected " + f.schema.describe());
    } else if (!f.default_yaml.empty()) {
      v.map.emplace_back(f.key, validate_impl(YAML::Load(f.default_yaml), f.schema, ctx, child_path(f.key), loc));
      v.map.back().second.loc = loc;  // a default lives where its map does
    }
  }
  return v;
}

// `node` does not fit `schema`: one line naming the path, what was expected and what was found.
[[noreturn]] void mismatch(const YAML::Node& node, const Schema& schema, const Location& loc, const std::string& path) {
  fail_at(loc, path, "expected " + schema.describe() + ", got " + got(node));
}

// A list, each item against the item schema; a shape's element count bounded.
Value validate_list(const YAML::Node& node, const Schema& schema, const Ctx& ctx, const std::string& path,
                    const Location& loc, Value v) {
  const SchemaNode& s = *schema.node();
  if (!node.IsSequence()) mismatch(node, schema, loc, path);
  if (node.size() < s.min_len || node.size() > s.max_len) mismatch(node, schema, loc, path);
  v.kind = Value::Kind::kList;
  for (std::size_t i = 0; i < node.size(); ++i) {
    v.items.push_back(validate_impl(node[i], s.children[0], ctx, path + "[" + std::to_string(i) + "]", loc));
  }
  if (s.is_shape) {
    // Each dimension is at most 2^20, so the running product stays far
    // below int64 overflow while it is compared with the limit.
    int64_t elements = 1;
    for (const Value& d : v.items) {
      elements *= d.i;
      if (elements > kMaxShapeElements) {
        fail_at(loc, path,
                "shape of more than " + std::to_string(kMaxShapeElements) +
                    " elements (the limit of one tensor; the product of the dimensions must not exceed it)");
      }
    }
  }
  return v;
}

// The first alternative that fits; else a map that names an alternative's
// key gets that alternative's error.
Value validate_any_of(const YAML::Node& node, const Schema& schema, const Ctx& ctx, const std::string& path,
                      const Location& loc, const Location& fallback) {
  const SchemaNode& s = *schema.node();
  for (const Schema& alt : s.children) {
    try {
      return validate_impl(node, alt, ctx, path, fallback);
    } catch (const InputError&) {
    }
  }
  if (node.IsMap() && node.size() > 0 && node.begin()->first.IsScalar()) {
    const std::string key = node.begin()->first.Scalar();
    for (const Schema& alt : s.children) {
      const SchemaNode& a = *alt.node();
      if (a.type != Type::kMap) continue;
      for (const Field& f : a.fields) {
        if (f.key == key) return validate_impl(node, alt, ctx, path, fallback);
      }
    }
  }
  mismatch(node, schema, loc, path);
}

// A bool: YAML 1.1's spellings.
Value validate_bool(const YAML::Node& node, const Schema& schema, const Location& loc, const std::string& path,
                    Value v) {
  if (!plain_scalar(node)) mismatch(node, schema, loc, path);
  const std::string& t = node.Scalar();
  if (t == "true" || t == "yes" || t == "on") {
    v.b = true;
  } else if (t == "false" || t == "no" || t == "off") {
    v.b = false;
  } else {
    mismatch(node, schema, loc, path);
  }
  v.kind = Value::Kind::kBool;
  return v;
}

Value validate_impl(const YAML::Node& node, const Schema& schema, const Ctx& ctx, const std::string& path,
                    const Location& fallback) {
  const SchemaNode& s = *schema.node();
  const Location loc = locate(node, ctx, path, fallback);
  Value v;
  v.path = path;
  v.loc = loc;
  auto wrong = [&]() { mismatch(node, schema, loc, path); };
  switch (s.type) {
    case Type::kInt: {
      int64_t x = 0;
      if (!plain_scalar(node) || !parse_int(node.Scalar(), &x)) wrong();
      if (x < s.imin || x > s.imax) wrong();
      v.kind = Value::Kind::kInt;
      v.i = x;
      return v;
    }
    case Type::kNumber: {
      double x = 0;
      if (!plain_scalar(node) || !parse_number(node.Scalar(), &x)) wrong();
      if (x < s.fmin || x > s.fmax || (s.min_exclusive && x == s.fmin)) wrong();
      v.kind = Value::Kind::kFloat;
      v.f = x;
      return v;
    }
    case Type::kString:
      if (!node.IsScalar()) wrong();
      v.kind = Value::Kind::kString;
      v.s = node.Scalar();
      return v;
    case Type::kBool:
      return validate_bool(node, schema, loc, path, std::move(v));
    case Type::kEnum: {
      if (!node.IsScalar()) wrong();
      bool ok = false;
      for (const auto& e : s.values) ok = ok || e == node.Scalar();
      if (!ok) wrong();
      v.kind = Value::Kind::kString;
      v.s = node.Scalar();
      return v;
    }
    case Type::kList:
      return validate_list(node, schema, ctx, path, loc, std::move(v));
    case Type::kMap:
      return validate_map(node, s, ctx, path, loc, schema);
    case Type::kAnyOf:
      return validate_any_of(node, schema, ctx, path, loc, fallback);
  }
  wrong();
  return v;
}

}  // namespace

Schema Schema::integer(int64_t min, int64_t max) {
  auto n = std::make_shared<SchemaNode>();
  n->type = Type::kInt;
  n->imin = min;
  n->imax = max;
  return Schema(n);
}

Schema Schema::number(double min, double max, bool min_exclusive) {
  auto n = std::make_shared<SchemaNode>();
  n->type = Type::kNumber;
  n->fmin = min;
  n->fmax = max;
  n->min_exclusive = min_exclusive;
  return Schema(n);
}

Schema Schema::string() {
  auto n = std::make_shared<SchemaNode>();
  n->type = Type::kString;
  return Schema(n);
}

Schema Schema::boolean() {
  auto n = std::make_shared<SchemaNode>();
  n->type = Type::kBool;
  return Schema(n);
}

Schema Schema::one_of(std::vector<std::string> values) {
  auto n = std::make_shared<SchemaNode>();
  n->type = Type::kEnum;
  n->values = std::move(values);
  return Schema(n);
}

Schema Schema::list(Schema element, std::size_t min_len, std::size_t max_len) {
  auto n = std::make_shared<SchemaNode>();
  n->type = Type::kList;
  n->children.push_back(std::move(element));
  n->min_len = min_len;
  n->max_len = max_len;
  return Schema(n);
}

Schema Schema::shape(std::size_t rank_min, std::size_t rank_max, int64_t max_dim) {
  Schema s = list(integer(1, max_dim), rank_min, rank_max);
  s.node_->is_shape = true;
  return s;
}

Schema Schema::map() {
  auto n = std::make_shared<SchemaNode>();
  n->type = Type::kMap;
  return Schema(n);
}

Schema Schema::any_of(std::vector<Schema> alternatives) {
  auto n = std::make_shared<SchemaNode>();
  n->type = Type::kAnyOf;
  n->children = std::move(alternatives);
  return Schema(n);
}

Schema& Schema::required(const std::string& key, Schema field) {
  node_->fields.push_back(Field{key, std::move(field), true, ""});
  return *this;
}

Schema& Schema::optional(const std::string& key, Schema field, const std::string& default_yaml) {
  node_->fields.push_back(Field{key, std::move(field), false, default_yaml});
  return *this;
}

Schema& Schema::merge(const Schema& other_map) {
  for (const Field& f : other_map.node_->fields) {
    bool replaced = false;
    for (Field& mine : node_->fields) {
      if (mine.key == f.key) {
        mine = f;
        replaced = true;
      }
    }
    if (!replaced) node_->fields.push_back(f);
  }
  return *this;
}

std::string Schema::describe() const {
  const SchemaNode& s = *node_;
  switch (s.type) {
    case Type::kInt: {
      const bool lo = s.imin != std::numeric_limits<int64_t>::min();
      const bool hi = s.imax != std::numeric_limits<int64_t>::max();
      if (lo && hi) return "an integer in [" + std::to_string(s.imin) + ", " + std::to_string(s.imax) + "]";
      if (lo) return "an integer >= " + std::to_string(s.imin);
      if (hi) return "an integer <= " + std::to_string(s.imax);
      return "an integer";
    }
    case Type::kNumber: {
      const bool lo = s.fmin != -std::numeric_limits<double>::max();
      const bool hi = s.fmax != std::numeric_limits<double>::max();
      const std::string lo_text = (s.min_exclusive ? "(" : "[") + fmt_double(s.fmin);
      if (lo && hi) return "a number in " + lo_text + ", " + fmt_double(s.fmax) + "]";
      if (lo) return std::string("a number ") + (s.min_exclusive ? "> " : ">= ") + fmt_double(s.fmin);
      if (hi) return "a number <= " + fmt_double(s.fmax);
      return "a number";
    }
    case Type::kString: return "a string";
    case Type::kBool: return "true or false";
    case Type::kEnum: return "one of " + join(s.values, "|");
    case Type::kList: {
      std::string count;
      if (s.min_len == s.max_len) {
        count = std::to_string(s.min_len) + " ";
      } else if (s.max_len != std::numeric_limits<std::size_t>::max()) {
        count = std::to_string(s.min_len) + ".." + std::to_string(s.max_len) + " ";
      } else if (s.min_len > 0) {
        count = "at least " + std::to_string(s.min_len) + " ";
      }
      if (s.is_shape) {
        return "a shape: a list of " + count + "integers in [1, " +
               std::to_string(s.children[0].node()->imax) + "]";
      }
      return "a list of " + count + "elements, each " + s.children[0].describe();
    }
    case Type::kMap: {
      std::vector<std::string> keys;
      for (const Field& f : s.fields) keys.push_back(f.key);
      return "a map with keys " + join(keys, ", ");
    }
    case Type::kAnyOf: {
      std::vector<std::string> alts;
      for (const Schema& a : s.children) alts.push_back(a.describe());
      return join(alts, " or ");
    }
  }
  return "?";
}

Value validate(const YAML::Node& node, const Schema& schema, const std::string& file, const std::string& path,
               const Overrides& overrides) {
  Ctx ctx{file, overrides};
  Location top;
  top.file = file;
  top.line = 1;
  return validate_impl(node, schema, ctx, path, top);
}

namespace schemas {

Schema quant_tensor() {
  return Schema::map()
      .required("scale", Schema::number(0.0, std::numeric_limits<double>::max(), true))
      .optional("zero_point", Schema::integer(-128, 127), "0");
}

Schema filter_scales() {
  return Schema::any_of({Schema::one_of({"random"}), Schema::number(0.0, std::numeric_limits<double>::max(), true),
                         Schema::list(Schema::number(0.0, std::numeric_limits<double>::max(), true), 1)});
}

namespace {
const std::vector<std::string> kMliFormats = {"fx8", "fx16", "sa8", "sa32"};

// An MLI format's parameters (scenario/mli_source.hpp checks which ones the format needs).
Schema& with_mli_parameters(Schema& m) {
  return m.optional("frac_bits", Schema::integer(0, 31))
      .optional("scale", Schema::number(0.0, std::numeric_limits<double>::max(), true))
      .optional("zero_point", Schema::integer(std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()));
}
}  // namespace

Schema output_format() {
  Schema m = Schema::map().required("mli", Schema::one_of(kMliFormats));
  return with_mli_parameters(m);
}

Schema data_source() {
  Schema range = Schema::map().optional("min", Schema::number()).optional("max", Schema::number());
  // An .npy, optionally in an MLI format (scenario/mli_source.hpp).
  Schema npy = Schema::map().required("npy", Schema::string()).optional("mli", Schema::one_of(kMliFormats));
  with_mli_parameters(npy);
  return Schema::any_of({Schema::one_of({"random"}), Schema::map().required("random", range), npy});
}

Schema input_tensors(const std::vector<std::string>& tensors) {
  Schema data = Schema::map();
  for (const std::string& t : tensors) data.optional(t, data_source(), "random");
  return Schema::map()
      .required("shapes", Schema::map().required("input", Schema::shape(1, 4)))
      .optional("data", data, "{}");
}

}  // namespace schemas

}  // namespace cosim::scenario
