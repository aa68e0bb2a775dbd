#include "vta/vta_model_op.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>

#include "common/error.hpp"
#include "dut/vta_regs.hpp"
#include "ops/vta_conv2d.hpp"
#include "quant/vta_quant.hpp"
#include "scoreboard/scoreboard.hpp"
#include "tflite/layers.hpp"
#include "tflite/model.hpp"
#include "tflite/reference.hpp"
#include "vta/disasm.hpp"
#include "vta_compiler/add_compiler.hpp"
#include "vta_compiler/conv2d_compiler.hpp"

namespace cosim::vta {

namespace fs = std::filesystem;
using scenario::Schema;
using scenario::Value;

namespace {

constexpr int kChannelBlock = 16;  // channels per INP / OUT element

std::string dims(const std::vector<int64_t>& s) {
  std::string t;
  for (std::size_t i = 0; i < s.size(); ++i) t += (i ? "x" : "") + std::to_string(s[i]);
  return t;
}

// int8 NHWC copy (the ops return layout kAny for some ranks).
Tensor as_nhwc(const Tensor& t) {
  Tensor r(DType::kInt8, t.shape(), t.rank() == 4 ? Layout::kNHWC : Layout::kAny);
  r.bytes() = t.bytes();
  return r;
}

std::string check_name(std::size_t op_index, const std::string& type) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "op%02zu_", op_index);
  std::string t = type == "CONV_2D" ? "conv2d" : type == "ADD" ? "add" : "depthwise";
  return buf + t;
}

// Relative model paths are taken from the parent of the scenario's folder,
// i.e. the repository root for scenarios/*.yaml (models live beside the repo).
std::string resolve_model(const scenario::Scenario& sc, const std::string& path) {
  const fs::path p(path);
  if (p.is_absolute()) return p.string();
  const fs::path dir = fs::absolute(sc.dir.empty() ? fs::path(".") : fs::path(sc.dir));
  return (dir.parent_path() / p).lexically_normal().string();
}

struct Scale {
  std::vector<float> scale;
  int32_t zero_point = 0;
};
Scale tensor_scale(const tflite::Model& m, int32_t index) {
  const auto& q = m.subgraphs[0].tensors.at(static_cast<std::size_t>(index)).quant;
  Scale s;
  s.scale = q.scale;
  s.zero_point = q.zero_point.empty() ? 0 : static_cast<int32_t>(q.zero_point[0]);
  return s;
}

// An InputError about one layer, re-raised at the `model` key.
template <class F>
auto at_layer(const Value& key, const tflite::LayerWorkload& l, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const InputError& e) {
    key.fail("operator " + std::to_string(l.op_index) + " (" + l.op + "): " + e.what());
  }
}

