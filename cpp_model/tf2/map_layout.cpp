#include "tf2/map_layout.hpp"

#include <cstddef>

namespace cosim::tf2 {

std::vector<float> nhwc_to_chw(const std::vector<float>& nhwc, int c, int h, int w) {
  std::vector<float> chw(nhwc.size());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int k = 0; k < c; ++k)
        chw[(static_cast<std::size_t>(k) * h + y) * w + x] = nhwc[(static_cast<std::size_t>(y) * w + x) * c + k];
  return chw;
}

std::vector<float> chw_to_nhwc(const std::vector<float>& chw, int c, int h, int w) {
  std::vector<float> nhwc(chw.size());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int k = 0; k < c; ++k)
        nhwc[(static_cast<std::size_t>(y) * w + x) * c + k] = chw[(static_cast<std::size_t>(k) * h + y) * w + x];
  return nhwc;
}

}  // namespace cosim::tf2
