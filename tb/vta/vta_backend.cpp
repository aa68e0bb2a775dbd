// The `vta` target: ops `conv2d` and `add` on the Verilated VTA core.
//
// A scenario is turned into int8 tensors, golden outputs under the VTA 16-bit
// scheme (ops::vta_conv2d / ops::vta_add, the bit-exact check), the same
// layer under TFLite double and single rounding (distances in the report),
// and a VTA program (cpp_model/vta_compiler). With `requant: tflite_double` or
// `tflite_single` (conv2d, add) the program computes TFLite's requantization
// exactly (vta_compiler/tflite_requant_program.hpp) and the golden is
// ops::conv2d / ops::add in that rounding; the 16-bit scheme is then a
// reference distance. `op: model` takes the same modes (vta_model_op.hpp).
// The trace loads the program's
// DRAM image, writes INSN_COUNT / INSN_ADDR / CTRL, waits for FINISH and
// checks the output: CONV2D's sits in DRAM in channel blocks (nchw16c), so
// the check reads it back as NHWC and mismatches are named (n,h,w,c).
//
//   target: vta
//   op: conv2d
//   shapes: {input: [1, 28, 28, 64], filter: [64, 3, 3, 64]}  # or kernel: 3, out_channels: 64
//   params: {stride: 1, padding: same, activation: none}
//   quant: {input: {scale: 0.02, zero_point: -5}, output: {scale: 0.2, zero_point: 3}, filter_scales: random}
//   data: {input: random, filter: random, bias: random}         # bias: none for no bias
//   compile: {threads: 2}                                       # compiler knobs
//
//   op: add
//   shapes: {input1: [1, 8, 8, 16], input2: [1, 1, 1, 16]}     # NumPy broadcasting
//   quant: {input1: {...}, input2: {...}, output: {...}}
#include <algorithm>
#include <cstdio>
#include <memory>
#include <sstream>

#include "common/error.hpp"
#include "dut/vta_regs.hpp"
#include "cosim/backend.hpp"
#include "model_replay/model_replay.hpp"
#include "ops/add.hpp"
#include "ops/conv2d.hpp"
#include "ops/vta_conv2d.hpp"
#include "quant/vta_quant.hpp"
#include "vta/disasm.hpp"
#include "vta/functional_model.hpp"
#include "vta/raw_trace.hpp"
#include "vta/vta_schema.hpp"
#include "vta/vta_disasm.hpp"
#include "vta/vta_model_op.hpp"
#include "vta/vta_wrapper.hpp"
#include "vta_compiler/add_compiler.hpp"
#include "vta_compiler/conv2d_compiler.hpp"
#include "vta_compiler/tflite_requant_program.hpp"

