// A result packet with an odd element count ends in a half-used beat, whose
// upper 32 bits are zero (cpp_model/tinydnn/program.hpp: a packet is the flat
// element sequence zero-padded to whole beats). The destination buffer still
// holds the previous, larger layer's outputs there, so a transmitter that
// sends the buffer word as it is leaks a stale float into the padding. Seen
// from memory, as the host sees it (S2MM DMA).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "common/error.hpp"
#include "tinydnn/bf16.hpp"
#include "tinydnn/conv.hpp"
#include "tinydnn/program.hpp"
#include "tinydnn/core/tinydnn_bare.hpp"

namespace cosim::tinydnn {
namespace {

class Memory : public cosim::tb::MemoryPort {
 public:
  explicit Memory(std::size_t n) : bytes(n, 0) {}
  void read(uint64_t addr, uint8_t* dst, std::size_t len) override {
    if (addr + len > bytes.size()) throw InputError("memory: read past end");
    std::memcpy(dst, bytes.data() + addr, len);
  }
  void write(uint64_t addr, const uint8_t* src, std::size_t len, const uint8_t* strobe) override {
    if (addr + len > bytes.size()) throw InputError("memory: write past end");
    for (std::size_t i = 0; i < len; ++i)
      if (!strobe || strobe[i]) bytes[addr + i] = src[i];
  }
  uint32_t word(uint64_t addr) const {
    uint32_t v;
    std::memcpy(&v, bytes.data() + addr, 4);
    return v;
  }
  std::vector<uint8_t> bytes;
};

// 1x1 kernel, one channel in and out: out elements = in_w, each x * w.
std::vector<std::vector<uint16_t>> run_row(cosim::tb::tinydnn::TinyDnnBare& hw, int width, int samples) {
  const ConvShape s{1, 1, width, 1, 1, 1};
  const HwLayer l = map_layer(Op::kForward, s, false);
  hw.load_weights(l, weight_elements(l, s, {bf16::from_float(2.0f)}));
  std::vector<std::vector<uint16_t>> in;
  for (int k = 0; k < samples; ++k)
    in.push_back(sample_elements(l, std::vector<bf16>(std::size_t(width), bf16::from_float(1.5f + k))));
  hw.run(l, in, false);
  return in;
}

TEST(TinyDnnRtlPad, OddResultPacketEndsInZeroPadding) {
  Memory mem(1 << 21);  // results land at dma_out_base (1 MiB)
  cosim::tb::tinydnn::BareOptions o;
  o.memory = &mem;
  cosim::tb::tinydnn::TinyDnnBare hw(o);
  const uint64_t out = o.dma_out_base;
  // Two samples of 4 outputs fill elements 0..3 of both destination banks.
  run_row(hw, 4, 2);
  // 3.0 and 5.0 (x * 2.0) as float32: the stale values now in element 3.
  ASSERT_EQ(mem.word(out + 12), 0x40400000u);
  ASSERT_EQ(mem.word(out + 16 + 12), 0x40a00000u);
  // Two samples of 3 outputs: 2 beats per packet, the last one half used.
  run_row(hw, 3, 2);
  for (int k = 0; k < 2; ++k) {
    const uint64_t p = out + 16 * uint64_t(k);
    const uint32_t want = k == 0 ? 0x40400000u : 0x40a00000u;
    for (int e = 0; e < 3; ++e) EXPECT_EQ(mem.word(p + 4 * e), want) << "sample " << k << " element " << e;
    EXPECT_EQ(mem.word(p + 12), 0u) << "sample " << k << ": padding of the odd last beat";
  }
}

}  // namespace
}  // namespace cosim::tinydnn
