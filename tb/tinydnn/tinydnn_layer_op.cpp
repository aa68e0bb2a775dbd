// One conv layer job of the tinydnn target:
//
//   op: fwd | bwd | dw | train_step
//   sizes: {in_channels: 3, in_height: 8, in_width: 8, out_channels: 8, kernel: 3}  # kernel: k or [kh, kw]
//   batch: 2                       # samples per mini-batch (dW accumulates over them)
//   bias: true                     # fwd, train_step (its forward), bwd; not dw
//   data: {x: random, w: {random: {min: -0.5, max: 0.5}}, bias: random, delta: {npy: d.npy}}
//                                  # float32, truncated to bf16 by the host as the spec says
//   streams: {in_stall: 0.2, out_stall: 0.2}   # TVALID / TREADY stall chance per cycle
//   addresses: {input: 0x10000, output: 0x1000000}
//   fault: none                    # no_start | tdata_change | duplicate_beat (testbench tests)
//
// Checks: y [batch, out_c, oh, ow], dx [batch, in_c, in_h, in_w], dW
// [out_c, in_c, kh, kw] as float32 bits in DRAM, bit-exact against the
// golden model; each also against the float32 reference (max / mean
// relative error in the summary and report.json metrics).
#include "tinydnn/tinydnn_layer_op.hpp"

#include <cstdlib>
#include <limits>

#include "common/error.hpp"
#include "common/text.hpp"
#include "scenario/buffer_addresses.hpp"
#include "tinydnn/dma_regs.hpp"
#include "tinydnn/program.hpp"

namespace cosim::tb::tinydnn {

using namespace cosim::tinydnn;
using namespace cosim::tinydnn::dma;  // the fault codes (kFault*)

namespace {

struct State {
  LayerJob job;
  Golden golden;
  ProgramOptions opt;
};


std::vector<bf16> truncate(const Tensor& t) {
  std::vector<bf16> out(static_cast<std::size_t>(t.numel()));
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = bf16::from_float(t.data<float>()[i]);
  return out;
}

Tensor bf16_tensor(const std::vector<int64_t>& shape, const std::vector<bf16>& v) {
  Tensor t(DType::kBf16, shape, shape.size() == 4 ? Layout::kNCHW : Layout::kAny);
  for (std::size_t i = 0; i < v.size(); ++i) t.data<uint16_t>()[i] = v[i].bits;
  return t;
}

// Splits [batch][...] into per-sample vectors.
std::vector<std::vector<bf16>> samples(const std::vector<bf16>& all, int batch) {
  const std::size_t per = all.size() / std::size_t(batch);
  std::vector<std::vector<bf16>> out;
  for (int k = 0; k < batch; ++k) out.emplace_back(all.begin() + k * per, all.begin() + (k + 1) * per);
  return out;
}

class LayerOp : public TypedOperator<State> {
 public:
  explicit LayerOp(Mode mode) : mode_(mode) {}
  std::string name() const override { return mode_name(mode_); }
  scenario::Schema schema() const override;
  State prepare(const scenario::Scenario& sc, Workload& w) const override;

  trace::Trace compile(const scenario::Scenario& sc, const Workload& w, const State& st) const override {
    (void)w;
    trace::Trace t;
    t.target = "tinydnn";
    ProgramOptions opt = st.opt;
    try {
      emit_program(t, st.job, st.golden, opt);
    } catch (const InputError& e) {
      sc["addresses"].fail(std::string("expected room for the packets and results: ") + e.what());
    }
    return t;
  }

  Metrics metrics(const Workload& w, const State& st, const SimOutcome& run) const override {
    Metrics m = layer_run_metrics(w.macs, run);
    for (const auto& [kind, e] : st.golden.error) {
      // null in report.json when NaN / Inf make the figure meaningless.
      const double nan = std::numeric_limits<double>::quiet_NaN();
      m.extra["float32_max_rel_error_" + kind] = e.nonfinite > 0 ? nan : e.max_rel;
      m.extra["float32_mean_rel_error_" + kind] = e.nonfinite > 0 ? nan : e.mean_rel;
    }
    return m;
  }

  std::optional<WorkUnit> work_unit(const Workload& w, const State& st, const trace::Trace& tr,
                                    const std::string& check, const std::vector<int64_t>& index,
                                    std::optional<uint64_t> address) const override {
    (void)w, (void)st, (void)tr, (void)address;
    return layer_work_unit(check, index);
  }