namespace cosim::tb::vta {

using namespace cosim::vta;  // the ISA, golden model and compiler by their own names

namespace {

using scenario::Schema;
using scenario::Value;

constexpr int kBlock = 16;  // channels per INP / OUT element

struct VtaState {
  CompiledProgram prog;
  std::string fault;  // none | no_finish | deadlock
};

// Scale and zero point of one quant_tensor() value.
struct QParams {
  float scale = 1.0f;
  int32_t zero_point = 0;
};
QParams qparams(const Value& v) {
  return {static_cast<float>(v["scale"].as_float()), static_cast<int32_t>(v["zero_point"].as_int())};
}

quant::Activation activation(const std::string& s) {
  if (s == "relu") return quant::Activation::kRelu;
  if (s == "relu6") return quant::Activation::kRelu6;
  return quant::Activation::kNone;
}

using model_replay::dims;

// int8 NHWC copy of a CONV2D output (the ops return layout kAny).
Tensor as_nhwc(const Tensor& t) {
  Tensor r(DType::kInt8, t.shape(), Layout::kNHWC);
  r.bytes() = t.bytes();
  return r;
}

// Two ints from `stride` / `kernel`: one integer, or a [h, w] list.
std::pair<int64_t, int64_t> pair_of(const Value& v) {
  if (v.is_list()) {
    if (v.items.size() != 2) v.fail("expected one integer or a list [h, w]");
    return {v[0].as_int(), v[1].as_int()};
  }
  return {v.as_int(), v.as_int()};
}

// The program without a reachable FINISH, for the hang tests: `no_finish`
// drops it (every engine runs dry); `deadlock` adds a pop of the
// compute->load token queue to the first LOAD-engine instruction that has
// none, and since the program pushes exactly as many of those tokens as it
// pops, the LOAD engine ends up waiting on that queue for ever.
void apply_fault(CompiledProgram& p, const std::string& fault) {
  if (fault == "none") return;
  const auto opcode = [&p](std::size_t i) { return p.insn_bytes[16 * i] & 0x7; };
  const auto mem_type = [&p](std::size_t i) { return (p.insn_bytes[16 * i] >> 7 | p.insn_bytes[16 * i + 1] << 1) & 0x7; };
  if (fault == "no_finish") {
    std::size_t fin = p.insn_count;
    for (std::size_t i = 0; i < p.insn_count; ++i) {
      if (opcode(i) == 3) fin = i;
    }
    if (fin == p.insn_count) throw std::logic_error("vta: compiled program has no FINISH");
    for (std::size_t i = fin; i + 1 < p.insn_count; ++i) {  // close the gap
      std::copy_n(&p.insn_bytes[16 * (i + 1)], 16, &p.insn_bytes[16 * i]);
    }
    --p.insn_count;
    p.insn_bytes.resize(16 * p.insn_count);
  } else {
    std::size_t i = 0;
    while (i < p.insn_count && !(opcode(i) == 0 && (mem_type(i) == 1 || mem_type(i) == 2) &&
                                 (p.insn_bytes[16 * i] & 0x10) == 0)) {
      ++i;
    }
    if (i == p.insn_count) throw std::logic_error("vta: compiled program has no LOAD to make wait");
    p.insn_bytes[16 * i] |= 0x10;  // pop_next: LOAD pops compute->load
  }
  std::copy(p.insn_bytes.begin(), p.insn_bytes.end(), p.dram.begin() + static_cast<std::ptrdiff_t>(p.insn_addr));
}

// A raw program replayed without its compiler: the cycle budget of its run,
// and the STORE behind a byte of the DRAM image, found by decoding the
// instructions the trace loads (host registers 0x0c address, 0x08 count).
constexpr uint64_t kRawProgramCycleBudget = 100'000'000;

// On replay: the STOREs of every stream the trace starts the core on that
// write `address`; the run whose recorded checks name `check` (a model's
// fused layers) decides, else the last writer.
std::optional<tb::WorkUnit> raw_program_work_unit(const trace::Trace& tr, const std::string& check, uint64_t address) {
  std::optional<tb::WorkUnit> found;
  bool found_in_its_run = false;
  for (const StartedProgram& p : started_programs(tr)) {
    if (p.missing) continue;
    std::vector<Insn> insns;
    try {
      for (const InsnWord& wd : words_from_bytes(p.insn_bytes)) insns.push_back(decode(wd));
    } catch (const InputError&) {
      continue;  // an undefined opcode: the model said so already
    }
    const std::vector<std::size_t> stores = stores_writing(insns, address);
    if (stores.empty()) continue;
    const bool its_run = !p.checks.empty() && (" " + p.checks + " ").find(" " + check + " ") != std::string::npos;
    if (found_in_its_run && !its_run) continue;
    const std::size_t i = stores.back();  // the last writer decides the final byte
    tb::WorkUnit u;
    u.fields = {{"instruction", static_cast<int64_t>(i)}, {"run", p.run}};
    u.text = (p.checks.empty() ? "" : "run " + std::to_string(p.run) + " (" + p.checks + ") ") + "instruction " +
             std::to_string(i) + ": " + cosim::vta::disassemble(insns[i]);
    found = u;
    found_in_its_run = its_run;
  }
  if (!found) {
    tb::WorkUnit u;
    u.text = "no STORE instruction of the trace's programs writes this address";
    return u;
  }
  return found;
}

class VtaBackend : public TargetBackend {
 public:
  std::string name() const override { return "vta"; }
  std::string description() const override {
    return "VTA core (rtl/vta): int8 CONV2D and ADD, checked bit-exact against the VTA 16-bit scheme or (requant) "
           "TFLite double / single rounding";
  }
  std::vector<std::string> ops() const override { return {"conv2d", "add", "model"}; }

