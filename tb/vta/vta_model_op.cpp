#include "vta/vta_model_op.hpp"

#include <cctype>

#include <map>
#include <optional>

#include "common/error.hpp"
#include "common/text.hpp"
#include "model_replay/model_operator.hpp"
#include "dut/vta_regs.hpp"
#include "ops/add.hpp"
#include "ops/conv2d.hpp"
#include "vta/golden/vta_conv2d.hpp"
#include "quant/tflite_quant.hpp"
#include "vta/golden/vta_quant.hpp"
#include "scoreboard/scoreboard.hpp"
#include "tflite/depthwise_as_conv.hpp"
#include "tflite/fully_connected_as_conv.hpp"
#include "vta/disasm.hpp"
#include "vta/compiler/add_compiler.hpp"
#include "vta/compiler/conv2d_compiler.hpp"
#include "vta/compiler/program_stream.hpp"
#include "vta/compiler/tflite_requant_program.hpp"
#include "vta/vta_schema.hpp"

namespace cosim::tb::vta {

using namespace cosim::vta;  // the ISA, golden model and compiler by their own names

using scenario::Value;

namespace {

constexpr int kChannelBlock = 16;  // channels per INP / OUT element

// int8 NHWC copy (the ops return layout kAny for some ranks).
Tensor as_nhwc(const Tensor& t) {
  Tensor r(DType::kInt8, t.shape(), t.rank() == 4 ? Layout::kNHWC : Layout::kAny);
  r.bytes() = t.bytes();
  return r;
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

// Fused activation of a CONV_2D; nullopt when the VTA program has none like it.
std::optional<quant::Activation> conv_activation(tflite::FusedActivation a) {
  switch (a) {
    case tflite::FusedActivation::kNone: return quant::Activation::kNone;
    case tflite::FusedActivation::kRelu: return quant::Activation::kRelu;
    case tflite::FusedActivation::kRelu6: return quant::Activation::kRelu6;
    default: return std::nullopt;
  }
}

// A windowed operator (CONV_2D, DEPTHWISE_CONV_2D) the GEMM programs can
// take: a fused activation they have, dilation 1.
template <class Options>
std::string window_support(const tflite::Model& m, std::size_t i, const char* type) {
  const auto* o = std::get_if<Options>(&m.subgraphs[0].operators[i].options);
  if (o == nullptr) return std::string("no ") + type + " options";
  if (!conv_activation(o->activation)) return "fused activation other than RELU/RELU6";
  if (o->dilation_h != 1 || o->dilation_w != 1) return "dilation > 1";
  return "";
}

std::string conv_support(const tflite::Model& m, std::size_t i) {
  return window_support<tflite::Conv2DOptions>(m, i, "CONV_2D");
}

// The operators whose MACs run on the GEMM core (an ADD's GEMMs only move operands).
bool on_gemm(const std::string& type) {
  return type == "CONV_2D" || type == "FULLY_CONNECTED" || type == "DEPTHWISE_CONV_2D";
}

// FULLY_CONNECTED runs as the 1x1 CONV_2D it equals (tflite/fully_connected_as_conv.hpp).
std::string fc_support(const tflite::Model& m, std::size_t i) {
  const auto* o = std::get_if<tflite::FullyConnectedOptions>(&m.subgraphs[0].operators[i].options);
  if (o == nullptr) return "no FULLY_CONNECTED options";
  if (!conv_activation(o->activation)) return "fused activation other than RELU/RELU6";
  if (o->weights_format != 0) return "weights format other than DEFAULT";
  return "";
}

// `depthwise: gemm`: DEPTHWISE_CONV_2D as a block-diagonal CONV_2D (tflite/depthwise_as_conv.hpp).
std::string depthwise_support(const tflite::Model& m, std::size_t i) {
  return window_support<tflite::DepthwiseConv2DOptions>(m, i, "DEPTHWISE_CONV_2D");
}

// The fused activation of a CONV_2D, DEPTHWISE_CONV_2D or FULLY_CONNECTED the support checks accepted.
quant::Activation gemm_activation(const tflite::Operator& op) {
  if (const auto* fc = std::get_if<tflite::FullyConnectedOptions>(&op.options)) return *conv_activation(fc->activation);
  if (const auto* dw = std::get_if<tflite::DepthwiseConv2DOptions>(&op.options)) return *conv_activation(dw->activation);
  return *conv_activation(std::get<tflite::Conv2DOptions>(op.options).activation);
}

// The VTA ADD program has no clamp: the fused activation must leave the
// whole int8 range.
std::string add_support(const tflite::Model& m, std::size_t i) {
  const tflite::Operator& op = m.subgraphs[0].operators[i];
  const auto* o = std::get_if<tflite::AddOptions>(&op.options);
  if (o == nullptr || o->activation == tflite::FusedActivation::kNone || op.outputs.empty()) return "";
  const std::optional<quant::Activation> act = conv_activation(o->activation);
  if (!act) return "fused activation other than RELU/RELU6";
  const Scale so = tensor_scale(m, op.outputs[0]);
  if (so.scale.empty()) return "";  // the golden chain rejects it with the reason
  const quant::ActivationRange r = quant::activation_range(*act, so.scale[0], so.zero_point);
  if (r.min != -128 || r.max != 127) {
    return "fused activation clamps to [" + std::to_string(r.min) + ", " + std::to_string(r.max) +
           "]; the VTA ADD program has no clamp";
  }
  return "";
}

// mode delegate: where this network run's DUT outputs sit in DRAM. Each
// program gets its own regions after the previous one's, so a CONV_2D whose
// input an earlier DUT operator wrote in the blocked layout it reads
// ([N][C/16][H][W][16]) takes it in place, with no host round trip. ADD
// takes 16-bit inputs the host prepares, so its inputs always come from the
// host; an ADD's flat int8 output is the blocked layout when C is 16.
struct DramPlan {
  struct Placed {
    uint64_t addr = 0;
    int64_t channels = 0;
    bool blocked = false;  // [N][C/16][H][W][16]; else flat NHWC
    std::size_t op_index = 0;
  };
  uint64_t next = 0;                  // the next program's base
  std::map<int32_t, Placed> tensors;  // tensor index -> where a DUT operator wrote it
  // compile.stream: the stream the next DUT operator may join (the op index
  // of its first operator), and whether its last program can be followed.
  std::optional<std::size_t> stream_first_op;
  bool last_followable = false;
};

// A lowered layer: its program, where its input came from, and whether it
// runs in one instruction stream after the previous DUT operator.
struct VtaLayer {
  CompiledProgram program;
  std::optional<std::size_t> input_from;  // the DUT operator whose output it reads in DRAM
  bool streamed = false;
};

using Replayed = model_replay::TargetLayer<VtaLayer>;

const CompiledProgram& program(const Replayed& l) { return l.state.program; }

std::optional<uint64_t> perf(const SimOutcome& run, const std::string& k) {
  const auto it = run.perf.find(k);
  if (it == run.perf.end()) return std::nullopt;
  return it->second;
}

// The operator that writes tensor `t` (subgraph 0), if any.
std::optional<std::size_t> producer_of(const tflite::Model& m, int32_t t) {
  const auto& ops = m.subgraphs[0].operators;
  for (std::size_t j = 0; j < ops.size(); ++j)
    for (int32_t o : ops[j].outputs)
      if (o == t) return j;
  return std::nullopt;
}

// Where layer k sits among the runs (one start ... done each) of a trace:
// a run is a layer alone, or a stream of layers (VtaLayer::streamed).
struct RunPos {
  std::size_t run = 0, runs = 0;
  bool first = true, last = true;  // in its run
};
RunPos run_pos(const std::vector<Replayed>& layers, std::size_t k) {
  RunPos p;
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const bool starts = i == 0 || !layers[i].state.streamed;
    if (starts) ++p.runs;
    if (i <= k && starts) p.run = p.runs - 1;
  }
  p.first = k == 0 || !layers[k].state.streamed;
  p.last = k + 1 == layers.size() || !layers[k + 1].state.streamed;
  return p;
}

// ", 3x3 s1": a CONV_2D's kernel and stride, for the shapes column.
std::string conv_shape(const tflite::LayerWorkload& l) {
  if (l.op == "FULLY_CONNECTED") return ", as 1x1 conv";
  if (l.op == "DEPTHWISE_CONV_2D") return ", " + std::to_string(l.filter.dim(1)) + "x" + std::to_string(l.filter.dim(2)) +
                                          " s" + std::to_string(l.conv.stride_h) + " block-diagonal";
  return ", " + std::to_string(l.filter.dim(1)) + "x" + std::to_string(l.filter.dim(2)) + " s" +
         std::to_string(l.conv.stride_h);
}

// A layer the TFLite mode cannot compile (its temporaries and vectors take
// ACC entries the 16-bit scheme leaves free; a multiplier its ALU program
// cannot take): the error line names the mode, since vta16 may compile it.
template <class F>
CompiledProgram in_tflite_mode(const scenario::Scenario& sc, F&& compile) {
  try {
    return compile();
  } catch (const InputError& e) {
    throw InputError(std::string("requant ") + scenario::requant_name(*sc.requant) + ": " + e.what());
  }
}

// Per-run counters: run<k>_* when several runs, else the only run's.
std::string run_prefix(std::size_t k, std::size_t n) { return n > 1 ? "run" + std::to_string(k) + "_" : ""; }

// The DUT cycle of the last write into layer l's output (CheckCapture::last_write_cycle).
std::optional<uint64_t> last_output_write(const SimOutcome& out, const Replayed& l) {
  for (const tb::CheckCapture& c : out.play.checks)
    if (c.desc.name == l.check) return c.last_write_cycle;
  return std::nullopt;
}

// Layer k's [start, end) on the DUT's timeline. A run alone: its start to
// its done. In a stream, each layer ends with its last output write (the
// last one with the stream's done) and the next starts there: a layer's
// cycles are what it adds to the stream, its loads under the previous
// layer's tail included.
std::optional<std::pair<uint64_t, uint64_t>> layer_span(const std::vector<Replayed>& layers,
                                                        std::size_t k, const SimOutcome& out) {
  const RunPos rp = run_pos(layers, k);
  const std::string pre = run_prefix(rp.run, rp.runs);
  const auto cycles = perf(out, pre + "vta_cycles"), end = perf(out, pre + "end_cycle");
  if (!cycles || !end || *end < *cycles) return std::nullopt;
  std::pair<uint64_t, uint64_t> span{*end - *cycles, *end};
  if (!rp.first) {
    const auto w = last_output_write(out, layers[k - 1]);
    if (!w) return std::nullopt;
    span.first = *w;
  }
  if (!rp.last) {
    const auto w = last_output_write(out, layers[k]);
    if (!w) return std::nullopt;
    span.second = *w;
  }
  if (span.second < span.first) return std::nullopt;
  return span;
}

}  // namespace

CompileOptions compile_options(const scenario::Scenario& sc) {
  CompileOptions o;
  const Value& c = sc["compile"];
  o.threads = static_cast<int>(c["threads"].as_int());
  o.tile_rows = static_cast<int>(c["tile_rows"].as_int());
  o.tile_cols = static_cast<int>(c["tile_cols"].as_int());
  o.oc_blocks = static_cast<int>(c["oc_blocks"].as_int());
  o.wgt_double_buffer = c["wgt_double_buffer"].as_bool();
  o.first_part_rows = static_cast<int>(c["first_part_rows"].as_int());
  o.dram_limit = TbConfig{}.dram_size;  // the DRAM target's size
  return o;
}

std::optional<quant::Rounding> tflite_rounding(const scenario::Scenario& sc) {
  switch (sc.requant.value_or(scenario::Requant::kVta16)) {
    case scenario::Requant::kTfliteDouble: return quant::Rounding::kDouble;
    case scenario::Requant::kTfliteSingle: return quant::Rounding::kSingle;
    default: return std::nullopt;
  }
}

namespace {

class VtaModelTarget : public model_replay::ModelTarget<VtaLayer, DramPlan> {
 public:
  explicit VtaModelTarget(scenario::Schema compile_schema) : compile_schema_(std::move(compile_schema)) {}
  std::string name() const override { return "vta"; }
  bool uses_golden_chain() const override { return true; }
  std::optional<quant::Rounding> tflite_rounding(const scenario::Scenario& sc) const override {
    return vta::tflite_rounding(sc);
  }

