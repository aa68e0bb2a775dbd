#include "tinydnn/core/tinydnn_bare.hpp"

#include <string>

#include "common/error.hpp"
#include "tlm/tb_config.hpp"

namespace cosim::tb::tinydnn {

using namespace cosim::tinydnn;

namespace {
// The 64-bit beat whose little-endian bytes start at b.
uint64_t beat_at(const uint8_t* b) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | b[i];
  return v;
}

TbConfig wave_config(const BareOptions& o) {
  TbConfig c;
  c.wave_file = o.fst_path;
  return c;
}
}  // namespace

TinyDnnBare::TinyDnnBare(const BareOptions& opt) : opt_(opt) {
  const TbConfig wave = wave_config(opt_);
  core_ = std::make_unique<TinyDnnCore>(*opt_.build, opt_.memory ? *opt_.memory : fallback_, opt_.seed, axis::DelaySource{},
                                        opt_.fst_path.empty() ? nullptr : &wave);
  core_->streams().set_stalls(opt_.source_stall, opt_.sink_stall);
  core_->start_timeline();
}

TinyDnnBare::~TinyDnnBare() = default;

void TinyDnnBare::write_reg(uint32_t word, uint32_t value) { core_->reg_write(4 * word, value); }

uint32_t TinyDnnBare::read_reg(uint32_t word) { return core_->reg_read(4 * word); }

std::vector<axis::Beat> TinyDnnBare::command(const HwLayer& l, int samples, uint32_t mode,
                                             const std::vector<std::vector<uint64_t>>& packets,
                                             const std::vector<uint64_t>& out_packet_beats) {
  l.validate();
  for (const auto& [addr, value] : config_writes(l, samples)) write_reg(addr, value);
  write_reg(kRegMode, mode);
  Streams& st = core_->streams();
  uint64_t in_addr = opt_.dma_in_base, out_addr = opt_.dma_out_base;
  std::vector<std::pair<uint64_t, uint64_t>> out_buffers;  // (address, bytes)
  for (const auto& p : packets) {
    std::vector<uint8_t> bytes(p.size() * 8);
    for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = uint8_t(p[i / 8] >> (8 * (i % 8)));
    if (opt_.memory) {
      opt_.memory->write(in_addr, bytes.data(), bytes.size(), nullptr);
      st.queue_in(in_addr, bytes.size());
      in_addr += bytes.size();
    } else {
      st.queue_in_bytes(std::move(bytes));
    }
  }
  for (uint64_t n : out_packet_beats) {
    if (opt_.memory) {
      st.queue_out(out_addr, n * 8);
      out_buffers.emplace_back(out_addr, n * 8);
      out_addr += n * 8;
    } else {
      st.expect_captured_packet(n);
    }
  }
  // Nothing may move on the result stream beyond the expected packets.
  st.expect_no_packets();
  write_reg(kRegCtrl, 1);
  if (!core_->run(opt_.cycle_budget)) {
    throw TimeoutError("tinydnn: command mode " + std::to_string(mode) + " not done after " +
                       std::to_string(opt_.cycle_budget) + " cycles: " + core_->diagnosis());
  }
  st.check_after_done(cycle());
  if (!st.errors().empty()) {
    std::string all;
    for (const std::string& e : st.errors()) all += (all.empty() ? "" : "; ") + e;
    throw axis::ProtocolError("tinydnn: " + all);
  }
  std::vector<axis::Beat> result;
  if (opt_.memory) {
    // The results as the host finds them in memory.
    for (const auto& [addr, bytes] : out_buffers) {
      std::vector<uint8_t> buf(bytes);
      opt_.memory->read(addr, buf.data(), buf.size());
      for (uint64_t b = 0; b < bytes / 8; ++b) result.push_back(axis::Beat{beat_at(&buf[b * 8]), b + 1 == bytes / 8});
    }
  } else {
    const std::vector<uint8_t> bytes = st.take_captured(st.captured());
    for (std::size_t b = 0; b < bytes.size() / 8; ++b) result.push_back(axis::Beat{beat_at(&bytes[b * 8]), false});
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