  scenario::Schema op_schema(const std::string& op) const override {
    namespace ss = scenario::schemas;
    if (op == "model") return model_replay::op_schema(*model_);  // vta_model_op.hpp
    return op_schema_of(op);  // vta_schema.hpp
  }

  Workload prepare(const scenario::Scenario& sc) const override {
    const scenario::Requant rq = sc.requant.value_or(scenario::Requant::kVta16);
    if (rq == scenario::Requant::kSaturate) sc["requant"].fail("expected vta16, tflite_double or tflite_single");
    if (sc.op == "model") return model_replay::prepare(*model_, sc);  // requant per layer: vta_model_op.hpp
    // TFLite requantization on the ALU, or the 16-bit scheme (nullopt).
    const std::optional<quant::Rounding> tfl = tflite_rounding(sc);
    Workload w = sc.op == "add" ? prepare_add(sc, tfl) : prepare_conv2d(sc, tfl);
    auto& st = std::any_cast<VtaState&>(w.state);
    st.fault = sc["fault"].as_string();
    apply_fault(st.prog, st.fault);
    return w;
  }

  trace::Trace compile(const scenario::Scenario& sc, const Workload& w) const override {
    if (model_replay::is_model_workload(w)) return model_replay::compile(*model_, sc, w);
    const auto& st = std::any_cast<const VtaState&>(w.state);
    const CompiledProgram& p = st.prog;
    trace::Trace t;
    t.target = name();
    t.mem_load(0, p.dram, "dram");  // the image holds the instruction stream too
    t.reg_write(regs::kInsnCount, p.insn_count);
    t.reg_write(regs::kInsnAddr, static_cast<uint32_t>(p.insn_addr));
    t.reg_write(regs::kCtrl, regs::ctrl::kStartMask | regs::ctrl::kDoneMask);  // start, clear done
    t.wait_done(sc.testbench.timeout_cycles);
    const Tensor& expected = w.expected.at("output");
    if (p.output.kind == OutputLayout::Kind::kBlockedNhwc) {
      t.mem_check(p.output.byte_addr, expected, "output", kBlock);
    } else {
      t.mem_check(p.output.byte_addr, expected, "output");
    }
    // Figures for `cosim replay` (metadata; the testbench ignores them).
    t.config["vta_gemm_uops"] = std::to_string(p.gemm_uops);
    t.config["vta_macs"] = std::to_string(p.macs);
    return t;
  }

  std::unique_ptr<DutWrapper> make_dut(const char* name, const TbConfig& cfg) const override {
    return std::make_unique<VtaRunLogWrapper>(name, cfg);  // VtaWrapper + per-run counters
  }

  // The STORE instruction that writes the element (CompiledProgram's units
  // of work), with its disassembly. Needs the compiled program: unknown on
  // replay.
  std::optional<WorkUnit> work_unit(const Workload* w, const trace::Trace& tr, const std::string& check,
                                        const std::vector<int64_t>& index,
                                        std::optional<uint64_t> address) const override {
    if (w == nullptr && address) return raw_program_work_unit(tr, check, *address);
    if (w != nullptr && model_replay::is_model_workload(*w)) return model_replay::work_unit(*model_, *w, check, index);
    if (w == nullptr || check != "output") return std::nullopt;
    const auto& st = std::any_cast<const VtaState&>(w->state);
    const CompiledProgram& p = st.prog;
    std::vector<int64_t> idx = index;
    if (p.output.kind == OutputLayout::Kind::kFlat) {
      int64_t flat = 0;  // ADD: store_writing takes the flat index
      for (std::size_t d = 0; d < index.size(); ++d) flat = flat * p.output.shape.at(d) + index[d];
      idx = {flat};
    }
    const std::optional<std::size_t> i = p.store_writing(idx);
    if (!i || *i >= p.insns.size()) return std::nullopt;
    WorkUnit u;
    u.fields = {{"instruction", static_cast<int64_t>(*i)}};
    if (*i < p.work.size() && p.work[*i].tile >= 0) u.fields["tile"] = p.work[*i].tile;
    u.text = "instruction " + std::to_string(*i) + ": " + cosim::vta::disassemble(p.insns[*i]);
    if (*i < p.work.size() && !p.work[*i].text.empty()) u.text += "  ; " + p.work[*i].text;
    return u;
  }

