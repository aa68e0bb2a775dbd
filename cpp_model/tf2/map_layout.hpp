// Batch-1 float maps between the models' NHWC and the TF2 golden model's CHW.
#pragma once

#include <vector>

namespace cosim::tf2 {

std::vector<float> nhwc_to_chw(const std::vector<float>& nhwc, int c, int h, int w);
std::vector<float> chw_to_nhwc(const std::vector<float>& chw, int c, int h, int w);

}  // namespace cosim::tf2
