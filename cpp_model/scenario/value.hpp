// A validated scenario value: a YAML node after schema checking, carrying
// where it came from (file:line or the --set override) and its key path, so
// that backends can report semantic problems (an impossible shape) in the
// same one-line form as the schema does.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/error.hpp"

namespace cosim::scenario {

struct Location {
  std::string file;      // scenario file
  int line = 0;          // 1-based; 0 = unknown
  std::string override;  // "--set key=value" when the value came from the command line

  std::string str() const;  // "file:line" or "--set key=value"
};

struct Value {
  enum class Kind { kNull, kBool, kInt, kFloat, kString, kList, kMap };

  Kind kind = Kind::kNull;
  bool b = false;
  int64_t i = 0;
  double f = 0.0;
  std::string s;
  std::vector<Value> items;                         // kList
  std::vector<std::pair<std::string, Value>> map;   // kMap, in file order
  std::string path;                                 // "testbench.dram_latency", "shapes.input[2]"
  Location loc;

  bool is_map() const { return kind == Kind::kMap; }
  bool is_list() const { return kind == Kind::kList; }
  bool is_string() const { return kind == Kind::kString; }
  bool has(const std::string& key) const { return find(key) != nullptr; }
  const Value* find(const std::string& key) const;
  // The schema guarantees required keys; asking for an absent one is a bug
  // in the backend (std::logic_error).
  const Value& operator[](const std::string& key) const;
  const Value& operator[](std::size_t index) const { return items.at(index); }

  int64_t as_int() const;
  double as_float() const;  // ints convert
  bool as_bool() const;
  const std::string& as_string() const;
  std::vector<int64_t> as_ints() const;
  std::vector<double> as_floats() const;

  // Throws cosim::InputError "<file>:<line>: '<path>': <message>".
  [[noreturn]] void fail(const std::string& message) const;
  // Returns f(); an InputError from it (a model or compiler rejecting what
  // this key asked for) is re-raised at this key: fail(prefix + what).
  template <class F>
  auto rethrow_here(F&& f, const std::string& prefix = "") const -> decltype(f()) {
    try {
      return f();
    } catch (const InputError& e) {
      fail(prefix + e.what());
    }
  }
};

}  // namespace cosim::scenario