  bool disassemble(const trace::Trace& tr, std::ostream& os) const override {
    disassemble_trace(tr, os);
    return true;
  }

  bool disassemble_raw(const std::string& path, std::ostream& os) const override {
    return vta::disassemble_raw(path, os);
  }

  std::optional<trace::Trace> import_directory(const std::string& dir) const override {
    if (!is_raw_program_dir(dir)) return std::nullopt;
    return raw_program_trace(dir, kRawProgramCycleBudget);
  }

  Metrics metrics(const Workload* w, const SimOutcome& run) const override {
    if (w != nullptr && model_replay::is_model_workload(*w)) return model_replay::metrics(*model_, *w, run);
    Metrics m;
    const auto get = [&run](const char* k) -> double {
      const auto it = run.perf.find(k);
      return it == run.perf.end() ? 0.0 : static_cast<double>(it->second);
    };
    const double cycles = get("vta_cycles");
    if (cycles <= 0) return m;
    m.extra["vta_cycles"] = cycles;
    m.extra["gemm_busy_fraction"] = get("gemm_busy") / cycles;
    m.extra["alu_busy_fraction"] = get("alu_busy") / cycles;
    if (w == nullptr) {
      // Replay: the program's figures as the run recorded them in the trace.
      const auto rec = [&run](const char* k) -> std::optional<double> {
        const auto it = run.trace_config.find(k);
        if (it == run.trace_config.end()) return std::nullopt;
        try {
          return std::stod(it->second);
        } catch (const std::exception&) {
          return std::nullopt;
        }
      };
      if (const auto macs = rec("vta_macs")) m.macs = static_cast<uint64_t>(*macs);
      if (const auto runs = rec("vta_runs")) {
        // A model: CONV_2D GEMM uops over the cycles of every run, as totals() counts them.
        double run_cycles = 0;
        for (int r = 0; r < static_cast<int>(*runs); ++r) run_cycles += get(("run" + std::to_string(r) + "_vta_cycles").c_str());
        const auto uops = rec("vta_conv_gemm_uops");
        if (uops && run_cycles > 0) {
          m.extra["gemm_uops"] = *uops;
          m.extra["vta_cycles"] = run_cycles;
          m.utilization = *uops / run_cycles;
          m.extra["useful_mac_fraction"] = static_cast<double>(m.macs) / (256.0 * run_cycles);
        }
      } else if (const auto uops = rec("vta_gemm_uops")) {
        m.extra["gemm_uops"] = *uops;
        const auto op = run.trace_config.find("op");
        if (op != run.trace_config.end() && op->second == "conv2d") {
          m.utilization = *uops / cycles;  // one 16x16 GEMM uop per cycle is the array's peak
          m.extra["useful_mac_fraction"] = static_cast<double>(m.macs) / (256.0 * cycles);
        }
      }
      return m;
    }
    const auto& st = std::any_cast<const VtaState&>(w->state);
    m.macs = st.prog.macs;
    m.extra["gemm_uops"] = static_cast<double>(st.prog.gemm_uops);
    m.extra["instructions"] = st.prog.insn_count;
    // ALU work per output ACC entry (16 lanes): the requantization's cost.
    const double out_entries = static_cast<double>(st.prog.output.bytes / 16);
    m.extra["alu_uops"] = static_cast<double>(st.prog.alu_uops);
    if (out_entries > 0) m.extra["alu_uops_per_output_entry"] = static_cast<double>(st.prog.alu_uops) / out_entries;
    if (st.prog.op == "conv2d") {
      // One 16x16 GEMM uop per cycle is the array's peak.
      m.utilization = static_cast<double>(st.prog.gemm_uops) / cycles;
      m.extra["useful_mac_fraction"] = static_cast<double>(st.prog.macs) / (256.0 * cycles);
      const double bound = st.prog.compute_bound();
      m.extra["compute_bound"] = bound;
      m.extra["utilization_of_bound"] = *m.utilization / bound;
      char line[240];
      std::snprintf(line, sizeof line,
                    "  bound       GEMM utilization %.1f %% of a compute bound of %.1f %% (%.1f %%): %llu GEMM, "
                    "%llu reset, %llu ALU uops (%.1f per output entry), %llu own-load cycles on COMPUTE",
                    100.0 * *m.utilization, 100.0 * bound, 100.0 * *m.utilization / bound,
                    static_cast<unsigned long long>(st.prog.gemm_uops),
                    static_cast<unsigned long long>(st.prog.reset_uops),
                    static_cast<unsigned long long>(st.prog.alu_uops), static_cast<double>(st.prog.alu_uops) / out_entries,
                    static_cast<unsigned long long>(st.prog.compute_load_cycles()));
      m.table.push_back(line);
    } else if (out_entries > 0) {
      char line[160];
      std::snprintf(line, sizeof line, "  alu         %llu ALU uops on COMPUTE (%.1f per output entry)",
                    static_cast<unsigned long long>(st.prog.alu_uops), static_cast<double>(st.prog.alu_uops) / out_entries);
      m.table.push_back(line);
    }
    return m;
  }