  std::vector<model_replay::OpSupport> supported_ops() const override {
    return {{tflite::kConv2d, "fused NONE/RELU/RELU6, dilation 1", conv_support},
            {tflite::kFullyConnected, "fused NONE/RELU/RELU6", fc_support},
            {tflite::kAdd, "no clamping fused activation", add_support}};
  }

  // `depthwise: gemm` runs DEPTHWISE_CONV_2D on the GEMM core as a
  // block-diagonal CONV_2D (C times the MACs: tb/vta/README.md); `cpu`, the
  // default, leaves it to the CPU.
  std::vector<model_replay::OpSupport> supported_ops_for(const scenario::Scenario& sc) const override {
    std::vector<model_replay::OpSupport> ops = supported_ops();
    if (sc["depthwise"].as_string() == "gemm")
      ops.push_back({tflite::kDepthwiseConv2d, "depthwise: gemm, fused NONE/RELU/RELU6, dilation 1", depthwise_support});
    return ops;
  }

  void add_keys(scenario::Schema& s) const override {
    s.optional("compile", compile_schema_, "{}");
    s.optional("depthwise", scenario::Schema::one_of({"cpu", "gemm"}), "cpu");
  }

  std::string summary(const scenario::Scenario& sc) const override {
    return std::string("input ") + (sc["input"].is_string() ? "random" : "npy") +
           ", golden chain with double rounding; layers checked against " +
           (tflite_rounding(sc) ? std::string("TFLite's requantization (") + scenario::requant_name(*sc.requant) + ")"
                                : std::string("the VTA 16-bit scheme"));
  }

