#include "model_replay/model_replay.hpp"

#include <cctype>
#include <cstdio>

#include "scenario/resolved_yaml.hpp"

namespace cosim::tb::model_replay {

using scenario::Schema;

std::string resolve_model(const scenario::Scenario& sc, const scenario::Value& key) {
  // Written in the scenario: from the scenario file's folder, like `npy:`
  // paths, so a scenario and its models move together. Typed on the command
  // line (--set model=...): from the current folder, like any shell path.
  return scenario::resolve_path(sc, key);
}

std::string check_name(std::size_t op_index, const std::string& type) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "op%02zu_", op_index);
  std::string t;
  for (char ch : type) t += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  const auto p = t.rfind("_2d");
  if (p != std::string::npos && p + 3 == t.size()) t.erase(p, 1);  // conv_2d -> conv2d
  return buf + t;
}

std::string dims(const std::vector<int64_t>& s) {
  std::string t;
  for (std::size_t i = 0; i < s.size(); ++i) t += (i ? "x" : "") + std::to_string(s[i]);
  return t;
}

std::string op_shapes(const tflite::Model& m, std::size_t op, bool keep_batch) {
  const auto& o = m.subgraphs[0].operators[op];
  auto of = [&](int32_t t) {
    std::vector<int64_t> s;
    for (int32_t d : m.subgraphs[0].tensors.at(static_cast<std::size_t>(t)).shape) s.push_back(d);
    if (!keep_batch && s.size() == 4 && s[0] == 1) s.erase(s.begin());
    return dims(s);
  };
  if (o.inputs.empty() || o.inputs[0] < 0 || o.outputs.empty()) return "-";
  return of(o.inputs[0]) + " -> " + of(o.outputs[0]);
}

Schema op_schema(const ModelTargetBase& target) {
  Schema s = Schema::map()
                 .required("model", Schema::string())
                 .optional("ops", Schema::any_of({Schema::one_of({"all"}), Schema::list(Schema::integer(), 1)}),
                           "all");
  if (target.uses_golden_chain()) {
    s.optional("input", scenario::schemas::data_source(), "random");
    // delegate: the network as a TFLite delegate runs it (chained); layers:
    // each selected operator alone on the TFLite chain's input.
    s.optional("mode", Schema::one_of({"delegate", "layers"}), "delegate");
    // mode delegate: the network on this many inputs (seeded random ones,
    // or the rows of an `input: {npy}` batch [inputs, ...]), the top-1
    // agreement over them.
    s.optional("inputs", Schema::integer(1, 256), "1");
    // mode delegate, inputs > 1: `auto` runs a network of DUT FULLY_CONNECTED
    // layers once over all inputs stacked as rows (each layer's weights
    // loaded once per batch); `off` runs it once per input.
    s.optional("batch", Schema::one_of({"auto", "off"}), "auto");
  }
  target.add_keys(s);
  return s;
}

}  // namespace cosim::tb::model_replay
