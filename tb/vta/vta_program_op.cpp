#include "vta/vta_program_op.hpp"

#include <algorithm>
#include <stdexcept>

#include "dut/vta_regs.hpp"
#include "vta/disasm.hpp"
#include "vta/vta_model_op.hpp"

namespace cosim::tb::vta {

using cosim::vta::CompiledProgram;
using cosim::vta::OutputLayout;
namespace regs = cosim::vta::regs;

namespace {

constexpr int kBlock = 16;  // channels per INP / OUT element

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

}  // namespace

QParams qparams(const scenario::Value& v) {
  return {static_cast<float>(v["scale"].as_float()), static_cast<int32_t>(v["zero_point"].as_int())};
}

Tensor as_nhwc(const Tensor& t) {
  Tensor r(DType::kInt8, t.shape(), Layout::kNHWC);
  r.bytes() = t.bytes();
  return r;
}

double perf_counter(const SimOutcome& run, const std::string& key) {
  const auto it = run.perf.find(key);
  return it == run.perf.end() ? 0.0 : static_cast<double>(it->second);
}

double busy_figures(const SimOutcome& run, Metrics& m) {
  const double cycles = perf_counter(run, "vta_cycles");
  if (cycles <= 0) return 0;
  m.extra["vta_cycles"] = cycles;
  m.extra["gemm_busy_fraction"] = perf_counter(run, "gemm_busy") / cycles;
  m.extra["alu_busy_fraction"] = perf_counter(run, "alu_busy") / cycles;
  return cycles;
}

CompiledProgram VtaProgramOp::prepare(const scenario::Scenario& sc, Workload& w) const {
  // TFLite requantization on the ALU, or the 16-bit scheme (nullopt).
  CompiledProgram p = lower(sc, tflite_rounding(sc), w);
  apply_fault(p, sc["fault"].as_string());
  return p;
}

trace::Trace VtaProgramOp::compile(const scenario::Scenario& sc, const Workload& w, const CompiledProgram& p) const {
  trace::Trace t;
  t.target = "vta";
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

Metrics VtaProgramOp::metrics(const Workload& w, const CompiledProgram& p, const SimOutcome& run) const {
  (void)w;
  Metrics m;
  const double cycles = busy_figures(run, m);
  if (cycles <= 0) return m;
  m.macs = p.macs;
  m.extra["gemm_uops"] = static_cast<double>(p.gemm_uops);
  m.extra["instructions"] = p.insn_count;
  // ALU work per output ACC entry (16 lanes): the requantization's cost.
  const double out_entries = static_cast<double>(p.output.bytes / 16);
  m.extra["alu_uops"] = static_cast<double>(p.alu_uops);
  if (out_entries > 0) m.extra["alu_uops_per_output_entry"] = static_cast<double>(p.alu_uops) / out_entries;
  figures(p, cycles, m);
  return m;
}

std::optional<WorkUnit> VtaProgramOp::work_unit(const Workload& w, const CompiledProgram& p, const trace::Trace& tr,
                                                const std::string& check, const std::vector<int64_t>& index,
                                                std::optional<uint64_t> address) const {
  (void)w, (void)tr, (void)address;
  if (check != "output") return std::nullopt;
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

}  // namespace cosim::tb::vta
