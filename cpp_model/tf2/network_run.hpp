// One input through a planned network (tf2/tflite_network.hpp) the way the
// delegate runs it: segment by segment in model order, each segment's layers
// on the device (here: the golden tf2::sac_chain, or the maps a device run
// wrote), the host operators in float on the dequantized maps, and a
// segment's input map quantized at its Qs from the float value the host
// computed (the image itself for the first).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tf2/tflite_network.hpp"
#include "tflite/model.hpp"
#include "tflite_float/interpreter.hpp"

namespace cosim::tf2 {

struct NetworkRun {
  std::vector<std::vector<int8_t>> segment_inputs;  // per segment: the CHW map its first layer reads
  std::vector<std::vector<int8_t>> maps;            // per layer: its CHW output
  tflite_float::Values values;                      // every tensor in float (device maps dequantized, NHWC)
};

// The golden run of `image` (float NHWC, the model's input).
NetworkRun run_network(const tflite::Model& m, const Network& net, const std::vector<float>& image);

// The same run with every layer's output given (CHW, one per layer: what a
// device wrote): the host operators and segment inputs follow from them.
NetworkRun run_network(const tflite::Model& m, const Network& net, const std::vector<float>& image,
                       const std::vector<std::vector<int8_t>>& device_maps);

// Layer k's input map (its segment input or an earlier layer's output) and
// output map in float, CHW at their Qs; map_nhwc the output as the model
// lays it out.
std::vector<float> input_chw(const Network& net, const NetworkRun& run, std::size_t k);
std::vector<float> output_chw(const Network& net, const NetworkRun& run, std::size_t k);
std::vector<float> output_nhwc(const Network& net, const NetworkRun& run, std::size_t k);
// The map layer k's residual ADD reads, in float CHW (the layer must have one).
std::vector<float> residual_chw(const Network& net, const NetworkRun& run, std::size_t k);

}  // namespace cosim::tf2
