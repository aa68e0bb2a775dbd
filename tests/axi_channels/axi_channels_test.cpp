// AXI4 masters with one side only (the manifest's `channels: read` and
// `channels: write`): the generated binding leaves the other side's pins
// out, and harness::AxiMasterBinder drives and samples the side the master
// has. axi_channels_top.sv reads 16 beats over its read-only master and
// writes their complements over its write-only one (support/copy_image.hpp:
// the image and what it must hold after).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "harness/core.hpp"
// core.hpp first: it brings in Verilator's headers.
#include "Vaxi_channels_top.h"
#include "axi/axi4_slave.hpp"
#include "axi/memory_port.hpp"
#include "dut/axi_channels_pins.hpp"
#include "harness/axi_masters.hpp"
#include "harness/module_binding.hpp"
#include "support/copy_image.hpp"

namespace cosim::tb::harness {
namespace {

using Model = Vaxi_channels_top;
using Pins = cosim::axi_channels::pins::Top;
namespace pins = cosim::axi_channels::pins;

static_assert(AxiMasterBinder<Model, pins::Rd>::kReads && !AxiMasterBinder<Model, pins::Rd>::kWrites);
static_assert(!AxiMasterBinder<Model, pins::Wr>::kReads && AxiMasterBinder<Model, pins::Wr>::kWrites);
static_assert(AxiMasterBinder<Model, pins::Wr>::kDataBytes == 8, "a write-only master's width from WDATA");

void copy_through_both(double stall, uint64_t seed) {
  test::CopyImage copy(seed);
  VectorMemory mem(copy.image);
  const Axi4SlaveConfig cfg = test::CopyImage::slave_config(stall, seed);
  Axi4SlaveModel rd_slave(mem, cfg), wr_slave(mem, cfg);
  AxiSlaveRef<Axi4SlaveModel> rd(rd_slave), wr(wr_slave);
  Core<Model, NeverDone, Pins> core("axi_channels");
  AxiMasterBinders<Model, Pins::AxiMasters> masters({&rd, &wr});
  masters.add_to(core);
  while (!core.model().done_o && core.cycles() < 5000) core.cycle();
  ASSERT_TRUE(core.model().done_o) << "the masters did not finish";
  for (const Axi4SlaveModel* s : {&rd_slave, &wr_slave}) {
    EXPECT_TRUE(s->protocol_errors().empty()) << s->protocol_errors().front();
    EXPECT_TRUE(s->access_errors().empty());
  }
  EXPECT_EQ(rd_slave.read_beats(), 16u);
  EXPECT_EQ(rd_slave.write_beats(), 0u);
  EXPECT_EQ(wr_slave.read_beats(), 0u);
  EXPECT_EQ(wr_slave.write_beats(), 16u);
  copy.expect_copied();
}

TEST(AxiChannels, AReadOnlyAndAWriteOnlyMasterCopyBitExact) { copy_through_both(0.0, 3); }

TEST(AxiChannels, UnderStalls) {
  for (uint64_t seed : {1, 2}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    copy_through_both(0.3, seed);
  }
}

}  // namespace
}  // namespace cosim::tb::harness