  Lowered lower(const model_replay::LayerContext& ctx, DramPlan* plan) const override {
    if (ctx.chain->code == tflite::kFullyConnected)
      return lower_on_gemm(ctx, plan, tflite::fully_connected_as_conv2d(*ctx.chain),
                           tflite::fully_connected_as_conv2d(*ctx.chain_single));
    if (ctx.chain->code == tflite::kDepthwiseConv2d) {
      Lowered layer = lower_on_gemm(ctx, plan, tflite::depthwise_as_conv2d(*ctx.chain),
                                    tflite::depthwise_as_conv2d(*ctx.chain_single));
      // The useful MACs (one input channel per output), not the block-diagonal product the GEMM runs.
      const tflite::LayerWorkload& dw = *ctx.chain;
      layer.macs = static_cast<uint64_t>(dw.expected.numel() * dw.filter.dim(1) * dw.filter.dim(2));
      return layer;
    }
    return lower_on_gemm(ctx, plan, *ctx.chain, *ctx.chain_single);
  }

  // One layer: `l` (double rounding) and `s` (single), a FULLY_CONNECTED as
  // its 1x1 CONV_2D; `plan`: mode delegate's DRAM plan of this network run.
  Lowered lower_on_gemm(const model_replay::LayerContext& ctx, DramPlan* plan, const tflite::LayerWorkload& l,
                        const tflite::LayerWorkload& s) const {
    const tflite::Model& m = ctx.model;
    const tflite::Operator& op = m.subgraphs[0].operators[ctx.op_index];
    CompileOptions opt = compile_options(ctx.sc);
    VtaLayer vl;
    if (plan != nullptr) {
      opt.dram_base = plan->next;
      const auto in = plan->tensors.find(l.input_tensors.at(0));
      const int64_t channels = l.inputs.at(0).shape().back();
      if (l.code == tflite::kConv2d && in != plan->tensors.end() && in->second.channels == channels &&
          (in->second.blocked || channels == kChannelBlock)) {
        opt.input_addr = in->second.addr;
        vl.input_from = in->second.op_index;
      }
      // compile.stream: a CONV_2D joins the stream of the DUT operators
      // before it when the last one can be followed and its input is there
      // in time: in DRAM, written by an earlier DUT operator (read after the
      // stream's earlier stores), or from the host, computed before the
      // stream's first operator ran.
      using LoadStart = CompileOptions::LoadStart;
      if (ctx.sc["compile"]["stream"].as_bool() && l.code == tflite::kConv2d && plan->stream_first_op &&
          plan->last_followable) {
        const std::optional<std::size_t> from = producer_of(m, l.input_tensors.at(0));
        if (vl.input_from) {
          vl.streamed = true;
          opt.load_start = LoadStart::kWeightsFirst;
        } else if (!from || *from < *plan->stream_first_op) {
          vl.streamed = true;
          opt.load_start = LoadStart::kAtOnce;
        }
      }
    }
    Lowered out;
    std::string in_dims;
    // The operator's own shapes (a FULLY_CONNECTED's, not its 1x1 CONV_2D view's).
    for (const Tensor& t : ctx.chain->inputs) in_dims += (in_dims.empty() ? "" : " + ") + model_replay::dims(t.shape());
    out.shapes = in_dims + " -> " + model_replay::dims(ctx.chain->output_shape);
    CompiledProgram prog;
    Tensor golden_out;
    // requant tflite_*: TFLite's own parameters in that rounding (multipliers
    // and shifts derived from the model's scales as TFLite does), on this
    // layer's inputs.
    const std::optional<quant::Rounding> tfl = tflite_rounding(ctx.sc);
    const tflite::LayerWorkload& tfl_params = tfl == quant::Rounding::kSingle ? s : l;
    if (l.code == tflite::kConv2d && tfl) {
      out.shapes += conv_shape(l);
      const ops::ConvParams& p = tfl_params.conv;
      prog = in_tflite_mode(ctx.sc, [&] {
        const TfliteRequantProgram rq =
            make_tflite_requant_program(p.output_multiplier, *tfl, p.output_zero_point, p.act);
        return compile_conv2d(l.inputs[0], l.filter, l.bias, p, rq, opt);
      });
      golden_out = ops::conv2d(l.inputs[0], l.filter, l.bias, p);
    } else if (l.code == tflite::kConv2d) {
      out.shapes += conv_shape(l);
      const quant::Activation act = gemm_activation(op);
      const Scale si = tensor_scale(m, op.inputs[0]), sw = tensor_scale(m, op.inputs[1]),
                  so = tensor_scale(m, op.outputs[0]);
      const auto plans = ops::vta_plan_conv2d(l.filter, l.bias, si.scale.at(0), si.zero_point, sw.scale,
                                              so.scale.at(0), so.zero_point, act);
      prog = compile_conv2d(l.inputs[0], l.filter, l.bias, l.conv, plans, opt);
      golden_out = ops::vta_conv2d(l.inputs[0], l.filter, l.bias, l.conv, plans);
    } else if (tfl) {  // ADD: TFLite's input rescale on the host, the sum and output requantization on the ALU
      prog = in_tflite_mode(ctx.sc, [&] { return compile_add(l.inputs[0], l.inputs[1], tfl_params.add, opt); });
      golden_out = ops::add(l.inputs[0], l.inputs[1], tfl_params.add);
    } else {  // ADD
      const Scale s1 = tensor_scale(m, op.inputs[0]), s2 = tensor_scale(m, op.inputs[1]),
                  so = tensor_scale(m, op.outputs[0]);
      const quant::VtaAddParams vp = quant::vta_make_add_params(s1.scale.at(0), s1.zero_point, s2.scale.at(0),
                                                                s2.zero_point, so.scale.at(0), so.zero_point);
      prog = compile_add(l.inputs[0], l.inputs[1], vp, opt);
      golden_out = ops::vta_add(l.inputs[0], l.inputs[1], vp);
    }
    out.checks.push_back({ctx.check,
                          as_nhwc(golden_out),
                          {{ctx.check, "tflite_double", as_nhwc(l.expected)},
                           {ctx.check, "tflite_single", as_nhwc(s.run(s.inputs))}}});
    out.macs = prog.macs;
    if (plan != nullptr) {
      constexpr uint64_t kAlign = 4096;  // programs start on a fresh page
      plan->next = (prog.image_base + prog.dram.size() + kAlign - 1) / kAlign * kAlign;
      plan->tensors[l.output_tensor] = {prog.output.byte_addr, l.output_shape.back(),
                                        prog.output.kind == OutputLayout::Kind::kBlockedNhwc, ctx.op_index};
      if (!vl.streamed) plan->stream_first_op = ctx.op_index;
      plan->last_followable = why_not_followable(prog).empty();
    }
    vl.program = std::move(prog);
    out.state = std::move(vl);
    return out;
  }

