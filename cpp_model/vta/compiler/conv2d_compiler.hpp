// Lowers a TFLite-style int8 CONV_2D to a VTA program (instruction stream +
// DRAM image) whose output equals ops::vta_conv2d bit for bit.
//
// Schedule. Output channels are taken in groups of 16-channel blocks whose
// weights all fit the WGT buffer (loaded once per group; with several groups,
// in alternating halves of WGT so loading the next group's weights overlaps
// the current group's compute); each group walks
// output tiles of R rows x Cw columns. A tile's input rows/columns (halo
// included) are loaded per input-channel block into one half of INP, with
// the image border supplied by the LOADs' zero pads; its accumulators live
// in one half of ACC. Tiles alternate between the two halves ("virtual
// threads"), and dependency tokens let the LOAD of tile k+1 and the STORE of
// tile k-1 run while tile k computes.
//
// Per tile, on COMPUTE: one GEMM reset, one GEMM (loops over the tile's rows
// and columns, micro-ops over kernel taps x input blocks x output blocks),
// then the requantization as register-source ALU ops against per-channel
// vectors held in ACC (ADD bias, [SHR pre], MUL, [SHR post], ADD zp, MIN,
// MAX; each one instruction over the whole tile).
//
// Zero point: GEMM sees the input padded with 0, TFLite pads with zp_in. So
// the bias vector is bias - zp_in * sum_{taps,c} W (int32, wrapping), and an
// output pixel whose window touches the padding gets one more ALU ADD of
// zp_in * sum_{invalid taps,c} W, one vector per border class (which kernel
// rows/columns fall outside), precomputed on the host.
#pragma once

#include <vector>

#include "ops/conv2d.hpp"
#include "vta/golden/vta_quant.hpp"
#include "tensor/tensor.hpp"
#include "vta/compiler/compiled_program.hpp"
#include "vta/compiler/tflite_requant_program.hpp"

namespace cosim::vta {

// The tiling the compiler picks (exposed for reports and tests).
struct Conv2dTiling {
  int64_t oc_blocks_per_group = 0;  // output-channel blocks sharing one weight load
  int64_t groups = 0;
  bool wgt_double_buffered = false;  // groups alternate between the two WGT halves
  int64_t tile_rows = 0;            // output rows per tile (the last tile may have fewer)
  int64_t tile_cols = 0;            // output columns per tile
  int64_t row_tiles = 0, col_tiles = 0;
  int64_t border_classes = 0;       // zero-point correction vectors per output block
  int64_t param_entries = 0;        // ACC entries per output block for the vectors
  int64_t pixel_entries = 1;        // ACC entries per output pixel and block: the accumulator + temporaries
};

// input int8 NHWC, filter int8 OHWI, bias int32 [O] or empty; geometry from
// `p` (padding, strides, dilation must be 1, input_zero_point); plans: one
// per output channel (ops::vta_plan_conv2d). Throws cosim::InputError for
// bad shapes and for workloads no tile fits (naming the buffer and limit).
CompiledProgram compile_conv2d(const Tensor& input, const Tensor& filter, const Tensor& bias,
                               const ops::ConvParams& p, const std::vector<quant::VtaRequantPlan>& plans,
                               const CompileOptions& opt = {});

// TFLite requantization instead (requant: tflite_double / tflite_single): the
// output equals ops::conv2d with the program's rounding. acc = bias + GEMM +
// border corrections as above, then the program (tflite_requant_program.hpp),
// its vectors after the border corrections in each block's parameter
// entries, its temporaries beside each tile's accumulators (counted by the
// ACC fit). `requant` has one channel per output channel, or one.
CompiledProgram compile_conv2d(const Tensor& input, const Tensor& filter, const Tensor& bias,
                               const ops::ConvParams& p, const TfliteRequantProgram& requant,
                               const CompileOptions& opt = {});

// Only the tiling decision (same checks and errors as compile_conv2d; with
// `requant`, the TFLite mode's).
Conv2dTiling plan_conv2d_tiling(const std::vector<int64_t>& input_shape, const std::vector<int64_t>& filter_shape,
                                const ops::ConvParams& p, const CompileOptions& opt = {},
                                const TfliteRequantProgram* requant = nullptr);

}  // namespace cosim::vta
