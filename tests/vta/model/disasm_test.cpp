#include <gtest/gtest.h>

#include "common/error.hpp"
#include "vta/disasm.hpp"

namespace cosim::vta {
namespace {

TEST(VtaDisasm, KnownWords) {
  // LOAD INP: pop_next push_next, sram 16, dram 256, y 2 x 4 stride 5, pads 1,0,0,2
  InsnWord load{{(1ull << 4) | (1ull << 6) | (2ull << 7) | (16ull << 10) | (256ull << 26),
                 2ull | (4ull << 16) | (5ull << 32) | (1ull << 48) | (2ull << 60)}};
  EXPECT_EQ(disassemble(load),
            "LOAD INP sram=16 dram=256 y_size=2 x_size=4 x_stride=5 y_pad=1,0 x_pad=0,2 | pop_next push_next");
  InsnWord gemm{{2ull | (1ull << 7) | (0ull << 8) | (4ull << 21) | (2ull << 35) | (3ull << 49),
                 4ull | (1ull << 11) | (16ull << 22) | (2ull << 33) | (1ull << 44) | (0ull << 54)}};
  EXPECT_EQ(disassemble(gemm),
            "GEMM reset uop=[0,4) iter_out=2 iter_in=3 dst_factor=4,1 src_factor=16,2 wgt_factor=1,0 | -");
  InsnWord alu{{4ull | (1ull << 3) | (1ull << 5) | (7ull << 8) | (8ull << 21) | (1ull << 35) | (1ull << 49),
                (3ull << 44) | (1ull << 47) | (0xFFFDull << 48)}};
  EXPECT_EQ(disassemble(alu),
            "ALU SHR imm=-3 uop=[7,8) iter_out=1 iter_in=1 dst_factor=0,0 src_factor=0,0 | pop_prev push_prev");
  InsnWord alu_reg{{4ull | (1ull << 21) | (1ull << 35) | (1ull << 49), (4ull << 44)}};
  EXPECT_EQ(disassemble(alu_reg),
            "ALU MUL reg uop=[0,1) iter_out=1 iter_in=1 dst_factor=0,0 src_factor=0,0 | -");
  InsnWord store{{1ull | (1ull << 3) | (4ull << 7), (1ull << 16) | 1ull | (1ull << 32)}};
  EXPECT_EQ(disassemble(store), "STORE OUT sram=0 dram=0 y_size=1 x_size=1 x_stride=1 y_pad=0,0 x_pad=0,0 | pop_prev");
  InsnWord sync{{0ull | (5ull << 7), 0}};
  EXPECT_EQ(disassemble(sync),
            "LOAD ACC_8BIT sram=0 dram=0 y_size=0 x_size=0 x_stride=0 y_pad=0,0 x_pad=0,0 (sync) | -");
  EXPECT_EQ(disassemble(InsnWord{{3ull | (1ull << 3) | (1ull << 4), 0}}), "FINISH | pop_prev pop_next");
  EXPECT_EQ(disassemble(InsnWord{{6ull, 0x12}}), "UNDEFINED opcode=6 raw=0x00000000000000120000000000000006");
  EXPECT_EQ(disassemble(Uop{1, 2, 3}), "uop dst=1 src=2 wgt=3");
}

TEST(VtaDisasm, StreamHasIndices) {
  std::vector<uint8_t> bytes(32, 0);
  bytes[0] = 3;   // FINISH
  bytes[16] = 2;  // GEMM, all zero
  const std::string text = disassemble_stream(bytes);
  EXPECT_EQ(text,
            "   0: FINISH | -\n"
            "   1: GEMM uop=[0,0) iter_out=0 iter_in=0 dst_factor=0,0 src_factor=0,0 wgt_factor=0,0 | -\n");
  EXPECT_THROW(disassemble_stream(std::vector<uint8_t>(20)), InputError);
}

}  // namespace
}  // namespace cosim::vta