 private:
  Mode mode_;
};

scenario::Schema LayerOp::schema() const {
  using scenario::Schema;
  const Mode m = mode_;
  Schema data = Schema::map();
  if (m != Mode::kBackward) data.optional("x", scenario::schemas::data_source(), "random");
  if (m != Mode::kWeightGrad) {
    data.optional("w", scenario::schemas::data_source(), "random");
    data.optional("bias", scenario::schemas::data_source(), "random");
  }
  if (m != Mode::kForward) data.optional("delta", scenario::schemas::data_source(), "random");
  Schema s = Schema::map();
  s.required("sizes", Schema::map()
                          .required("in_channels", Schema::integer(1, 255))
                          .required("in_height", Schema::integer(1, 255))
                          .required("in_width", Schema::integer(1, 255))
                          .required("out_channels", Schema::integer(1, 255))
                          .required("kernel", Schema::any_of({Schema::integer(1, 255), Schema::shape(2, 2, 255)})))
      .optional("batch", Schema::integer(1, 65535), m == Mode::kWeightGrad ? "8" : "1")
      .optional("data", data, "{}")
      .optional("streams",
                Schema::map()
                    .optional("in_stall", Schema::number(0.0, 0.9), "0.0")
                    .optional("out_stall", Schema::number(0.0, 0.9), "0.0"),
                "{}")
      .optional("addresses", scenario::buffer_addresses_schema({{"input", "0x10000"}, {"output", "0x1000000"}}), "{}")
      .optional("fault", Schema::one_of({"none", "no_start", "tdata_change", "duplicate_beat"}), "none");
  if (m != Mode::kWeightGrad) s.optional("bias", Schema::boolean(), m == Mode::kBackward ? "false" : "true");
  return s;
}

State LayerOp::prepare(const scenario::Scenario& sc, Workload& w) const {
  State st;
  LayerJob& j = st.job;
  j.mode = mode_;
  const scenario::Value& sz = sc["sizes"];
  j.shape.in_c = int(sz["in_channels"].as_int());
  j.shape.in_h = int(sz["in_height"].as_int());
  j.shape.in_w = int(sz["in_width"].as_int());
  j.shape.out_c = int(sz["out_channels"].as_int());
  const scenario::Value& k = sz["kernel"];
  if (k.is_list()) {
    const auto kk = k.as_ints();
    j.shape.k_h = int(kk[0]);
    j.shape.k_w = int(kk[1]);
  } else {
    j.shape.k_h = j.shape.k_w = int(k.as_int());
  }
  j.batch = int(sc["batch"].as_int());
  j.bias = sc.has("bias") && sc["bias"].as_bool();
  const ConvShape& s = j.shape;
  try {
    s.validate();
  } catch (const InputError& e) {
    sz.fail(std::string("expected a kernel inside the input: ") + e.what());
  }
  try {  // before any tensor of the job's size is made
    check_hardware_fit(j);
  } catch (const InputError& e) {
    sz.fail(std::string("expected a layer the accelerator holds: ") + e.what());
  }

  const int64_t B = j.batch;
  const scenario::Value& data = sc["data"];
  auto load = [&](const char* key, const std::vector<int64_t>& shape) {
    const Tensor f = scenario::make_tensor(sc, data[key], DType::kFp32, shape,
                                           shape.size() == 4 ? Layout::kNCHW : Layout::kAny, key);
    std::vector<bf16> v = truncate(f);  // the host truncates float32 to bf16
    w.inputs[key] = bf16_tensor(shape, v);
    return v;
  };
  if (data.has("x")) j.x = samples(load("x", {B, s.in_c, s.in_h, s.in_w}), j.batch);
  if (data.has("w")) j.w = load("w", {s.out_c, s.in_c, s.k_h, s.k_w});
  if (data.has("bias") && j.bias) {
    j.bias_v = load("bias", {j.mode == Mode::kBackward ? s.in_c : s.out_c});
  }
  if (data.has("delta")) j.delta = samples(load("delta", {B, s.out_c, s.out_h(), s.out_w()}), j.batch);
  try {
    st.golden = golden(j);
  } catch (const InputError& e) {
    sz.fail(std::string("expected a layer the accelerator holds: ") + e.what());
  }

  st.opt.in_base = uint64_t(sc["addresses"]["input"].as_int());
  st.opt.out_base = uint64_t(sc["addresses"]["output"].as_int());
  st.opt.in_limit = st.opt.out_base > st.opt.in_base ? st.opt.out_base : TbConfig{}.dram_size;
  st.opt.out_limit = st.opt.in_base > st.opt.out_base ? st.opt.in_base : TbConfig{}.dram_size;
  st.opt.in_stall = sc["streams"]["in_stall"].as_float();
  st.opt.out_stall = sc["streams"]["out_stall"].as_float();
  st.opt.timeout_cycles = sc.testbench.timeout_cycles;
  const std::string fault = sc["fault"].as_string();
  st.opt.start = fault != "no_start";
  st.opt.fault = fault == "tdata_change"     ? uint32_t(kFaultTdataChange)
                 : fault == "duplicate_beat" ? uint32_t(kFaultDuplicateBeat)
                                             : uint32_t(kFaultNone);

  std::string summary = std::string(mode_name(j.mode)) + " in " + std::to_string(s.in_c) + "x" +
                        std::to_string(s.in_h) + "x" + std::to_string(s.in_w) + ", kernel " +
                        std::to_string(s.k_h) + "x" + std::to_string(s.k_w) + ", out_c " +
                        std::to_string(s.out_c) + ", batch " + std::to_string(j.batch) +
                        (j.bias ? ", bias" : "") + "; golden vs float32 rel. error";
  for (const auto& [kind, e] : st.golden.error) {
    // NaN / Inf in the inputs or results: a relative error over the finite
    // rest would read as a figure for the whole tensor.
    if (e.nonfinite > 0) {
      summary += " " + kind + " n/a (" + std::to_string(e.nonfinite) + " NaN/Inf elements)";
    } else {
      summary += " " + kind + " max " + significant_text(e.max_rel) + " mean " + significant_text(e.mean_rel);
    }
  }
  w.summary = summary;
  for (const Output& o : st.golden.outputs) {
    w.expected[o.name] = o.golden;
    w.references.push_back({o.name, "float32", o.reference});
  }
  w.macs = st.golden.macs;
  return st;
}

}  // namespace

// The layer operators (tinydnn_ops.def), one per mode, named mode_name(mode).
std::unique_ptr<Operator> make_fwd_op() { return std::make_unique<LayerOp>(Mode::kForward); }
std::unique_ptr<Operator> make_bwd_op() { return std::make_unique<LayerOp>(Mode::kBackward); }
std::unique_ptr<Operator> make_dw_op() { return std::make_unique<LayerOp>(Mode::kWeightGrad); }
std::unique_ptr<Operator> make_train_step_op() { return std::make_unique<LayerOp>(Mode::kTrainStep); }

std::optional<WorkUnit> layer_work_unit(const std::string& check, const std::vector<int64_t>& index) {
  if (index.size() != 4) return std::nullopt;
  const auto us = check.find("_s");
  const std::string kind = check.substr(0, us);
  WorkUnit u;
  if (kind == "dW") {
    u.fields = {{"layer", 0}, {"out_channel", index[0]}, {"in_channel", index[1]}, {"ky", index[2]}, {"kx", index[3]}};
    u.text = "layer 0 weight gradient, output channel " + std::to_string(index[0]) + ", input channel " +
             std::to_string(index[1]) + ", tap (ky " + std::to_string(index[2]) + ", kx " +
             std::to_string(index[3]) + ")";
    return u;
  }
  const int64_t sample = us == std::string::npos ? index[0] : std::atoll(check.c_str() + us + 2);
  u.fields = {{"layer", 0}, {"sample", sample}, {"channel", index[1]}, {"y", index[2]}, {"x", index[3]}};
  u.text = "layer 0 " + std::string(kind == "dx" ? "input gradient" : "forward output") + ", sample " +
           std::to_string(sample) + ", channel " + std::to_string(index[1]) + ", pixel (y " +
           std::to_string(index[2]) + ", x " + std::to_string(index[3]) + ")";
  return u;
}

Metrics layer_run_metrics(uint64_t macs, const SimOutcome& run) {
  Metrics m;
  auto perf = [&](const char* k) -> uint64_t {
    const auto it = run.perf.find(k);
    return it == run.perf.end() ? 0 : it->second;
  };
  m.macs = macs;
  if (run.cycles > 0) m.utilization = double(m.macs) / (double(kCores) * double(run.cycles));
  m.extra["mac_ops_counted"] = double(perf("mac_ops"));
  if (perf("busy_cycles") > 0)
    m.extra["utilization_while_busy"] = double(perf("mac_ops")) / (double(kCores) * double(perf("busy_cycles")));
  return m;
}

}  // namespace cosim::tb::tinydnn
