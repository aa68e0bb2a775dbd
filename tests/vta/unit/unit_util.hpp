// Shared helpers of the per-module VTA unit tests: the 128-bit instruction
// encoder written from shared/spec/vta-isa.md (tests/support/vta_isa.hpp,
// independent of cpp_model/vta and of the RTL package), and accessors for
// Verilator's wide (VlWide) ports.
#pragma once

#include <cstdint>
#include <cstring>

#include "support/vta_isa.hpp"

namespace vta_unit {

// The encoded instruction the benches queue (tests/support/vta_isa.hpp); a
// test brings in the rest of the encoder itself.
using cosim::test::vta_isa::Insn;

// Wide ports: Verilator stores bit 32*i+j of a wide signal in word i, bit j.
template <class W>
void put_bytes(W& port, unsigned byte_offset, const void* src, unsigned n) {
  const auto* s = static_cast<const uint8_t*>(src);
  for (unsigned i = 0; i < n; ++i) {
    const unsigned b = byte_offset + i;
    uint32_t& word = port[b / 4];
    word = (word & ~(0xffu << (8 * (b % 4)))) | (static_cast<uint32_t>(s[i]) << (8 * (b % 4)));
  }
}

template <class W>
void get_bytes(const W& port, unsigned byte_offset, void* dst, unsigned n) {
  auto* d = static_cast<uint8_t*>(dst);
  for (unsigned i = 0; i < n; ++i) {
    const unsigned b = byte_offset + i;
    d[i] = static_cast<uint8_t>(port[b / 4] >> (8 * (b % 4)));
  }
}

template <class W>
void put_insn(W& port, const Insn& in) {
  for (int i = 0; i < 4; ++i) port[i] = in.w[i];
}

}  // namespace vta_unit
