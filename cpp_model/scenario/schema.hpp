// A small declarative schema for scenario YAML: typed scalars with ranges,
// enums, lists, shapes, nested maps with required / optional (defaulted)
// fields, and alternatives. validate() turns a YAML node into a Value or
// throws one cosim::InputError line naming file:line, the key path and what
// was expected.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "scenario/value.hpp"

namespace YAML {
class Node;
}

namespace cosim::scenario {

struct SchemaNode;

// The most elements one tensor of a scenario may have (16 Mi: 64 MiB as
// int32). Larger shapes are bad input, rejected before anything is allocated.
constexpr int64_t kMaxShapeElements = int64_t{1} << 24;

class Schema {
 public:
  static Schema integer(int64_t min = std::numeric_limits<int64_t>::min(),
                        int64_t max = std::numeric_limits<int64_t>::max());
  // A finite number in [min, max] (min excluded when min_exclusive).
  static Schema number(double min = -std::numeric_limits<double>::max(),
                       double max = std::numeric_limits<double>::max(), bool min_exclusive = false);
  static Schema string();
  static Schema boolean();
  static Schema one_of(std::vector<std::string> values);  // enum of strings
  static Schema list(Schema element, std::size_t min_len = 0,
                     std::size_t max_len = std::numeric_limits<std::size_t>::max());
  // A list of rank_min..rank_max integers in [1, max_dim] whose product is at
  // most kMaxShapeElements, checked while validating, before any tensor of
  // that shape exists.
  static Schema shape(std::size_t rank_min, std::size_t rank_max, int64_t max_dim = 1 << 20);
  static Schema map();
  // The first alternative that accepts the node wins.
  static Schema any_of(std::vector<Schema> alternatives);

  // Map fields. `default_yaml` is YAML text validated against `field` when
  // the key is absent; an optional field without default is simply absent.
  Schema& required(const std::string& key, Schema field);
  Schema& optional(const std::string& key, Schema field, const std::string& default_yaml = "");
  // Adds every field of another map schema (common + target-specific parts).
  Schema& merge(const Schema& other_map);

  // "an integer in [0, 1000]", "one of vta|tf2", ...
  std::string describe() const;

  const std::shared_ptr<SchemaNode>& node() const { return node_; }

 private:
  explicit Schema(std::shared_ptr<SchemaNode> node) : node_(std::move(node)) {}
  std::shared_ptr<SchemaNode> node_;
};

// Command-line overrides already applied to the tree: path -> "--set path=value".
using Overrides = std::map<std::string, std::string>;

Value validate(const YAML::Node& node, const Schema& schema, const std::string& file, const std::string& path,
               const Overrides& overrides);

// Building blocks shared by target backends.
namespace schemas {
// {scale: number > 0, zero_point: int8 (default 0)}
Schema quant_tensor();
// Per-channel filter scales: `random`, one number > 0 (per-tensor), or a list of numbers > 0.
Schema filter_scales();
// `random`, {random: {min, max}}, or {npy: path relative to the scenario file}.
Schema data_source();
// {shapes: {input: a shape of rank 1 to 4}, data: {<tensor>: data_source(),
// `random` by default, for each of `tensors`}}: the keys every operator over
// one input shape starts its schema with (a template's `vadd`, ...).
Schema input_tensors(const std::vector<std::string>& tensors);
// {mli: fx8|fx16|sa8|sa32, frac_bits | scale, zero_point}: the MLI format a
// run's outputs are seen in (scenario key `output_format`).
Schema output_format();
}  // namespace schemas

}  // namespace cosim::scenario
