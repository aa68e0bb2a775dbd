// A stride-1 CONV_2D of a float .tflite model as the tiny-dnn accelerator
// runs it, shared by the `model` op's two modes (per-layer replay and the
// delegate): the layer read from the model (OHWI float32 filter -> OIHW,
// bias, fused activation), the host's TFLite SAME padding (the accelerator
// has none), and the host's tiling: at most 16 output channels per pass and
// 4096-element buffers, so one forward job per 16 output channels and band
// of output rows (the largest band the buffers take). Weights, bias and
// input are truncated to bf16 by the host; every tile's output is the
// tiny-dnn golden (cpp_model/tinydnn golden()), the DUT must match it bit
// for bit. The accelerator computes conv + bias only: the fused activation
// is the caller's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "scenario/scenario.hpp"
#include "tflite/model.hpp"
#include "tinydnn/host_program.hpp"
#include "trace/trace.hpp"

namespace cosim::tb::tinydnn {

// The layer as the host sees it. Padded input: CHW [in_c][ph][pw].
struct TinyConv {
  int in_h = 0, in_w = 0, in_c = 0;
  int out_h = 0, out_w = 0, out_c = 0;
  int kh = 0, kw = 0;
  int pad_top = 0, pad_left = 0, ph = 0, pw = 0;
  std::vector<float> w_oihw, bias;
  tflite::FusedActivation activation = tflite::FusedActivation::kNone;
  std::string shapes;  // "32x32x16 -> 32x32x16, 3x3 s1"
};

// Empty when operator `i` is a CONV_2D the accelerator runs (float32
// filter, stride 1, dilation 1), else why not ("stride 2, the hardware has
// stride 1 only").
std::string conv_support(const tflite::Model& m, std::size_t i);
// Operator `op` (conv_support passed); InputError when its tensors do not fit.
TinyConv read_conv(const tflite::Model& m, std::size_t op);

// FULLY_CONNECTED as the 1x1 convolution it equals over a 1 x rows map of
// `depth` channels: empty when operator `i` is one the accelerator runs
// (float32 [units, depth] filter, DEFAULT weights, one row of 16 units
// fits), else why not.
std::string dense_support(const tflite::Model& m, std::size_t i);
// Operator `op` (dense_support passed) as that convolution: output [1, rows, units].
TinyConv read_dense(const tflite::Model& m, std::size_t op);

// The padded input, CHW, zeros around; value(ic, y, x) is called once per
// input element in CHW order.
template <class Value>
std::vector<float> padded_input(const TinyConv& c, Value value) {
  std::vector<float> xp(static_cast<std::size_t>(c.in_c) * c.ph * c.pw, 0.0f);
  for (int ic = 0; ic < c.in_c; ++ic)
    for (int y = 0; y < c.in_h; ++y)
      for (int x = 0; x < c.in_w; ++x)
        xp[(static_cast<std::size_t>(ic) * c.ph + y + c.pad_top) * c.pw + x + c.pad_left] = value(ic, y, x);
  return xp;
}

// How a layer is cut into jobs.
struct TilePlan {
  // Each job the golden's float32 reference too (golden vs float32 on the
  // same bf16 operands, Tiles::error); false leaves it out.
  bool float32_reference = true;
  // The equal row bands of 16 output channels as one mini-batch (one job,
  // one sample per band: weights loaded once, the next band streams in
  // while the current one computes); false: one job per band.
  bool batch_row_bands = false;
};

// One job: output channels [oc0, oc0 + job.shape.out_c), and per sample s
// of the job's mini-batch output rows [row0 + s * band, + job.shape.out_h()).
struct Tile {
  std::string check;  // "<prefix>_c<k>_r<k>"
  int oc0 = 0, row0 = 0, band = 0;
  cosim::tinydnn::LayerJob job;
  cosim::tinydnn::Golden golden;  // outputs named check (or check_s<k> per sample, see host_program.hpp)
};

struct Tiles {
  std::vector<Tile> tiles;
  int oc_tiles = 0, row_tiles = 0;   // channel groups, jobs per group
  cosim::tinydnn::ErrorStats error;  // golden vs float32 on the same bf16 operands, whole layer (float32_reference)
  uint64_t macs = 0;
};

// The layer's jobs on padded input x_pad, each with its golden; checks
// named "<check>_c<k>_r<k>".
Tiles tile_conv(const std::string& check, const TinyConv& c, const std::vector<float>& x_pad, const TilePlan& plan = {});

// The golden output of all tiles as float, NHWC [out_h][out_w][out_c].
std::vector<float> golden_nhwc(const TinyConv& c, const Tiles& ts);

// wait_done steps emit_tiles issues per tile (forward with bias: load
// weights, load bias, run; one run for the whole mini-batch).
int waits_per_tile(const Tile& t);

// The host program of every tile, each checked before the next (each starts
// at the same DRAM regions). An InputError is reported at `model` naming
// `layer`.
void emit_tiles(trace::Trace& t, const scenario::Scenario& sc, const std::string& layer, const Tiles& ts);

}  // namespace cosim::tb::tinydnn
