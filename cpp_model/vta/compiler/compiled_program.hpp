// What the VTA compiler hands to a runner: the instruction stream and the DRAM
// image that holds it, where the output lands and how to read it back as an
// int8 NHWC (or flat) tensor, work figures (MACs, GEMM uops), and for every
// instruction the unit of work it belongs to (which output tile a STORE
// writes), so a mismatch can be traced to the instruction behind it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tensor/tensor.hpp"
#include "vta/isa.hpp"
#include "vta/program_builder.hpp"
#include "vta/raw_program.hpp"

namespace cosim::vta {

// Knobs of the compilers. The SRAM depths default to the hardware; tests
// shrink them to force the tiling paths on small shapes (the program then
// uses only that much of each buffer, and still runs on the full core).
struct CompileOptions {
  int threads = 2;  // virtual threads: 1, or 2 (ping-pong halves of INP and ACC)
  uint32_t inp_depth = kInpDepth;
  uint32_t wgt_depth = kWgtDepth;
  uint32_t acc_depth = kAccDepth;
  // Forced tile sizes for CONV2D (0 = chosen by the compiler): output rows and
  // columns per tile, output-channel blocks (of 16) per weight group.
  int tile_rows = 0;
  int tile_cols = 0;
  int oc_blocks = 0;
  // With more than one output-channel group, split WGT into two halves so the
  // next group's weights load while the current group computes.
  bool wgt_double_buffer = true;
  // CONV2D with few input channels and a host input: lay the windows out on
  // the host (im2col) so each GEMM uop fills more of its 16 lanes.
  bool host_im2col = true;
  // CONV2D, VTA 16-bit scheme: the requantization with the bias, the border
  // corrections and the output zero point folded (vta/compiler/fused_requant.hpp)
  // where the accumulator bounds allow it; false keeps the plain program.
  bool fused_requant = true;
  // CONV2D: the program's first tile runs its first weight slices in parts of
  // this many output rows, each as soon as its input rows are in (0 = the
  // whole window first).
  int first_part_rows = 2;
  // CONV2D: when the LOAD engine may start. A program alone on the core
  // lets COMPUTE load its parameters and micro-ops first, as the memory is
  // shared (kAfterComputeStart). A program streamed after another one
  // (vta/compiler/program_stream.hpp) loads its weights at once, during the
  // other's tail, and its input only after its COMPUTE has started, i.e.
  // after the other's stores (kWeightsFirst: the input is an earlier
  // program's output), or loads everything at once (kAtOnce: the input came
  // from the host with the image).
  enum class LoadStart { kAfterComputeStart, kWeightsFirst, kAtOnce };
  LoadStart load_start = LoadStart::kAfterComputeStart;
  // Largest DRAM image the compiler may produce (the core addresses 32 bits).
  uint64_t dram_limit = uint64_t{1} << 32;
  // Where the program's own regions start: a network keeps several programs
  // (and the tensors they pass on) in DRAM at once. The image then covers
  // [dram_base, end) only (CompiledProgram::image_base).
  uint64_t dram_base = 0;
  // CONV2D: the input already sits in DRAM at this byte address, in the
  // blocked layout the compiler's output uses ([N][ceil(C/16)][H][W][16],
  // e.g. an earlier program's output), so the image leaves it out.
  std::optional<uint64_t> input_addr;
};

// How the result sits in DRAM.
struct OutputLayout {
  enum class Kind {
    kBlockedNhwc,  // CONV2D: int8 [N][ceil(C/16)][H][W][16] (channel blocks), read back as NHWC
    kFlat,         // ADD: the first numel bytes, row-major over `shape`
  };
  Kind kind = Kind::kFlat;
  uint64_t byte_addr = 0;
  uint64_t bytes = 0;           // size of the output region
  std::vector<int64_t> shape;   // the tensor extract_output() returns
};

// The unit of work of one instruction. For a STORE, the box of the output it
// writes: NHWC [n][h0,h1)[w0,w1)[c0,c1) for CONV2D, elements [e0,e1) of the
// flat output for ADD (then n = h0 = w0 = c0 = 0).
struct WorkUnit {
  int64_t tile = -1;  // -1: set-up, synchronisation or FINISH
  bool stores_output = false;
  int64_t n = 0, h0 = 0, h1 = 0, w0 = 0, w1 = 0, c0 = 0, c1 = 0;
  int64_t e0 = 0, e1 = 0;
  std::string text;  // e.g. "tile 3 (n0 oh 6..11 ow 0..27 oc 0..63): GEMM"
};

// Writes int32 values (ACC elements' lanes) into a region, little-endian.
void write_int32_region(std::vector<uint8_t>& dram, const DramRegion& region, const std::vector<int32_t>& values,
                        uint64_t image_base = 0);

struct CompiledProgram {
  std::string op;                       // "conv2d" or "add"
  std::vector<Insn> insns;              // decoded form of the stream
  std::vector<uint8_t> insn_bytes;      // 16 bytes per instruction (also inside dram)
  uint64_t insn_addr = 0;               // DRAM byte address of the stream
  uint32_t insn_count = 0;
  std::vector<uint8_t> dram;            // the initial DRAM image, from image_base
  uint64_t image_base = 0;              // CompileOptions::dram_base
  DramLayout layout;                    // its regions (names: input, weights, params, output, uops, insns, ...)
  OutputLayout output;
  std::vector<WorkUnit> work;           // one per instruction

