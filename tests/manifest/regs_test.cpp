// The generated C++ register headers (rtl/<dut>/<dut>.yaml -> dut/<dut>_regs.hpp)
// against the specification, not against the generator: the values below are
// typed from shared/spec/vta-isa.md ("Host interface"), shared/spec/tinydnn.md
// (control registers: mode bits in the order write weights, write bias, run,
// enable bias, backward, dW, last sample) and the RTL documentation the
// testbench was written against. check_rtl.py checks the same manifests
// against the RTL through Verilator.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "dut/testdut_regs.hpp"
#include "dut/tf2_regs.hpp"
#include "dut/tinydnn_regs.hpp"
#include "dut/vta_regs.hpp"

namespace {

TEST(ManifestRegs, VtaHostInterfaceFromTheSpec) {
  namespace r = cosim::vta::regs;
  EXPECT_EQ(r::kCtrl, 0x00u);       // control
  EXPECT_EQ(r::kCycles, 0x04u);     // cycles since start
  EXPECT_EQ(r::kInsnCount, 0x08u);  // instruction count
  EXPECT_EQ(r::kInsnAddr, 0x0cu);   // instruction stream DRAM byte address
  EXPECT_EQ(r::ctrl::kStartLsb, 0u);  // bit 0 start (write 1)
  EXPECT_EQ(r::ctrl::kDoneLsb, 1u);   // bit 1 done (write 1 to clear)
  EXPECT_EQ(r::ctrl::kDoneMask, 0x2u);
  EXPECT_EQ(r::kPerfBase, 0x20u);   // performance counters start at 0x20
  EXPECT_EQ(r::kNumPerf, 12);
  EXPECT_EQ(r::port_addr(r::kInsnAddr), 0x0cu);  // byte-addressed port
  EXPECT_STREQ(r::kDut, "vta");
}

TEST(ManifestRegs, VtaStatusVectorDecodes) {
  namespace r = cosim::vta::regs;
  // COMPUTE waits (EngWait) with GEMM (opcode 2), 3 load->compute tokens,
  // 5 instructions not yet fetched.
  uint32_t w[r::status_t::kWords] = {0, 0, 0, 0};
  w[0] |= 1u << 2;          // compute_state [3:2] = 1
  w[1] |= 2u << (50 - 32);  // compute_op [52:50] = GEMM
  w[1] |= 3u << (56 - 32);  // tok_l2c [63:56]
  w[3] |= 5u << (112 - 96);  // fetch_remaining [127:112]
  const r::Status s = r::decode_status(w);
  EXPECT_EQ(s.compute_state, r::eng_state_e::kEngWait);
  EXPECT_EQ(s.compute_op, r::opcode_e::kOpGemm);
  EXPECT_EQ(s.tok_l2c, 3u);
  EXPECT_EQ(s.fetch_remaining, 5u);
  EXPECT_EQ(s.load_state, r::eng_state_e::kEngIdle);
  const std::string d = r::describe_status(w);
  EXPECT_NE(d.find("compute_state=EngWait"), std::string::npos) << d;
  EXPECT_NE(d.find("compute_op=OpGemm"), std::string::npos) << d;
  EXPECT_NE(d.find("fetch_remaining=5"), std::string::npos) << d;
  EXPECT_STREQ(r::opcode_e::label(4), "ALU");
  EXPECT_STREQ(r::err_e::name(9), "ErrAxiResp");
  EXPECT_EQ(r::err_e::name(15), nullptr);
}

TEST(ManifestRegs, Tf2RegisterMap) {
  namespace r = cosim::tf2::regs;
  EXPECT_EQ(r::kCtrl, 0x00u);
  EXPECT_EQ(r::kDescCount, 0x08u);
  EXPECT_EQ(r::kDescAddr, 0x0cu);
  EXPECT_EQ(r::kErrInfo, 0x10u);
  EXPECT_EQ(r::kConfig, 0x14u);
  EXPECT_EQ(r::kFiltDepth, 0x28u);
  EXPECT_EQ(r::ctrl::kStartMask | r::ctrl::kDoneMask | r::ctrl::kErrorMask | r::ctrl::kBusyMask, 0xfu);
  EXPECT_EQ(r::config::kNpeLsb, 0u);
  EXPECT_EQ(r::config::kOcol2dLsb, 24u);
  EXPECT_STREQ(r::ctrl_state_e::name(4), "StQinFetch");
  EXPECT_STREQ(r::ctrl_state_e::name(8), "StDone");
  EXPECT_STREQ(r::err_e::name(2), "ErrDesc");
}

TEST(ManifestRegs, TinydnnModeBitsFromTheSpec) {
  namespace r = cosim::tinydnn::regs;
  // Byte-addressed register port (the common register bus): register w at 4*w.
  EXPECT_EQ(r::kAddrShift, 0u);
  EXPECT_EQ(r::port_addr(r::kMode), 0x04u);
  EXPECT_EQ(r::port_addr(r::kKw), 0x08u);
  EXPECT_EQ(r::port_addr(r::kMacs), 0x30u);
  const uint32_t order[] = {r::mode::kWrWeightsLsb, r::mode::kWrBiasLsb, r::mode::kRunLsb, r::mode::kEnBiasLsb,
                            r::mode::kBackwardLsb,  r::mode::kDwLsb,     r::mode::kLastSampleLsb};
  for (uint32_t i = 0; i < 7; ++i) EXPECT_EQ(order[i], i);
  // dbg_t: batch state on top of the three 16-bit counters.
  uint32_t w[r::dbg_t::kWords] = {0x00020001u, 0x04000003u};
  const r::Dbg d = r::decode_dbg(w);
  EXPECT_EQ(d.tx_cnt, 1u);
  EXPECT_EQ(d.cmp_cnt, 2u);
  EXPECT_EQ(d.rx_cnt, 3u);
  EXPECT_EQ(d.batch_state, 2u);  // bits 58:57
  EXPECT_STREQ(r::batch_state_e::name(d.batch_state), "StRun");
}

// testdut is the build's instance of templates/dut: its manifest's map.
TEST(ManifestRegs, TestDutFromTheTemplate) {
  namespace r = cosim::testdut::regs;
  EXPECT_EQ(r::kControl, 0x00u);
  EXPECT_EQ(r::kLength, 0x08u);
  EXPECT_EQ(r::kSrcA, 0x0cu);
  EXPECT_EQ(r::kSrcB, 0x10u);
  EXPECT_EQ(r::kDst, 0x14u);
  EXPECT_EQ(r::kStatus, 0x18u);
  EXPECT_EQ(r::status::kStateMask, 0x7u);
  EXPECT_STREQ(r::state_e::name(7), "StWriteResp");
  EXPECT_EQ(r::state_e::show(9), "?9");
}

}  // namespace