  void emit(trace::Trace& t, const scenario::Scenario& sc, const Replayed& l) const override {
    uint64_t unused = 0;
    emit_run(t, sc, {&l}, unused);
  }

  // compile.stream: the layers in runs, a stream of layers as one run.
  bool emit_network(trace::Trace& t, const scenario::Scenario& sc,
                    const std::vector<Replayed>& layers) const override {
    bool any = false;
    uint64_t free_addr = 0;  // linked streams go after every image
    for (const auto& l : layers) {
      any = any || l.state.streamed;
      free_addr = std::max(free_addr, program(l).image_base + program(l).dram.size());
    }
    if (!any) return false;
    constexpr uint64_t kAlign = 4096;
    free_addr = (free_addr + kAlign - 1) / kAlign * kAlign;
    std::vector<const Replayed*> run;
    for (std::size_t k = 0; k < layers.size(); ++k) {
      run.push_back(&layers[k]);
      if (k + 1 == layers.size() || !layers[k + 1].state.streamed) {
        emit_run(t, sc, run, free_addr);
        run.clear();
      }
    }
    return true;
  }

  std::vector<model_replay::Column> columns() const override {
    return {{"input", 11}, {"tfl_double", 16}, {"tfl_single", 16}, {"run", 5}, {"cycles", 10}, {"util", 7},
            {"bound", 7}, {"of_bnd", 7}};
  }

