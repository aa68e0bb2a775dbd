#include "scoreboard/mismatch_map.hpp"

#include <cstring>
#include <stdexcept>

#include "scoreboard/scoreboard.hpp"

namespace cosim::tb {

MismatchMap mismatch_map(const Tensor& expected, const Tensor& actual, int64_t max_cells) {
  if (expected.dtype() != actual.dtype() || expected.shape() != actual.shape()) {
    throw std::invalid_argument("mismatch_map: tensors differ in dtype or shape");
  }
  const std::vector<int64_t>& shape = expected.shape();
  const std::size_t rank = shape.size();
  // The dimensions drawn as rows and as columns (-1: none).
  int row_dim = -1, col_dim = -1;
  MismatchMap m;
  if (rank == 4 && expected.layout() == Layout::kNHWC) {
    row_dim = 1, col_dim = 3, m.row_axis = "h", m.col_axis = "c";
  } else if (rank == 4 && expected.layout() == Layout::kNCHW) {
    row_dim = 2, col_dim = 1, m.row_axis = "h", m.col_axis = "c";
  } else if (rank >= 2) {
    row_dim = static_cast<int>(rank) - 2, col_dim = static_cast<int>(rank) - 1;
    m.row_axis = "i" + std::to_string(row_dim), m.col_axis = "i" + std::to_string(col_dim);
  } else if (rank == 1) {
    col_dim = 0, m.col_axis = "i0";
  }
  m.row_extent = row_dim >= 0 ? shape[row_dim] : 1;
  m.col_extent = col_dim >= 0 ? shape[col_dim] : 1;
  m.row_step = (m.row_extent + max_cells - 1) / max_cells;
  m.col_step = (m.col_extent + max_cells - 1) / max_cells;
  m.rows = (m.row_extent + m.row_step - 1) / m.row_step;
  m.cols = (m.col_extent + m.col_step - 1) / m.col_step;
  m.counts.assign(static_cast<std::size_t>(m.rows * m.cols), 0);
  const std::size_t esize = dtype_size(expected.dtype());
  const uint8_t* e = expected.bytes().data();
  const uint8_t* a = actual.bytes().data();
  for (int64_t i = 0; i < expected.numel(); ++i) {
    if (std::memcmp(e + i * esize, a + i * esize, esize) == 0) continue;
    const std::vector<int64_t> idx = unravel(shape, i);
    const int64_t r = row_dim >= 0 ? idx[row_dim] / m.row_step : 0;
    const int64_t c = col_dim >= 0 ? idx[col_dim] / m.col_step : 0;
    ++m.counts[static_cast<std::size_t>(r * m.cols + c)];
  }
  return m;
}

}  // namespace cosim::tb
