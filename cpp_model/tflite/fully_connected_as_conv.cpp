#include "tflite/fully_connected_as_conv.hpp"

#include <algorithm>
#include <string>

#include "common/error.hpp"
#include "common/text.hpp"

namespace cosim::tflite {

namespace {

// The same bytes under another shape (NHWC when rank 4).
Tensor reshaped(const Tensor& t, std::vector<int64_t> shape) {
  Tensor r(t.dtype(), std::move(shape), Layout::kNHWC);
  std::copy(t.bytes().begin(), t.bytes().end(), r.bytes().begin());
  return r;
}

}  // namespace

LayerWorkload fully_connected_as_conv2d(const LayerWorkload& fc) {
  if (fc.code != kFullyConnected) throw InputError(fc.op + " " + quoted(fc.name) + " is not a FULLY_CONNECTED");
  const int64_t units = fc.filter.dim(0), depth = fc.filter.dim(1);
  int64_t out_elems = 1;
  for (int64_t d : fc.output_shape) out_elems *= d;
  if (units <= 0 || depth <= 0 || out_elems % units != 0)
    throw InputError("FULLY_CONNECTED " + quoted(fc.name) + ": output " + shape_str(fc.output_shape) +
                     " is not a whole number of rows of " + std::to_string(units) + " units");
  const int64_t rows = out_elems / units;
  LayerWorkload conv = fc;
  conv.code = kConv2d;
  conv.fc = {};
  conv.filter = reshaped(fc.filter, {units, 1, 1, depth});
  conv.output_shape = {1, 1, rows, units};
  conv.conv = ops::ConvParams{};
  conv.conv.padding = ops::Padding::kValid;
  conv.conv.input_zero_point = fc.fc.input_zero_point;
  conv.conv.output_zero_point = fc.fc.output_zero_point;
  conv.conv.act = fc.fc.act;
  conv.conv.rounding = fc.fc.rounding;
  conv.conv.output_multiplier = fc.fc.multipliers;
  if (conv.conv.output_multiplier.size() == 1)
    conv.conv.output_multiplier.assign(static_cast<std::size_t>(units), fc.fc.multipliers[0]);
  for (Tensor& in : conv.inputs) {
    if (in.numel() != rows * depth)
      throw InputError("FULLY_CONNECTED " + quoted(fc.name) + ": input " + shape_str(in.shape()) + " is not " +
                       std::to_string(rows) + " rows of " + std::to_string(depth));
    in = reshaped(in, {1, 1, rows, depth});
  }
  if (fc.has_data) conv.expected = reshaped(fc.expected, conv.output_shape);
  return conv;
}

}  // namespace cosim::tflite