  model_replay::Figures figures(const Replayed& l, const Run& run,
                                const SimOutcome& out) const override {
    const CompiledProgram& p = program(l);
    model_replay::Figures f;
    const tb::CheckCapture* cap = run.captures.at(0);
    // Where the input came from: DRAM, written there by an earlier DUT operator, or the host.
    const std::optional<std::size_t> from = l.state.input_from;
    f.cells.push_back(from ? "dram op" + std::to_string(*from) : "host");
    f.json["input_from"] = from ? nlohmann::json{{"dram", true}, {"op_index", *from}} : nlohmann::json{{"dram", false}};
    for (const char* sem : {"tflite_double", "tflite_single"}) {
      std::string cell = "-";
      for (const Reference& r : l.layer.checks.at(0).references) {
        if (r.semantics != sem || cap == nullptr) continue;
        const Distance d = distance(sem, r.tensor, cap->actual);
        f.json["distance"][sem] = {{"exact_pct", d.exact_pct}, {"max_abs_diff", d.max_abs_diff}};
        f.metrics[std::string(sem) + ".exact_pct"] = d.exact_pct;
        f.metrics[std::string(sem) + ".max_abs_diff"] = d.max_abs_diff;
        cell = fixed_text(d.exact_pct) + "%/" + std::to_string(static_cast<int64_t>(d.max_abs_diff));
      }
      f.cells.push_back(cell);
    }
    f.json["gemm_uops"] = p.gemm_uops;
    f.json["instructions"] = p.insn_count;
    const RunPos rp = run_pos(*run.layers, run.index);
    const std::string pre = run_prefix(rp.run, rp.runs);
    const auto span = layer_span(*run.layers, run.index, out);
    const uint64_t cyc = span ? span->second - span->first : 0;
    const bool conv = on_gemm(l.type);
    f.cells.push_back(std::to_string(rp.run));
    f.json["run"] = rp.run;
    if (cyc > 0) {
      const double util = conv ? static_cast<double>(p.gemm_uops) / static_cast<double>(cyc) : 0;
      f.json["cycles"] = cyc;
      f.metrics["cycles"] = static_cast<double>(cyc);
      if (conv) {
        f.json["utilization"] = util;
        f.metrics["utilization"] = util;
      } else {
        f.json["utilization"] = nullptr;
      }
      const bool alone = rp.first && rp.last;
      if (const auto g = perf(out, pre + "gemm_busy"); g && alone)
        f.json["gemm_busy_fraction"] = static_cast<double>(*g) / cyc;
      if (rp.runs > 1 || !alone) {  // the layer's place on report.html's timeline
        f.json["start_cycle"] = span->first;
        f.json["end_cycle"] = span->second;
      }
      f.cells.push_back(std::to_string(cyc));
      f.cells.push_back(conv ? fixed_text(util * 100.0, 1) + "%" : "-");
      // The compute bound (CompiledProgram::compute_bound) and the share of it reached.
      const double bound = p.compute_bound();
      f.cells.push_back(conv ? fixed_text(bound * 100.0, 1) + "%" : "-");
      f.cells.push_back(conv ? fixed_text(bound > 0 ? util / bound * 100.0 : 0.0, 0) + "%" : "-");
      if (conv) {
        f.json["compute_bound"] = bound;
        f.metrics["compute_bound"] = bound;
        f.metrics["utilization_of_bound"] = bound > 0 ? util / bound : 0.0;
      }
    } else {
      f.json["cycles"] = nullptr;
      for (int c = 0; c < 4; ++c) f.cells.push_back("-");
    }
    f.metrics["gemm_uops"] = static_cast<double>(p.gemm_uops);
    return f;
  }

