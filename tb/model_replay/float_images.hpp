// The `images` key of the float whole-network modes (tf2 `mode: delegate`,
// tinydnn `mode: delegate`): the network inputs, seeded random or an .npy
// batch, in the model's input shape.
//
//   images: {random: {min: 0, max: 1}}   # (default) or {npy: file}: float32 [count, H, W, C]
#pragma once

#include <vector>

#include "scenario/scenario.hpp"
#include "tflite/model.hpp"

namespace cosim::tb::model_replay {

// Adds the optional key `images` (default seeded uniform [0, 1)).
void add_images_key(scenario::Schema& s);

// `count` images, NHWC each, of the model's input shape [1, H, W, C]. An .npy
// of another shape is an InputError at `images`; a model input of another
// rank, at `model`.
std::vector<std::vector<float>> load_images(const scenario::Scenario& sc, const tflite::Model& m, int count);

}  // namespace cosim::tb::model_replay