  // Work figures.
  uint64_t macs = 0;           // useful MACs (real channels, valid taps)
  uint64_t gemm_uops = 0;      // accumulating GEMM uop executions the stream performs
  uint64_t alu_uops = 0;       // ALU uop executions
  uint64_t reset_uops = 0;     // GEMM reset uop executions
  uint64_t tiles = 0;
  std::string tiling;          // human-readable tiling summary

  // Reads the output out of a DRAM image from address 0 after the run (the
  // image must cover the output region, else cosim::InputError).
  Tensor extract_output(const std::vector<uint8_t>& dram) const;
  // The STORE instruction that writes output element `index` (NHWC index for
  // CONV2D, a flat index for ADD), if any.
  std::optional<std::size_t> store_writing(const std::vector<int64_t>& index) const;
  // The program as a raw VTA program (stream + image), e.g. for
  // write_raw_program_dir / `cosim replay`.
  // The compute bound of GEMM utilization: the COMPUTE engine executes one
  // uop per cycle, GEMM, GEMM reset and ALU alike, and also runs its own
  // LOAD UOP / ACC instructions; so with the LOAD and STORE engines fully
  // hidden the best a program can reach is
  // gemm / (gemm + reset + alu + compute_load_cycles()).
  double compute_bound() const {
    const uint64_t all = gemm_uops + reset_uops + alu_uops + compute_load_cycles();
    return all == 0 ? 0.0 : static_cast<double>(gemm_uops) / static_cast<double>(all);
  }
  // The fewest cycles the COMPUTE engine's own loads take: the loader writes
  // one SRAM word per cycle, a micro-op or one 16-byte beat of an ACC entry
  // (the core's 128-bit memory port), whatever the memory's speed.
  uint64_t compute_load_cycles() const;
  // An image from address 0 (zeros below image_base).
  RawProgram raw() const;
  // Writes into `dram` (from image_base) at a region of `layout`.
  void write(const DramRegion& region, const void* data, uint64_t bytes) {
    write_region(dram, region, data, bytes, 0, image_base);
  }
  void write_int32(const DramRegion& region, const std::vector<int32_t>& values) {
    write_int32_region(dram, region, values, image_base);
  }
  // One line per instruction: "<index>: <disassembly>  ; <unit of work>".
  std::string listing() const;
};

}  // namespace cosim::vta