  void totals(const std::vector<Replayed>& layers, const SimOutcome& out,
              Metrics& m) const override {
    // GEMM uops of the CONV_2D layers over the cycles of all layers, start to
    // done each: an ADD's GEMMs only move its operands into ACC (no MACs), so
    // they cost cycles but are not counted as useful work.
    uint64_t gemm_uops = 0, cycles = 0, macs = 0;
    for (std::size_t k = 0; k < layers.size(); ++k) {
      if (on_gemm(layers[k].type)) gemm_uops += program(layers[k]).gemm_uops;
      macs += layers[k].layer.macs;  // a depthwise layer's useful MACs, not its block-diagonal product's
    }
    const std::size_t runs = layers.empty() ? 0 : run_pos(layers, 0).runs;
    for (std::size_t r = 0; r < runs; ++r) cycles += perf(out, run_prefix(r, runs) + "vta_cycles").value_or(0);
    m.extra["gemm_uops"] = static_cast<double>(gemm_uops);
    if (cycles > 0) {
      m.extra["vta_cycles"] = static_cast<double>(cycles);
      m.utilization = static_cast<double>(gemm_uops) / static_cast<double>(cycles);
      // GEMM uops count padded lanes and taps; the peak is 16 x 16 MACs a cycle.
      m.extra["useful_mac_fraction"] = static_cast<double>(macs) / (256.0 * static_cast<double>(cycles));
    }
  }

