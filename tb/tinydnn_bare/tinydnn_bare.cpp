#include "tinydnn_bare/tinydnn_bare.hpp"

#include <string>

#include "Vtinydnn_top.h"
#include "common/error.hpp"
#include "coverage/rtl_coverage.hpp"
#include "verilated.h"
#include "verilated_fst_c.h"

namespace cosim::tb::tinydnn {

using namespace cosim::tinydnn;

TinyDnnBare::TinyDnnBare(const BareOptions& opt)
    : opt_(opt),
      ctx_(std::make_unique<VerilatedContext>()),
      source_(opt.seed * 2 + 1, opt.source_stall),
      sink_(opt.seed * 2 + 2, opt.sink_stall),
      in_check_(std::make_unique<axis::Checker>("tinydnn.s_axis")),
      out_check_(std::make_unique<axis::Checker>("tinydnn.m_axis")) {
  if (opt_.memory) {
    mm2s_ = std::make_unique<axis::Mm2sDma>(*opt_.memory, opt.seed * 2 + 1, opt.source_stall);
    s2mm_ = std::make_unique<axis::S2mmDma>(*opt_.memory, opt.seed * 2 + 2, opt.sink_stall);
  }
  if (!opt_.fst_path.empty()) ctx_->traceEverOn(true);
  top_ = std::make_unique<Vtinydnn_top>(ctx_.get());
  if (!opt_.fst_path.empty()) {
    fst_ = std::make_unique<VerilatedFstC>();
    top_->trace(fst_.get(), 99);
    fst_->open(opt_.fst_path.c_str());
  }
  top_->clk_i = 0;
  top_->rst_ni = 0;
  top_->eval();
  for (int i = 0; i < 2; ++i) tick();
  top_->rst_ni = 1;
  tick();
}

TinyDnnBare::~TinyDnnBare() {
  if (fst_) fst_->close();
  top_->final();
  cosim::tb::write_rtl_coverage(*ctx_, "tinydnn");
}

void TinyDnnBare::tick() {
  if (opt_.memory) {
    if (!mm2s_->busy() && next_in_ < in_jobs_.size()) {
      mm2s_->start(in_jobs_[next_in_].first, in_jobs_[next_in_].second);
      ++next_in_;
    }
    if (!s2mm_->busy() && next_out_ < out_jobs_.size()) {
      s2mm_->start(out_jobs_[next_out_].first, out_jobs_[next_out_].second);
      ++next_out_;
    }
    mm2s_->drive(in_);
    s2mm_->drive(out_);
  } else {
    source_.drive(in_);
    sink_.drive(out_);
  }
  top_->s_axis_tvalid_i = in_.tvalid;
  top_->s_axis_tdata_i = in_.tdata;
  top_->s_axis_tlast_i = in_.tlast;
  top_->m_axis_tready_i = out_.tready;
  top_->reg_valid_i = req_valid_;
  top_->reg_write_i = req_write_;
  top_->reg_addr_i = req_addr_ & 0xF;
  top_->reg_wdata_i = req_wdata_;
  top_->clk_i = 0;
  top_->eval();
  if (fst_) fst_->dump(2 * cycle_);
  in_.tready = top_->s_axis_tready_o;
  out_.tvalid = top_->m_axis_tvalid_o;
  out_.tdata = top_->m_axis_tdata_o;
  out_.tlast = top_->m_axis_tlast_o;
  in_check_->observe(cycle_, in_);
  out_check_->observe(cycle_, out_);
  top_->clk_i = 1;
  top_->eval();
  if (fst_) fst_->dump(2 * cycle_ + 1);
  if (opt_.memory) {
    mm2s_->update(in_);
    s2mm_->update(out_);
  } else {
    source_.update(in_);
    sink_.update(out_);
  }
  req_valid_ = false;
  ++cycle_;
}

void TinyDnnBare::write_reg(uint32_t addr, uint32_t value) {
  req_valid_ = true;
  req_write_ = true;
  req_addr_ = addr;
  req_wdata_ = value;
  tick();  // the port is always ready: accepted in this cycle
}

uint32_t TinyDnnBare::read_reg(uint32_t addr) {
  req_valid_ = true;
  req_write_ = false;
  req_addr_ = addr;
  tick();
  if (!top_->reg_rvalid_o) throw TimeoutError("tinydnn: register read of " + std::to_string(addr) + " got no rvalid");
  return top_->reg_rdata_o;
}

std::vector<axis::Beat> TinyDnnBare::command(const HwLayer& l, int samples, uint32_t mode,
                                             const std::vector<std::vector<uint64_t>>& packets,
                                             const std::vector<uint64_t>& out_packet_beats) {
  l.validate();
  for (const auto& [addr, value] : config_writes(l, samples)) write_reg(addr, value);
  write_reg(kRegMode, mode);
  // Both streams are idle between commands, so fresh checkers lose nothing.
  in_check_ = std::make_unique<axis::Checker>("tinydnn.s_axis");
  out_check_ = std::make_unique<axis::Checker>("tinydnn.m_axis");
  in_jobs_.clear();
  out_jobs_.clear();
  next_in_ = next_out_ = 0;
  uint64_t in_addr = opt_.dma_in_base, out_addr = opt_.dma_out_base;
  for (const auto& p : packets) {
    if (opt_.memory) {
      std::vector<uint8_t> bytes(p.size() * 8);
      for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = uint8_t(p[i / 8] >> (8 * (i % 8)));
      opt_.memory->write(in_addr, bytes.data(), bytes.size(), nullptr);
      in_jobs_.emplace_back(in_addr, bytes.size());
      in_addr += bytes.size();
    } else {
      source_.push_packet(p);
    }
    for (std::size_t i = 0; i < p.size(); ++i) in_check_->expect_beat(axis::Beat{p[i], i + 1 == p.size()});
  }
  for (uint64_t n : out_packet_beats) {
    out_jobs_.emplace_back(out_addr, n * 8);
    out_addr += n * 8;
  }
  for (uint64_t n : out_packet_beats) out_check_->expect_packet(n);
  // Nothing may move on the result stream beyond the expected packets.
  out_check_->expect_no_packets();
  sink_.take();
  write_reg(kRegCtrl, 1);
  const uint64_t start = cycle_;
  // The done pin is the sticky done bit of CTRL.
  while (!top_->done_o || top_->busy_o) {
    if (cycle_ - start > opt_.cycle_budget)
      throw TimeoutError("tinydnn: command mode 0x" + std::to_string(mode) + " not done after " +
                         std::to_string(opt_.cycle_budget) + " cycles (" + std::to_string(source_.pending()) +
                         " input beats left, " + std::to_string(sink_.beats().size()) + " result beats taken)");
    tick();
  }
  in_check_->finish(cycle_);
  out_check_->finish(cycle_);
  if (!source_.idle() || (opt_.memory && (next_in_ < in_jobs_.size() || mm2s_->busy())))
    throw InputError("tinydnn: input left over after the command");
  std::vector<axis::Beat> result;
  if (opt_.memory) {
    // The results as the host finds them in memory.
    for (const auto& [addr, bytes] : out_jobs_) {
      std::vector<uint8_t> buf(bytes);
      opt_.memory->read(addr, buf.data(), buf.size());
      for (uint64_t b = 0; b < bytes / 8; ++b) {
        uint64_t v = 0;
        for (int i = 7; i >= 0; --i) v = (v << 8) | buf[b * 8 + i];
        result.push_back(axis::Beat{v, b + 1 == bytes / 8});
      }
    }
  } else {
    result = sink_.take();
  }
  const uint32_t ctrl = read_reg(kRegCtrl);
  if ((ctrl & 3u) != 2u) throw InputError("tinydnn: CTRL reads " + std::to_string(ctrl) + " after done, expected 2");
  last_cycles_ = read_reg(kRegCycles);
  last_macs_ = read_reg(kRegMacs);
  return result;
}

void TinyDnnBare::load_weights(const HwLayer& l, const std::vector<uint16_t>& elems) {
  if (elems.size() != std::size_t(l.od) * l.weights_per_core())
    throw InputError("tinydnn: weight packet has " + std::to_string(elems.size()) + " elements, expected " +
                     std::to_string(l.od * l.weights_per_core()));
  command(l, 1, kModeWriteWeights | mode_bits(l, false), {pack_bf16_beats(elems)}, {});
}

void TinyDnnBare::load_bias(const HwLayer& l, const std::vector<uint16_t>& elems) {
  if (elems.size() != std::size_t(l.od))
    throw InputError("tinydnn: bias packet has " + std::to_string(elems.size()) + " elements, expected " +
                     std::to_string(l.od));
  command(l, 1, kModeWriteBias | mode_bits(l, false), {pack_bf16_beats(elems)}, {});
}

std::vector<std::vector<uint32_t>> TinyDnnBare::run(const HwLayer& l,
                                                    const std::vector<std::vector<uint16_t>>& samples,
                                                    bool last_sample) {
  if (samples.empty()) throw InputError("tinydnn: run needs at least one sample");
  std::vector<std::vector<uint64_t>> packets;
  for (const auto& s : samples) {
    if (s.size() != std::size_t(l.sample_elems()))
      throw InputError("tinydnn: sample has " + std::to_string(s.size()) + " elements, expected " +
                       std::to_string(l.sample_elems()));
    packets.push_back(pack_bf16_beats(s));
  }
  const uint64_t out_beats = (uint64_t(l.out_elems()) + 1) / 2;
  const std::size_t n_out = l.op == Op::kWeightGrad ? (last_sample ? 1 : 0) : samples.size();
  const auto beats = command(l, int(samples.size()), kModeRun | mode_bits(l, last_sample), packets,
                             std::vector<uint64_t>(n_out, out_beats));
  std::vector<std::vector<uint32_t>> out;
  for (std::size_t k = 0; k < n_out; ++k) {
    std::vector<uint64_t> data;
    for (uint64_t i = 0; i < out_beats; ++i) data.push_back(beats.at(k * out_beats + i).data);
    out.push_back(unpack_fp32_beats(data, std::size_t(l.out_elems())));
  }
  return out;
}

}  // namespace cosim::tb::tinydnn
