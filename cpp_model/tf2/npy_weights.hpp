// Float arrays from .npy files (cosim::read_npy) for the TF2 Transform Kit
// steps: INQ-compress a weight array, quantize a feature map.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tf2/inq.hpp"

namespace cosim::tf2 {

struct FloatArray {
  std::vector<int64_t> shape;
  std::vector<float> values;  // C order
};

// Reads a float32 .npy; any other dtype is an InputError naming the file.
FloatArray load_float_npy(const std::string& path);

// INQ compression of a float32 weight .npy (OIHW for conv weights).
InqWeights inq_compress_npy(const std::string& path, std::vector<int64_t>* shape = nullptr);

}  // namespace cosim::tf2