 private:
  std::unique_ptr<model_replay::ModelTarget> model_ = make_model_target(compile_schema());

  Workload prepare_conv2d(const scenario::Scenario& sc, std::optional<quant::Rounding> tfl) const {
    const Value& shapes = sc["shapes"];
    const std::vector<int64_t> in_shape = shapes["input"].as_ints();
    // Filter: explicit OHWI, or kernel + out_channels.
    std::vector<int64_t> f_shape;
    if (shapes.has("filter")) {
      f_shape = shapes["filter"].as_ints();
      if (f_shape[3] != in_shape[3]) {
        shapes["filter"].fail("expected the filter's input channels [3] to equal the input's channels " +
                              std::to_string(in_shape[3]) + ", got " + std::to_string(f_shape[3]));
      }
      if (shapes.has("kernel")) {
        const auto k = pair_of(shapes["kernel"]);
        if (k.first != f_shape[1] || k.second != f_shape[2]) shapes["kernel"].fail("expected the filter's kernel size");
      }
      if (shapes.has("out_channels") && shapes["out_channels"].as_int() != f_shape[0]) {
        shapes["out_channels"].fail("expected the filter's output channels " + std::to_string(f_shape[0]));
      }
    } else {
      if (!shapes.has("kernel") || !shapes.has("out_channels")) {
        shapes.fail("expected 'filter: [O, KH, KW, I]', or 'kernel' and 'out_channels'");
      }
      const auto k = pair_of(shapes["kernel"]);
      f_shape = {shapes["out_channels"].as_int(), k.first, k.second, in_shape[3]};
    }
    const Value& params = sc["params"];
    const auto stride = pair_of(params["stride"]);
    ops::ConvParams geom;
    geom.padding = params["padding"].as_string() == "valid" ? ops::Padding::kValid : ops::Padding::kSame;
    geom.stride_h = static_cast<int>(stride.first);
    geom.stride_w = static_cast<int>(stride.second);
    if (geom.padding == ops::Padding::kValid && (f_shape[1] > in_shape[1] || f_shape[2] > in_shape[2])) {
      shapes.fail("expected a kernel (" + std::to_string(f_shape[1]) + "x" + std::to_string(f_shape[2]) +
                  ") no larger than the input (" + std::to_string(in_shape[1]) + "x" + std::to_string(in_shape[2]) +
                  ") with padding valid");
    }
    const quant::Activation act = activation(params["activation"].as_string());

    const Value& q = sc["quant"];
    const QParams qin = qparams(q["input"]), qout = qparams(q["output"]);
    geom.input_zero_point = qin.zero_point;
    geom.output_zero_point = qout.zero_point;
    const std::vector<float> fscales = filter_scales(sc, q["filter_scales"], f_shape[0]);

    const Value& data = sc["data"];
    Workload w;
    Tensor input = scenario::make_tensor(sc, data["input"], DType::kInt8, in_shape, Layout::kNHWC, "input");
    Tensor filter = scenario::make_tensor(sc, data["filter"], DType::kInt8, f_shape, Layout::kAny, "filter");
    Tensor bias;
    const Value& bias_v = data["bias"];
    if (!(bias_v.is_string() && bias_v.as_string() == "none")) {
      bias = scenario::make_tensor(sc, bias_v, DType::kInt32, {f_shape[0]}, Layout::kAny, "bias");
    }

    // TFLite's parameters in one rounding (the references, and the TFLite modes).
    const auto tflite_params = [&](quant::Rounding rounding) {
      ops::ConvParams p = q.rethrow_here([&] {
        return ops::make_conv_params(qin.scale, qin.zero_point, fscales, qout.scale, qout.zero_point, act, rounding);
      });
      p.padding = geom.padding;
      p.stride_h = geom.stride_h;
      p.stride_w = geom.stride_w;
      return p;
    };
    VtaState st;
    Tensor golden;
    if (tfl) {
      // TFLite requantization on the ALU; the 16-bit scheme only as a distance
      // (when its plans exist for these scales).
      const ops::ConvParams p = tflite_params(*tfl);
      const TfliteRequantProgram rq = q.rethrow_here([&] {
        return make_tflite_requant_program(p.output_multiplier, *tfl, qout.zero_point, p.act);
      });
      st.prog = shapes["input"].rethrow_here([&] { return compile_conv2d(input, filter, bias, geom, rq, compile_options(sc)); });
      golden = ops::conv2d(input, filter, bias, p);
      try {
        const std::vector<quant::VtaRequantPlan> plans =
            ops::vta_plan_conv2d(filter, bias, qin.scale, qin.zero_point, fscales, qout.scale, qout.zero_point, act);
        w.references.push_back({"output", "vta16", as_nhwc(ops::vta_conv2d(input, filter, bias, geom, plans))});
      } catch (const InputError&) {
        // no 16-bit program for these scales: nothing to compare with
      }
    } else {
      const std::vector<quant::VtaRequantPlan> plans = q.rethrow_here([&] {
        return ops::vta_plan_conv2d(filter, bias, qin.scale, qin.zero_point, fscales, qout.scale, qout.zero_point, act);
      });
      st.prog = shapes["input"].rethrow_here([&] {
        return compile_conv2d(input, filter, bias, geom, plans, compile_options(sc));
      });
      golden = ops::vta_conv2d(input, filter, bias, geom, plans);
    }
    Tensor expected = as_nhwc(golden);
    for (const auto& [sem, rounding] : {std::pair{"tflite_double", quant::Rounding::kDouble},
                                        std::pair{"tflite_single", quant::Rounding::kSingle}}) {
      w.references.push_back({"output", sem, as_nhwc(ops::conv2d(input, filter, bias, tflite_params(rounding)))});
    }
    std::ostringstream sum;
    sum << "conv2d " << dims(in_shape) << " -> " << dims(expected.shape()) << ", " << f_shape[1] << "x" << f_shape[2]
        << " s" << geom.stride_h << (geom.stride_w != geom.stride_h ? "x" + std::to_string(geom.stride_w) : "")
        << " " << params["padding"].as_string() << "; " << st.prog.insn_count << " instructions, "
        << st.prog.tiling;
    w.summary = sum.str();
    w.macs = st.prog.macs;
    w.expected["output"] = std::move(expected);
    w.inputs["input"] = std::move(input);
    w.inputs["filter"] = std::move(filter);
    if (bias.numel() > 0) w.inputs["bias"] = std::move(bias);
    w.state = std::move(st);
    return w;
  }

