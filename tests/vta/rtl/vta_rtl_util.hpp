// Test-local VTA program builder on the bare driver, with the instruction
// encoder written from shared/spec/vta-isa.md (tests/support/vta_isa.hpp,
// independent of cpp_model/vta).
#pragma once

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "support/vta_isa.hpp"
#include "vta/core/bare_driver.hpp"

namespace vta_rtl_test {

// The instruction encoder (tests/support/vta_isa.hpp); a test brings in its
// names itself.
namespace isa = cosim::test::vta_isa;

// Flat DRAM image with fixed regions (byte addresses), element-aligned.
struct Layout {
  static constexpr uint64_t kInsn = 0x0;
  static constexpr uint64_t kUop = 0x10000;   // UOP elements: 4 B
  static constexpr uint64_t kInp = 0x20000;   // 16 B
  static constexpr uint64_t kWgt = 0x40000;   // 256 B
  static constexpr uint64_t kAcc = 0x80000;   // 64 B
  static constexpr uint64_t kOut = 0xc0000;   // 16 B
  static constexpr uint64_t kSize = 0x100000;
};

struct Program {
  std::vector<uint8_t> dram = std::vector<uint8_t>(Layout::kSize, 0);
  std::vector<isa::Insn> insns;

  void add(const isa::Insn& i) { insns.push_back(i); }
  uint32_t uop_base() const { return Layout::kUop / 4; }
  uint32_t inp_base() const { return Layout::kInp / 16; }
  uint32_t wgt_base() const { return Layout::kWgt / 256; }
  uint32_t acc_base() const { return Layout::kAcc / 64; }
  uint32_t out_base() const { return Layout::kOut / 16; }

  void put_u32(uint64_t addr, uint32_t v) { std::memcpy(&dram[addr], &v, 4); }
  uint32_t get_u32(uint64_t addr) const {
    uint32_t v;
    std::memcpy(&v, &dram[addr], 4);
    return v;
  }

  cosim::tb::vta::RtlRunResult run(cosim::tb::vta::BareOptions opts = {}, uint64_t max_cycles = 200000,
                               std::vector<std::string>* protocol_errors = nullptr) {
    for (std::size_t i = 0; i < insns.size(); ++i) insns[i].store(&dram[Layout::kInsn + 16 * i]);
    cosim::tb::vta::BareDriver drv(dram, opts);
    auto r = drv.run(Layout::kInsn, static_cast<uint32_t>(insns.size()), max_cycles);
    if (protocol_errors) *protocol_errors = drv.axi_protocol_errors();
    return r;
  }
};

// Emits STOREs of acc[sram, sram+n) that, together, reveal every bit of the
// int32 lanes: plane k holds bits 8k+7..8k (ALU SHR by 8 between stores; the
// uop at uop_idx must be {sram, sram, 0}). Planes go to OUT elements
// out_elem + k * n. Expects the compute->store token for the first STORE to
// be pushed by the caller's last compute instruction; leaves a
// store->compute token for FINISH.
inline void store_planes(Program& p, uint32_t sram, uint32_t n, uint32_t out_elem, uint32_t uop_idx) {
  for (uint32_t k = 0; k < 4; ++k) {
    isa::Deps sd;
    sd.pop_prev = true;
    sd.push_prev = true;
    p.add(isa::mem_insn(isa::kStore, isa::kOut, sram, out_elem + k * n, 1, n, n, sd));
    if (k == 3) break;
    isa::Loop l;
    l.uop_bgn = uop_idx;
    l.uop_end = uop_idx + 1;
    l.iter_out = n;
    l.dst_out = 1;
    l.src_out = 1;
    isa::Insn a = isa::alu_insn(l, isa::kShr, true, 8, isa::Deps{});
    // Wait for the STORE before shifting, then hand over to the next STORE.
    a.set(4, 1, 1);  // pop_next (store->compute)
    a.set(6, 1, 1);  // push_next (compute->store)
    p.add(a);
  }
}

// Reads back the planes written by store_planes: element e, lane o.
inline int32_t plane_value(const Program& p, uint32_t n, uint32_t out_elem, uint32_t e, uint32_t o) {
  uint32_t v = 0;
  for (uint32_t k = 0; k < 4; ++k) {
    const uint64_t addr = (static_cast<uint64_t>(out_elem) + k * n + e) * 16 + o;
    v |= static_cast<uint32_t>(p.dram[addr]) << (8 * k);
  }
  return static_cast<int32_t>(v);
}

}  // namespace vta_rtl_test
