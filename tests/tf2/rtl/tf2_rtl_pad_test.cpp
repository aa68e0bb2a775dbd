// The writer zeroes the padding channels of the last 16-channel group
// (channels c_out .. the next multiple of 16 of each HC16W pixel word),
// whatever the output buffer held before the layer: a stale buffer must not
// leak into the map the next layer reads. Built for the default RTL (16 PEs:
// each group owns its whole pixel word) and the small variant (4 PEs: the
// last group's strobe must also cover the lanes of the groups that do not
// exist), so it kills the mutant tf2_writer_pad_strobe of
// rtl/tf2/mutants.yaml (padding bytes left unwritten), which a
// zero-initialised DRAM image cannot tell apart.
#include <gtest/gtest.h>

#include <algorithm>

#include "tf2/tf2_rtl_util.hpp"

#ifndef TF2_PAD_SUITE
#define TF2_PAD_SUITE Tf2RtlPad
#endif

namespace cosim::tf2 {
namespace {

TEST(TF2_PAD_SUITE, PaddingChannelsAreWrittenAsZeroOverAStaleBuffer) {
  const DeviceConfig dev = dut_config();
  for (const int c_out : {20, 5, 31}) {
    const ConvLayer L = random_layer({16, c_out, 6, 6, 3, 1, 1, true, false}, 40 + c_out);
    const std::vector<int8_t> in = random_input(16, 6, 6, 40 + c_out);
    Program p = compile({L}, in, dev);
    const std::vector<std::vector<uint8_t>> expect = expected_outputs({L}, in);
    const LayerRegions& reg = p.layers[0];
    ASSERT_EQ(expect[0].size(), reg.out_bytes);
    // A stale output buffer: every byte 0xA5 before the run.
    std::fill(p.dram.begin() + static_cast<std::ptrdiff_t>(reg.out_addr),
              p.dram.begin() + static_cast<std::ptrdiff_t>(reg.out_addr + reg.out_bytes), uint8_t{0xA5});
    tb::tf2::Tf2BareConfig cfg = test_bare_config();
    cfg.axi.data_bytes = 16;
    cfg.max_cycles = 5'000'000;
    tb::tf2::Tf2Bare dut(p.dram, cfg);
    const tb::tf2::Tf2RunResult res = dut.run(p);
    ASSERT_TRUE(res.done) << "c_out " << c_out;
    ASSERT_FALSE(res.error) << "c_out " << c_out << std::hex << ": 0x" << res.err_info;
    std::size_t pad_bytes = 0, wrong = 0;
    for (std::size_t i = 0; i < reg.out_bytes; ++i) {
      // HC16W: pixel word i / 16 is [y][group][x].
      const int channel = static_cast<int>((i / 16) / L.w_out() % ((c_out + 15) / 16)) * 16 + static_cast<int>(i % 16);
      if (channel >= c_out) {
        ++pad_bytes;
        EXPECT_EQ(expect[0][i], 0) << "the golden model's padding, byte " << i;
      }
      if (p.dram[reg.out_addr + i] != expect[0][i] && wrong++ < 5) {
        ADD_FAILURE() << "c_out " << c_out << ", byte " << i << " (channel " << channel << "): dut 0x" << std::hex
                      << int(p.dram[reg.out_addr + i]) << ", expected 0x" << int(expect[0][i]);
      }
    }
    EXPECT_GT(pad_bytes, 0u) << "c_out " << c_out << " leaves no padding channel";
    EXPECT_EQ(wrong, 0u) << "c_out " << c_out;
  }
}

}  // namespace
}  // namespace cosim::tf2