  Workload prepare_add(const scenario::Scenario& sc, std::optional<quant::Rounding> tfl) const {
    const Value& shapes = sc["shapes"];
    const std::vector<int64_t> s1 = shapes["input1"].as_ints(), s2 = shapes["input2"].as_ints();
    const std::vector<int64_t> out_shape = shapes["input2"].rethrow_here([&] { return ops::broadcast_shape(s1, s2); });
    const Value& q = sc["quant"];
    const QParams q1 = qparams(q["input1"]), q2 = qparams(q["input2"]), qo = qparams(q["output"]);
    const auto layout = [](const std::vector<int64_t>& s) { return s.size() == 4 ? Layout::kNHWC : Layout::kAny; };
    const Value& data = sc["data"];
    Workload w;
    Tensor a = scenario::make_tensor(sc, data["input1"], DType::kInt8, s1, layout(s1), "input1");
    Tensor b = scenario::make_tensor(sc, data["input2"], DType::kInt8, s2, layout(s2), "input2");
    const auto tflite_params = [&](quant::Rounding rounding) {
      return q.rethrow_here([&] {
        return ops::make_add_params(q1.scale, q1.zero_point, q2.scale, q2.zero_point, qo.scale, qo.zero_point,
                                    quant::Activation::kNone, rounding);
      });
    };
    VtaState st;
    Tensor golden;
    if (tfl) {
      // TFLite's input rescale on the host, the sum and the output
      // requantization on the ALU; the 16-bit scheme as a distance.
      const ops::AddParams p = tflite_params(*tfl);
      st.prog = shapes["input1"].rethrow_here([&] { return compile_add(a, b, p, compile_options(sc)); });
      golden = ops::add(a, b, p);
      try {
        const quant::VtaAddParams vp =
            quant::vta_make_add_params(q1.scale, q1.zero_point, q2.scale, q2.zero_point, qo.scale, qo.zero_point);
        Tensor r(DType::kInt8, out_shape, layout(out_shape));
        r.bytes() = ops::vta_add(a, b, vp).bytes();
        w.references.push_back({"output", "vta16", std::move(r)});
      } catch (const InputError&) {
        // no 16-bit parameters for these scales
      }
    } else {
      const quant::VtaAddParams vp = q.rethrow_here([&] {
        return quant::vta_make_add_params(q1.scale, q1.zero_point, q2.scale, q2.zero_point, qo.scale, qo.zero_point);
      });
      st.prog = shapes["input1"].rethrow_here([&] { return compile_add(a, b, vp, compile_options(sc)); });
      golden = ops::vta_add(a, b, vp);
    }
    Tensor expected(DType::kInt8, out_shape, layout(out_shape));
    expected.bytes() = golden.bytes();
    for (const auto& [sem, rounding] : {std::pair{"tflite_double", quant::Rounding::kDouble},
                                        std::pair{"tflite_single", quant::Rounding::kSingle}}) {
      const ops::AddParams p = tflite_params(rounding);
      const Tensor ref = ops::add(a, b, p);
      Tensor r(DType::kInt8, out_shape, layout(out_shape));
      r.bytes() = ref.bytes();
      w.references.push_back({"output", sem, std::move(r)});
    }
    w.summary = "add " + dims(s1) + " + " + dims(s2) + " -> " + dims(out_shape) + "; " +
                std::to_string(st.prog.insn_count) + " instructions, " + st.prog.tiling;
    w.expected["output"] = std::move(expected);
    w.inputs["input1"] = std::move(a);
    w.inputs["input2"] = std::move(b);
    w.state = std::move(st);
    return w;
  }

  // `random` (seeded, per channel in [0.002, 0.008]), one scale, or one per channel.
  static std::vector<float> filter_scales(const scenario::Scenario& sc, const Value& v, int64_t channels) {
    std::vector<float> s;
    if (v.is_string()) {
      scenario::Rng rng(sc.seed, "filter_scales");
      for (int64_t c = 0; c < channels; ++c) s.push_back(static_cast<float>(rng.uniform(0.002, 0.008)));
    } else if (v.is_list()) {
      for (double d : v.as_floats()) s.push_back(static_cast<float>(d));
      if (s.size() != 1 && static_cast<int64_t>(s.size()) != channels) {
        v.fail("expected 1 or " + std::to_string(channels) + " filter scales (one per output channel), got " +
               std::to_string(s.size()));
      }
    } else {
      s.push_back(static_cast<float>(v.as_float()));
    }
    return s;
  }
};

}  // namespace
}  // namespace cosim::tb::vta

namespace cosim::backends {
std::unique_ptr<tb::TargetBackend> make_vta() { return std::make_unique<tb::vta::VtaBackend>(); }
}  // namespace cosim::backends
