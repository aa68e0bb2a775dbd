// Where the mismatches of an output lie: counts on a grid of rows x
// channels (NHWC / NCHW: h x c, summed over n and w; other layouts: the last
// two dimensions), coarsened so neither side exceeds `max_cells` (a cell
// then covers row_step rows / col_step channels). A mismatch is bitwise,
// as in compare().
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tensor/tensor.hpp"

namespace cosim::tb {

struct MismatchMap {
  std::string row_axis, col_axis;  // "h", "c"; row_axis empty for a 1-D tensor
  int64_t rows = 1, cols = 1;      // grid cells
  int64_t row_extent = 1, col_extent = 1;  // the tensor's size along each axis
  int64_t row_step = 1, col_step = 1;      // tensor rows / channels per cell
  std::vector<int64_t> counts;     // rows x cols, row-major
};

MismatchMap mismatch_map(const Tensor& expected, const Tensor& actual, int64_t max_cells = 64);

}  // namespace cosim::tb
