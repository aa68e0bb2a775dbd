#include "tf2/map_layout.hpp"

#include <cstddef>

namespace cosim::tf2 {

namespace {
// Copies between the two layouts; `to_chw` picks the direction.
std::vector<float> relayout(const std::vector<float>& in, int c, int h, int w, bool to_chw) {
  std::vector<float> out(in.size());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int k = 0; k < c; ++k) {
        const std::size_t chw = (static_cast<std::size_t>(k) * h + y) * w + x;
        const std::size_t nhwc = (static_cast<std::size_t>(y) * w + x) * c + k;
        (to_chw ? out[chw] : out[nhwc]) = to_chw ? in[nhwc] : in[chw];
      }
  return out;
}
}  // namespace

std::vector<float> nhwc_to_chw(const std::vector<float>& nhwc, int c, int h, int w) {
  return relayout(nhwc, c, h, w, true);
}

std::vector<float> chw_to_nhwc(const std::vector<float>& chw, int c, int h, int w) {
  return relayout(chw, c, h, w, false);
}

}  // namespace cosim::tf2
