// Geometry and tiling of the VTA CONV_2D compiler (internal to
// vta_compiler): the convolution's shapes and padding, the border classes of
// output pixels, the per-block parameter entries, the tile choice, and the
// host-side layouts (im2col, grouped weights).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ops/conv2d.hpp"
#include "tensor/tensor.hpp"
#include "vta/compiler/conv2d_compiler.hpp"

namespace cosim::vta::conv2d {

[[noreturn]] void bad(const std::string& what);

// Shapes and padding of the convolution.
struct Geo {
  int64_t n = 0, h = 0, w = 0, c = 0, kh = 0, kw = 0, o = 0;
  int64_t sh = 1, sw = 1, pt = 0, pl = 0, oh = 0, ow = 0;
  int64_t cb = 0, ob = 0, kk = 0;
  // A 1-row kernel with a row stride reads every sh-th input row only: the
  // LOAD skips the others (DRAM row stride sh * W) and packs the rows read.
  bool skip_rows = false;
  int64_t in_rows(int64_t out_rows) const { return skip_rows ? out_rows : (out_rows - 1) * sh + kh; }
  int64_t in_row_step() const { return skip_rows ? 1 : sh; }  // packed input rows per output row
};

// Valid kernel-row (or column) range [lo, hi) of each output row (column),
// and the distinct ranges.
struct AxisClasses {
  std::vector<int> of;                        // output index -> range id
  std::vector<std::pair<int64_t, int64_t>> ranges;
  int full = -1;                              // id of [0, k), if it occurs
};

// Border classes: pairs (row range, column range) other than (full, full),
// each with one correction vector. Empty when zp_in is 0.
struct Borders {
  AxisClasses rows, cols;
  std::vector<int> id;  // row id * cols + col id -> class, -1 none
  int count = 0;
  int of(int64_t oh, int64_t ow) const {
    if (count == 0) return -1;
    return id[static_cast<std::size_t>(rows.of[oh]) * cols.ranges.size() + cols.of[ow]];
  }
};

// ACC entries per output block: bias, pre, mul, post, the fused program's
// offset K, zp, act_min, act_max, then the border corrections. The fused
// program keeps its start values where the bias and the corrections go; the
// three entries a fused program with immediate clamps never reads come last
// among the fixed ones, so its parameter load can leave them out.
constexpr int64_t kParBias = 0, kParPre = 1, kParMul = 2, kParPost = 3, kParOffset = 4;
constexpr int64_t kParZp = 5, kParMin = 6, kParMax = 7;
constexpr int64_t kParFixed = 8;
constexpr int64_t kParFusedUsed = 5;  // [0, kParFusedUsed): what such a program reads

Geo make_geo(const std::vector<int64_t>& in, const std::vector<int64_t>& f, const ops::ConvParams& p);
AxisClasses axis_classes(int64_t out, int64_t in, int64_t k, int64_t stride, int64_t pad);
Borders make_borders(const Geo& g, int32_t zp_in);
void check_options(const CompileOptions& opt);

// TFLite requantization: its vectors follow the border corrections, its
// temporaries sit beside the accumulators.
int64_t tflite_vectors(const TfliteRequantProgram* rq);
int64_t tflite_pixel_entries(const TfliteRequantProgram* rq);

// The output-channel groups and output tiles of a layer (cosim::InputError
// naming the buffer when nothing fits).
Conv2dTiling choose_tiling(const Geo& g, const Borders& bd, const CompileOptions& opt,
                           const TfliteRequantProgram* rq = nullptr);

// Useful MACs: real channels times the taps inside the image.
uint64_t useful_macs(const Geo& g, const Borders& bd);

// A layer with few input channels (an image's 3) wastes most of the 16 lanes
// of every input block: a 3x3 kernel over 3 channels takes 9 GEMM uops per
// output entry where its 27 values fit 2 blocks. When its input comes from the
// host, the host lays each output pixel's window out as one row of
// KH*KW*C values (im2col, padding filled with zp_in, which contributes
// w * (zp_in - zp_in) = 0 as TFLite's padding does) and the layer becomes a
// 1x1 VALID convolution over those values with the same weights in the same
// (ky, kx, c) order: the same accumulators, fewer uops. A 1x1 kernel with a
// stride and a host input is the same case with one pixel per window: the
// host passes only the pixels the kernel reads, and the core loads half (or
// less) of the input in whole rows instead of strided ones.
bool im2col_pays(const Geo& g, const CompileOptions& opt);
Tensor im2col(const Tensor& input, const Geo& g, int32_t zp_in);

// Weight blocks in DRAM and WGT as [group][input-channel block][kernel row]
// [output block][kernel column]: each (cb, ky) slice of a group is one
// contiguous run, so the first tile can start on the first slice while the
// others load.
std::vector<uint8_t> group_weights(const std::vector<uint8_t>& packed, const Geo& g, int64_t nob);

}  // namespace cosim::vta::conv2d