  std::optional<WorkUnit> work_unit(const Replayed& l, const std::string& check,
                                                    const std::vector<int64_t>& index) const override {
    (void)check;
    const CompiledProgram& p = program(l);
    std::vector<int64_t> idx = index;
    if (p.output.kind == OutputLayout::Kind::kFlat) {  // ADD: store_writing takes the flat index
      int64_t flat = 0;
      for (std::size_t d = 0; d < index.size(); ++d) flat = flat * p.output.shape.at(d) + index[d];
      idx = {flat};
    }
    const std::optional<std::size_t> i = p.store_writing(idx);
    if (!i || *i >= p.insns.size()) return std::nullopt;
    WorkUnit u;
    u.fields = {{"layer", static_cast<int64_t>(l.op_index)}, {"instruction", static_cast<int64_t>(*i)}};
    if (*i < p.work.size() && p.work[*i].tile >= 0) u.fields["tile"] = p.work[*i].tile;
    u.text = "layer " + std::to_string(l.op_index) + " (" + l.type + ") instruction " + std::to_string(*i) + ": " +
             disassemble(p.insns[*i]);
    if (*i < p.work.size() && !p.work[*i].text.empty()) u.text += "  ; " + p.work[*i].text;
    return u;
  }

 private:
  // One run: the images of its layers, one start, and each layer's check
  // once it is done. mode layers: every image starts at address 0, each
  // layer reloads its own and is checked before the next load overwrites it.
  // mode delegate: each image starts after the previous one's, leaving the
  // outputs later operators read in place; a stream's linked instructions
  // go to `free_addr` (after every image), which moves past them.
  void emit_run(trace::Trace& t, const scenario::Scenario& sc,
                const std::vector<const Replayed*>& run, uint64_t& free_addr) const {
    const int index = t.config.count("vta_runs") ? std::stoi(t.config["vta_runs"]) : 0;
    std::string checks;
    uint64_t gemm_uops = 0;
    std::vector<const CompiledProgram*> programs;
    for (const Replayed* l : run) {
      const CompiledProgram& p = program(*l);
      t.mem_load(p.image_base, p.dram, l->check);
      checks += (checks.empty() ? "" : "-") + l->check;  // a trace config value: [A-Za-z0-9_.-]
      gemm_uops += p.gemm_uops;
      programs.push_back(&p);
    }
    uint64_t insn_addr = programs[0]->insn_addr;
    uint32_t insn_count = programs[0]->insn_count;
    if (programs.size() > 1) {
      std::vector<uint8_t> bytes = to_bytes(link_stream(programs));
      const uint64_t limit = TbConfig{}.dram_size;
      if (free_addr + bytes.size() > limit)
        throw InputError("compile.stream: the linked instructions of " + checks + " end at byte " +
                         std::to_string(free_addr + bytes.size()) + ", beyond the DRAM size " + std::to_string(limit) +
                         "; set compile.stream: false");
      insn_addr = free_addr;
      insn_count = static_cast<uint32_t>(bytes.size() / kInsnBytes);
      free_addr = (free_addr + bytes.size() + 4095) / 4096 * 4096;
      t.mem_load(insn_addr, std::move(bytes), "stream" + std::to_string(index));
    }
    t.reg_write(regs::kInsnCount, insn_count);
    t.reg_write(regs::kInsnAddr, static_cast<uint32_t>(insn_addr));
    t.reg_write(regs::kCtrl, regs::ctrl::kStartMask | regs::ctrl::kDoneMask);  // start, clear done
    t.wait_done(sc.testbench.timeout_cycles);
    for (const Replayed* l : run) {
      const CompiledProgram& p = program(*l);
      const Tensor& expected = l->layer.checks.at(0).expected;
      if (p.output.kind == OutputLayout::Kind::kBlockedNhwc) {
        t.mem_check(p.output.byte_addr, expected, l->check, kChannelBlock);
      } else {
        t.mem_check(p.output.byte_addr, expected, l->check);
      }
    }
    t.config["vta_run" + std::to_string(index) + "_check"] = checks;
    t.config["vta_run" + std::to_string(index) + "_gemm_uops"] = std::to_string(gemm_uops);
    t.config["vta_runs"] = std::to_string(index + 1);
    // The totals behind the run's MACs and GEMM utilization (totals()), for
    // a replay that has only the trace.
    const auto add = [&t](const char* key, uint64_t v) {
      const auto it = t.config.find(key);
      t.config[key] = std::to_string((it == t.config.end() ? 0 : std::stoull(it->second)) + v);
    };
    for (const Replayed* l : run) {
      add("vta_macs", program(*l).macs);
      add("vta_conv_gemm_uops", on_gemm(l->type) ? program(*l).gemm_uops : 0);
    }
  }

