// Seeded random TF2 layers for tests and sweeps: codes, Qs and constants are
// chosen so outputs spread over int8 (not all saturated) while still hitting
// the edges (shift clamp at 0, -128 inputs, saturation).
#pragma once

#include <cstdint>
#include <vector>

#include "tf2/sac.hpp"

namespace cosim::tf2 {

struct RandomLayerShape {
  int c_in = 16, c_out = 16, h_in = 8, w_in = 8;
  int k = 3, stride = 1, pad = 1;
  bool batch_norm = true;
  bool relu = false;
  // One Q per channel (spec/tf2.md): input channels scattered around the
  // layer's q_in, output channels around its q_out. Otherwise one Q per map.
  bool per_channel_q = false;
  // The input map's Q per channel when it is given (a chain: the previous
  // layer's output_q()); empty: chosen here.
  std::vector<int> input_q{};
};

ConvLayer random_layer(const RandomLayerShape& shape, uint64_t seed);
// A chain of random layers (seeds seed, seed+1, ...), each reading the
// previous one's output map at its Q (RandomLayerShape::input_q).
std::vector<ConvLayer> random_chain(std::vector<RandomLayerShape> shapes, uint64_t seed);
std::vector<int8_t> random_input(int c, int h, int w, uint64_t seed);

}  // namespace cosim::tf2
