// A scenario file (scenarios/*.yaml) describes one workload for one target.
// The common fields are checked here; each target adds the schema of its ops
// (shapes, quantization, data, op parameters) through TargetSchema.
//
//   name: conv2d_small           # optional, default: the file stem
//   target: vta                  # vta | tf2 | tinydnn | testdut (registered targets)
//   op: conv2d                   # one of the target's ops
//   seed: 1                      # optional, default 1; --seed overrides
//   requant: tflite_double       # optional: vta16 | tflite_double | tflite_single
//   testbench: {dram_latency: 20, bytes_per_cycle: 8, stall_probability: 0.0, timeout_cycles: 10000000}
//   ... target-specific keys (shapes:, quant:, data:, params: ...)
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "scenario/mli_source.hpp"
#include "scenario/schema.hpp"
#include "scenario/value.hpp"
#include "tensor/tensor.hpp"

namespace cosim::scenario {

// A scenario file is read whole, at most this many bytes, before it is parsed
// (a page of keys; tensors come from .npy or .tflite files).
constexpr uint64_t kMaxScenarioBytes = uint64_t{1} << 20;

// kSaturate: TF2's requantization without the original's 32-bit wrap.
enum class Requant { kVta16, kTfliteDouble, kTfliteSingle, kSaturate };
const char* requant_name(Requant r);

// Memory timing and the DUT's cycle budget.
struct TestbenchKnobs {
  uint32_t dram_latency = 20;       // cycles before the first beat of a non-sequential access
  uint32_t bytes_per_cycle = 8;     // DRAM bandwidth
  double stall_probability = 0.0;   // chance of a random stall per access (seeded)
  uint64_t timeout_cycles = 10000000;
};

// What the loader knows about one target: its ops and, per op, the extra
// top-level keys (a map schema merged with the common one).
struct TargetSchema {
  std::string name;
  std::vector<std::string> ops;
  std::function<Schema(const std::string& op)> op_schema;
};

// The validated scenario a target backend receives.
struct Scenario {
  std::string file;  // as given
  std::string dir;   // folder of the file: `npy:` paths are relative to it
  std::string name;
  std::string target;
  std::string op;
  uint64_t seed = 1;
  std::optional<Requant> requant;  // absent: the backend's default
  TestbenchKnobs testbench;
  // `output_format`: the MLI format the outputs are seen in (dumps, the
  // distances' values); absent: their own dtype.
  std::optional<MliSource> output_format;
  Value root;  // the whole validated document, for target-specific keys
  // Tensors given in memory (the Python API's inputs=) in place of .npy
  // files, by the name their `npy:` source carries (see load_scenario).
  std::map<std::string, Tensor> memory_npy;
  // A run split over processes (`cosim run --jobs`): this process runs the
  // inputs [first, first + count) of an op's `inputs:` (set by the runner,
  // not a key; empty: all of them).
  std::optional<std::pair<int64_t, int64_t>> input_slice;
  // The inputs [first, end) of `n` this process replays: all of them, or
  // input_slice clipped to n.
  std::pair<int64_t, int64_t> input_range(int64_t n) const {
    if (!input_slice) return {0, n};
    return {input_slice->first, std::min(n, input_slice->first + input_slice->second)};
  }

  const Value& operator[](const std::string& key) const { return root[key]; }
  bool has(const std::string& key) const { return root.has(key); }
};

// The common schema (target/op enums filled from `targets`).
Schema common_schema(const std::vector<TargetSchema>& targets);

// Loads and validates `file`. `overrides` are "key.path=value" strings
// (values parsed as YAML, so lists work: shapes.input=[1,8,8,16]) applied
// before validation; `seed` (from --seed) wins over the file's seed.
// `tensors` are in-memory data by name: each replaces the source of
// `data.<name>` (or of a top-level `<name>`, e.g. a model scenario's
// `input`) by {npy: "inputs['<name>']"}, read from Scenario::memory_npy, so
// it is checked like an .npy file (dtype, shape); a name the scenario has no
// tensor for is an InputError.
Scenario load_scenario(const std::string& file, const std::vector<TargetSchema>& targets,
                       const std::vector<std::string>& overrides = {}, std::optional<uint64_t> seed = {},
                       const std::map<std::string, Tensor>& tensors = {});

// A tensor from a data source value (schemas::data_source()): seeded random
// (stream chosen by `seed` and `name`, so adding a tensor does not change the
// others) or an .npy file whose dtype and shape must match, or whose values
// are in an MLI format (scenario/mli_source.hpp: converted to `dtype`, for
// int8 at `quant`).
Tensor make_tensor(const Scenario& sc, const Value& source, DType dtype, const std::vector<int64_t>& shape,
                   Layout layout, const std::string& name, const std::optional<Int8Quant>& quant = std::nullopt);

// A deterministic 64-bit generator (splitmix64) independent of the standard
// library's distributions, so the same seed gives the same bits everywhere.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  Rng(uint64_t seed, const std::string& stream);
  uint64_t next();
  int64_t uniform_int(int64_t lo, int64_t hi);  // inclusive
  double uniform(double lo, double hi);         // [lo, hi)

 private:
  uint64_t state_;
};

}  // namespace cosim::scenario