  scenario::Schema compile_schema_;
};

}  // namespace

// The `model` op (vta_ops.def): the model-replay front end over the VTA
// target, with the backend's compile knobs (key `compile`).
std::unique_ptr<Operator> make_model_op() {
  return model_replay::model_operator(std::make_unique<VtaModelTarget>(compile_schema()));
}

bool VtaRunLogWrapper::run(uint64_t max_cycles) {
  const bool done = VtaWrapper::run(max_cycles);
  if (done) {
    const auto p = VtaWrapper::dut_counters();
    std::map<std::string, uint64_t> r;
    for (const char* k : {"vta_cycles", "gemm_busy", "alu_busy"}) {
      const auto it = p.find(k);
      if (it != p.end()) r[k] = it->second;
    }
    r["end_cycle"] = cycles();  // on the DUT's timeline: where the layer ends on report.html's timeline
    runs_.push_back(std::move(r));
  }
  return done;
}

std::map<std::string, uint64_t> VtaRunLogWrapper::dut_counters() const {
  std::map<std::string, uint64_t> m = VtaWrapper::dut_counters();
  if (runs_.size() > 1) {
    for (std::size_t k = 0; k < runs_.size(); ++k) {
      for (const auto& [name, v] : runs_[k]) m["run" + std::to_string(k) + "_" + name] = v;
    }
  } else if (runs_.size() == 1) {
    m["end_cycle"] = runs_[0].at("end_cycle");
  }
  return m;
}

std::map<std::string, uint64_t> merge_run_log_counters(const std::vector<TargetBackend::PerfSlice>& slices) {
  std::map<std::string, uint64_t> m;
  std::vector<std::map<std::string, uint64_t>> runs;  // every run's counters, in order
  const auto summed = [](const std::string& k) {     // AxiDutWrapper's, per master too
    const auto ends = [&k](const std::string& tail) {
      return k.size() >= tail.size() && k.compare(k.size() - tail.size(), tail.size(), tail) == 0;
    };
    return ends("read_beats") || ends("write_beats") || ends("memory_wait_cycles");
  };
  for (const TargetBackend::PerfSlice& s : slices) {
    std::map<std::size_t, std::map<std::string, uint64_t>> own;  // this slice's runs by index
    for (const auto& [k, v] : s.perf) {
      if (const auto run = numbered_run_counter(k)) {
        own[run->first][run->second] = v;
      } else if (summed(k)) {
        m[k] += v;
      } else if (k != "end_cycle") {
        m[k] = v;  // a register: the last run's figure
      }
    }
    if (own.empty() && s.perf.count("end_cycle")) {  // a slice of one run names its counters plainly
      auto& r = own[0];
      r["end_cycle"] = s.perf.at("end_cycle");
      for (const char* k : {"vta_cycles", "gemm_busy", "alu_busy"}) {
        if (s.perf.count(k)) r[k] = s.perf.at(k);
      }
    }
    for (auto& [idx, r] : own) {
      if (r.count("end_cycle")) r["end_cycle"] += s.cycle_offset;
      runs.push_back(std::move(r));
    }
  }
  if (runs.size() == 1) {
    m["end_cycle"] = runs[0].at("end_cycle");
  } else {
    for (std::size_t k = 0; k < runs.size(); ++k) {
      for (const auto& [name, v] : runs[k]) m["run" + std::to_string(k) + "_" + name] = v;
    }
  }
  return m;
}

}  // namespace cosim::tb::vta