// The selected operator indices: `all` = every CONV_2D / DEPTHWISE / ADD; a
// listed index must exist and be one of those.
std::vector<std::size_t> selected_ops(const scenario::Scenario& sc, const tflite::Model& m) {
  const auto& ops = m.subgraphs[0].operators;
  const Value& v = sc["ops"];
  std::vector<std::size_t> out;
  if (v.is_string()) {
    for (std::size_t i = 0; i < ops.size(); ++i) {
      if (tflite::is_supported_op(ops[i].code)) out.push_back(i);
    }
    return out;
  }
  for (std::size_t k = 0; k < v.items.size(); ++k) {
    const Value& e = v[k];
    const int64_t i = e.as_int();
    if (i < 0 || static_cast<std::size_t>(i) >= ops.size()) {
      e.fail("expected an operator index in [0, " + std::to_string(ops.size() - 1) + "] (the model has " +
             std::to_string(ops.size()) + " operators), got " + std::to_string(i));
    }
    const int32_t code = ops[static_cast<std::size_t>(i)].code;
    if (!tflite::is_supported_op(code)) {
      e.fail("operator " + std::to_string(i) + " is " + tflite::op_name(code) +
             ": expected a CONV_2D or ADD (the layers the vta target replays; DEPTHWISE_CONV_2D is listed as "
             "unsupported)");
    }
    if (std::find(out.begin(), out.end(), static_cast<std::size_t>(i)) != out.end()) {
      e.fail("operator " + std::to_string(i) + " is listed twice");
    }
    out.push_back(static_cast<std::size_t>(i));
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

Schema model_op_schema(const Schema& compile) {
  return Schema::map()
      .required("model", Schema::string())
      .optional("ops", Schema::any_of({Schema::one_of({"all"}), Schema::list(Schema::integer(), 1)}), "all")
      .optional("input", scenario::schemas::data_source(), "random")
      .optional("compile", compile, "{}");
}

bool is_model_workload(const tb::Workload& w) { return w.state.type() == typeid(ModelState); }

tb::Workload prepare_model(const scenario::Scenario& sc, const CompileOptions& opt) {
  const Value& model_key = sc["model"];
  ModelState st;
  st.model_path = resolve_model(sc, model_key.as_string());
  if (!fs::exists(st.model_path)) {
    throw tb::ScenarioSkipped("model " + model_key.as_string() + " not found (looked for " + st.model_path + ")");
  }
  const tflite::Model m = [&] {
    try {
      return tflite::load_model(st.model_path);
    } catch (const InputError& e) {
      model_key.fail(e.what());
    }
  }();
  if (m.subgraphs.empty()) model_key.fail("expected a model with a subgraph");
  const std::vector<std::size_t> selected = selected_ops(sc, m);

  // The golden chain with TFLite's default (double) rounding; each layer's
  // real input comes from it. Single-rounding outputs: the same inputs.
  const Value& in_v = sc["input"];
  Tensor input;
  try {
    input = in_v.is_string() ? tflite::random_input(m, static_cast<uint32_t>(sc.seed)) : Tensor();
  } catch (const InputError& e) {
    model_key.fail(e.what());
  }
  if (!in_v.is_string()) {
    const auto& ti = m.subgraphs[0].tensors.at(static_cast<std::size_t>(m.subgraphs[0].inputs.at(0)));
    input = scenario::make_tensor(sc, in_v, DType::kInt8, std::vector<int64_t>(ti.shape.begin(), ti.shape.end()),
                                  Layout::kNHWC, "input");
  }
  const tflite::TensorMap golden = [&] {
    try {
      return tflite::run_reference(m, input, quant::Rounding::kDouble);
    } catch (const InputError& e) {
      model_key.fail(e.what());
    }
  }();
  const auto extract = [&](quant::Rounding r) {
    try {
      return tflite::extract_layers(m, {}, r, &golden);
    } catch (const InputError& e) {
      model_key.fail(e.what());
    }
  };
  const std::vector<tflite::LayerWorkload> dbl = extract(quant::Rounding::kDouble);
  const std::vector<tflite::LayerWorkload> sgl = extract(quant::Rounding::kSingle);

  tb::Workload w;
  w.inputs["input"] = input;
  int n_conv = 0, n_add = 0;
  for (std::size_t li = 0; li < dbl.size(); ++li) {
    const tflite::LayerWorkload& l = dbl[li];
    if (std::find(selected.begin(), selected.end(), l.op_index) == selected.end()) continue;
    const tflite::Operator& op = m.subgraphs[0].operators[l.op_index];
    ModelLayer ml;
    ml.op_index = l.op_index;
    ml.type = l.op;
    ml.check = check_name(l.op_index, l.op);
    std::string in_dims;
    for (const Tensor& t : l.inputs) in_dims += (in_dims.empty() ? "" : " + ") + dims(t.shape());
    ml.shapes = in_dims + " -> " + dims(l.output_shape);
    if (!l.filter.shape().empty() && l.code != tflite::kAdd) {
      ml.shapes += ", " + std::to_string(l.filter.dim(1)) + "x" + std::to_string(l.filter.dim(2)) + " s" +
                   std::to_string(l.conv.stride_h);
    }
    if (!l.has_data) {
      ml.reason = "the golden chain does not reach it";
      st.layers.push_back(std::move(ml));
      continue;
    }
    Tensor golden_out;
    if (l.code == tflite::kDepthwiseConv2d) {
      ml.reason = "no VTA lowering for DEPTHWISE_CONV_2D (the VTA compiler has CONV_2D and ADD)";
    } else if (l.code == tflite::kConv2d) {
      const auto& o = std::get<tflite::Conv2DOptions>(op.options);
      quant::Activation act = quant::Activation::kNone;
      if (o.activation == tflite::FusedActivation::kRelu) act = quant::Activation::kRelu;
      else if (o.activation == tflite::FusedActivation::kRelu6) act = quant::Activation::kRelu6;
      else if (o.activation != tflite::FusedActivation::kNone) ml.reason = "fused activation other than RELU/RELU6";
      if (l.conv.dilation_h != 1 || l.conv.dilation_w != 1) ml.reason = "dilation > 1";
      if (ml.reason.empty()) {
        const Scale si = tensor_scale(m, op.inputs[0]), sw = tensor_scale(m, op.inputs[1]),
                    so = tensor_scale(m, op.outputs[0]);
        const auto plans = at_layer(model_key, l, [&] {
          return ops::vta_plan_conv2d(l.filter, l.bias, si.scale.at(0), si.zero_point, sw.scale, so.scale.at(0),
                                      so.zero_point, act);
        });
        ml.prog = at_layer(model_key, l, [&] { return compile_conv2d(l.inputs[0], l.filter, l.bias, l.conv, plans, opt); });
        golden_out = ops::vta_conv2d(l.inputs[0], l.filter, l.bias, l.conv, plans);
        ++n_conv;
      }
    } else {  // ADD
      if (l.add.act.min != -128 || l.add.act.max != 127) {
        ml.reason = "fused activation clamps to [" + std::to_string(l.add.act.min) + ", " +
                    std::to_string(l.add.act.max) + "]; the VTA ADD program has no clamp";
      } else {
        const Scale s1 = tensor_scale(m, op.inputs[0]), s2 = tensor_scale(m, op.inputs[1]),
                    so = tensor_scale(m, op.outputs[0]);
        const quant::VtaAddParams vp = at_layer(model_key, l, [&] {
          return quant::vta_make_add_params(s1.scale.at(0), s1.zero_point, s2.scale.at(0), s2.zero_point,
                                            so.scale.at(0), so.zero_point);
        });
        ml.prog = at_layer(model_key, l, [&] { return compile_add(l.inputs[0], l.inputs[1], vp, opt); });
        golden_out = ops::vta_add(l.inputs[0], l.inputs[1], vp);
        ++n_add;
      }
    }
    if (ml.reason.empty()) {
      ml.on_vta = true;
      w.expected[ml.check] = as_nhwc(golden_out);
      w.references.push_back({ml.check, "tflite_double", as_nhwc(l.expected)});
      w.references.push_back({ml.check, "tflite_single", as_nhwc(sgl.at(li).run(sgl.at(li).inputs))});
      w.macs += ml.prog.macs;
    }
    st.layers.push_back(std::move(ml));
  }
  const std::size_t unsupported = st.layers.size() - static_cast<std::size_t>(n_conv + n_add);
  w.summary = "model " + fs::path(st.model_path).filename().string() + ": " + std::to_string(n_conv + n_add) +
              " of " + std::to_string(st.layers.size()) + " selected layers on VTA (" + std::to_string(n_conv) +
              " CONV_2D, " + std::to_string(n_add) + " ADD), " + std::to_string(unsupported) +
              " unsupported; input " + (in_v.is_string() ? "random" : "npy") +
              ", golden chain with double rounding";
  w.state = std::move(st);
  return w;
}

trace::Trace compile_model(const scenario::Scenario& sc, const tb::Workload& w) {
  const auto& st = std::any_cast<const ModelState&>(w.state);
  trace::Trace t;
  t.target = "vta";
  int runs = 0;
  for (const ModelLayer& l : st.layers) {
    if (!l.on_vta) continue;
    const CompiledProgram& p = l.prog;
    // The compiler places every image at address 0; each layer reloads its
    // own and is checked before the next load overwrites it.
    t.mem_load(0, p.dram, l.check);
    t.reg_write(regs::kInsnCount, p.insn_count);
    t.reg_write(regs::kInsnAddr, static_cast<uint32_t>(p.insn_addr));
    t.reg_write(regs::kCtrl, regs::ctrl::kStartMask | regs::ctrl::kDoneMask);  // start, clear done
    t.wait_done(sc.testbench.timeout_cycles);
    const Tensor& expected = w.expected.at(l.check);
    if (p.output.kind == OutputLayout::Kind::kBlockedNhwc) {
      t.mem_check(p.output.byte_addr, expected, l.check, kChannelBlock);
    } else {
      t.mem_check(p.output.byte_addr, expected, l.check);
    }
    t.config["vta_run" + std::to_string(runs) + "_check"] = l.check;
    t.config["vta_run" + std::to_string(runs) + "_gemm_uops"] = std::to_string(p.gemm_uops);
    ++runs;
  }
  t.config["vta_runs"] = std::to_string(runs);
  return t;
}

tb::Metrics model_metrics(const tb::Workload& w, const tb::SimOutcome& run) {
  const auto& st = std::any_cast<const ModelState&>(w.state);
  tb::Metrics m;
  m.macs = w.macs;
  const auto perf = [&run](const std::string& k) -> std::optional<uint64_t> {
    const auto it = run.perf.find(k);
    if (it == run.perf.end()) return std::nullopt;
    return it->second;
  };
  std::size_t n_runs = 0;
  for (const ModelLayer& l : st.layers) n_runs += l.on_vta ? 1 : 0;

  nlohmann::json layers = nlohmann::json::array();
  std::ostringstream tab;
  tab << std::left << std::setw(5) << "op" << std::setw(18) << "type" << std::setw(40) << "shapes" << std::right
      << std::setw(7) << "exact" << std::setw(16) << "tfl_double" << std::setw(16) << "tfl_single" << std::setw(10)
      << "cycles" << std::setw(7) << "util";
  m.table.push_back("  layers");
  m.table.push_back("    " + tab.str());
  std::size_t k = 0, bit_exact = 0, on_vta = 0;
  uint64_t gemm_uops_total = 0;
  for (const ModelLayer& l : st.layers) {
    nlohmann::json j{{"op_index", l.op_index}, {"type", l.type}, {"check", l.check}, {"shapes", l.shapes}};
    std::ostringstream row;
    row << std::left << std::setw(5) << l.op_index << std::setw(18) << l.type << std::setw(40) << l.shapes
        << std::right;
    if (!l.on_vta) {
      j["status"] = "unsupported";
      j["reason"] = l.reason;
      row << "  unsupported: " << l.reason;
      layers.push_back(j);
      m.table.push_back("    " + row.str());
      continue;
    }
    ++on_vta;
    j["status"] = "vta";
    const tb::CheckCapture* cap = nullptr;
    for (const auto& c : run.play.checks) {
      if (c.desc.name == l.check) cap = &c;
    }
    const bool exact = cap != nullptr && cap->expected == cap->actual;
    bit_exact += exact ? 1 : 0;
    j["bit_exact"] = exact;
    m.extra[l.check + ".bit_exact"] = exact ? 1.0 : 0.0;
    row << std::setw(7) << (cap == nullptr ? "-" : exact ? "yes" : "NO");
    for (const char* sem : {"tflite_double", "tflite_single"}) {
      std::string cell = "-";
      for (const tb::Reference& r : w.references) {
        if (r.check != l.check || r.semantics != sem || cap == nullptr) continue;
        const tb::Distance d = tb::distance(sem, r.tensor, cap->actual);
        j["distance"][sem] = {{"exact_pct", d.exact_pct}, {"max_abs_diff", d.max_abs_diff}};
        m.extra[l.check + "." + sem + ".exact_pct"] = d.exact_pct;
        m.extra[l.check + "." + sem + ".max_abs_diff"] = d.max_abs_diff;
        std::ostringstream c;
        c << std::fixed << std::setprecision(2) << d.exact_pct << "%/" << static_cast<int64_t>(d.max_abs_diff);
        cell = c.str();
      }
      row << std::setw(16) << cell;
    }
    // Per-layer counters: run<k>_* when several runs, else the only run's.
    const std::string pre = n_runs > 1 ? "run" + std::to_string(k) + "_" : "";
    const auto cyc = perf(pre + "vta_cycles");
    j["gemm_uops"] = l.prog.gemm_uops;
    j["macs"] = l.prog.macs;
    j["instructions"] = l.prog.insn_count;
    gemm_uops_total += l.prog.gemm_uops;
    if (cyc && *cyc > 0) {
      const double util = l.type == "CONV_2D" ? static_cast<double>(l.prog.gemm_uops) / static_cast<double>(*cyc) : 0;
      j["cycles"] = *cyc;
      m.extra[l.check + ".cycles"] = static_cast<double>(*cyc);
      if (l.type == "CONV_2D") {
        j["utilization"] = util;
        m.extra[l.check + ".utilization"] = util;
      } else {
        j["utilization"] = nullptr;
      }
      if (const auto g = perf(pre + "gemm_busy")) j["gemm_busy_fraction"] = static_cast<double>(*g) / *cyc;
      std::ostringstream u;
      u << std::fixed << std::setprecision(1) << util * 100.0 << "%";
      row << std::setw(10) << *cyc << std::setw(7) << (l.type == "CONV_2D" ? u.str() : "-");
    } else {
      j["cycles"] = nullptr;
      row << std::setw(10) << "-" << std::setw(7) << "-";
    }
    m.extra[l.check + ".gemm_uops"] = static_cast<double>(l.prog.gemm_uops);
    layers.push_back(j);
    m.table.push_back("    " + row.str());
    ++k;
  }
  m.extra["layers_on_vta"] = static_cast<double>(on_vta);
  m.extra["layers_bit_exact"] = static_cast<double>(bit_exact);
  m.extra["layers_unsupported"] = static_cast<double>(st.layers.size() - on_vta);
  m.extra["gemm_uops"] = static_cast<double>(gemm_uops_total);
  uint64_t cycles_total = 0;  // all layers, start to done each
  for (std::size_t r = 0; r < n_runs; ++r) {
    cycles_total += perf(n_runs > 1 ? "run" + std::to_string(r) + "_vta_cycles" : "vta_cycles").value_or(0);
  }
  if (cycles_total > 0) {
    m.extra["vta_cycles"] = static_cast<double>(cycles_total);
    m.utilization = static_cast<double>(gemm_uops_total) / static_cast<double>(cycles_total);
  }
  nlohmann::json extra{{"model", st.model_path}, {"layers", layers}};
  m.report_json = extra.dump();
  return m;
}

std::optional<tb::WorkUnit> model_work_unit(const tb::Workload& w, const std::string& check,
                                            const std::vector<int64_t>& index) {
  const auto& st = std::any_cast<const ModelState&>(w.state);
  for (const ModelLayer& l : st.layers) {
    if (!l.on_vta || l.check != check) continue;
    const CompiledProgram& p = l.prog;
    std::vector<int64_t> idx = index;
    if (p.output.kind == OutputLayout::Kind::kFlat) {  // ADD: store_writing takes the flat index
      int64_t flat = 0;
      for (std::size_t d = 0; d < index.size(); ++d) flat = flat * p.output.shape.at(d) + index[d];
      idx = {flat};
    }
    const std::optional<std::size_t> i = p.store_writing(idx);
    if (!i || *i >= p.insns.size()) return std::nullopt;
    tb::WorkUnit u;
    u.fields = {{"layer", static_cast<int64_t>(l.op_index)}, {"instruction", static_cast<int64_t>(*i)}};
    if (*i < p.work.size() && p.work[*i].tile >= 0) u.fields["tile"] = p.work[*i].tile;
    u.text = "layer " + std::to_string(l.op_index) + " (" + l.type + ") instruction " + std::to_string(*i) + ": " +
             disassemble(p.insns[*i]);
    if (*i < p.work.size() && !p.work[*i].text.empty()) u.text += "  ; " + p.work[*i].text;
    return u;
  }
  return std::nullopt;
}

bool VtaRunLogWrapper::run(uint64_t max_cycles) {
  const bool done = VtaWrapper::run(max_cycles);
  if (done) {
    const auto p = VtaWrapper::perf_counters();
    std::map<std::string, uint64_t> r;
    for (const char* k : {"vta_cycles", "gemm_busy", "alu_busy"}) {
      const auto it = p.find(k);
      if (it != p.end()) r[k] = it->second;
    }
    runs_.push_back(std::move(r));
  }
  return done;
}

std::map<std::string, uint64_t> VtaRunLogWrapper::perf_counters() const {
  std::map<std::string, uint64_t> m = VtaWrapper::perf_counters();
  if (runs_.size() > 1) {
    for (std::size_t k = 0; k < runs_.size(); ++k) {
      for (const auto& [name, v] : runs_[k]) m["run" + std::to_string(k) + "_" + name] = v;
    }
  }
  return m;
}

}  // namespace cosim::vta
