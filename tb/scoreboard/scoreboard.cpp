#include "scoreboard/scoreboard.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include "common/text.hpp"

namespace cosim::tb {

double element_value(const Tensor& t, int64_t flat) {
  switch (t.dtype()) {
    case DType::kInt8: return t.data<int8_t>()[flat];
    case DType::kInt16: return t.data<int16_t>()[flat];
    case DType::kInt32: return t.data<int32_t>()[flat];
    case DType::kBf16: {
      const uint32_t bits = static_cast<uint32_t>(t.data<uint16_t>()[flat]) << 16;
      float f;
      std::memcpy(&f, &bits, 4);
      return f;
    }
    case DType::kFp32: return t.data<float>()[flat];
    case DType::kUint8: return t.data<uint8_t>()[flat];
    case DType::kUint16: return t.data<uint16_t>()[flat];
    case DType::kUint32: return t.data<uint32_t>()[flat];
    case DType::kInt64: return static_cast<double>(t.data<int64_t>()[flat]);
    case DType::kUint64: return static_cast<double>(t.data<uint64_t>()[flat]);
  }
  return 0;
}

std::string element_text(const Tensor& t, int64_t flat) {
  if (t.dtype() == DType::kInt64) return std::to_string(t.data<int64_t>()[flat]);
  if (t.dtype() == DType::kUint64) return std::to_string(t.data<uint64_t>()[flat]);
  return value_text(element_value(t, flat));
}

std::vector<int64_t> unravel(const std::vector<int64_t>& shape, int64_t flat) {
  std::vector<int64_t> index(shape.size());
  for (std::size_t d = shape.size(); d-- > 0;) {
    index[d] = flat % shape[d];
    flat /= shape[d];
  }
  return index;
}

std::string coords(const std::vector<int64_t>& index, Layout layout) {
  static const char* const kNhwc[] = {"n", "h", "w", "c"};
  static const char* const kNchw[] = {"n", "c", "h", "w"};
  std::string s;
  for (std::size_t d = 0; d < index.size(); ++d) {
    std::string axis;
    if (index.size() == 4 && layout == Layout::kNHWC) axis = kNhwc[d];
    else if (index.size() == 4 && layout == Layout::kNCHW) axis = kNchw[d];
    else axis = "i" + std::to_string(d);
    s += (d ? "," : "") + axis + "=" + std::to_string(index[d]);
  }
  return s;
}

namespace {
void same_form(const Tensor& a, const Tensor& b, const std::string& what) {
  if (a.dtype() != b.dtype() || a.shape() != b.shape()) {
    throw std::invalid_argument(what + ": tensors differ in dtype or shape");
  }
}
}  // namespace

Comparison compare(const Tensor& expected, const Tensor& actual, const CompareOptions& options) {
  same_form(expected, actual, "compare " + options.name);
  Comparison c;
  c.name = options.name;
  c.elements = expected.numel();
  const std::size_t esize = dtype_size(expected.dtype());
  const uint8_t* e = expected.bytes().data();
  const uint8_t* a = actual.bytes().data();
  for (int64_t i = 0; i < c.elements; ++i) {
    // Bitwise: bit-exact is the contract, also for floats (-0.0, NaN payloads).
    if (std::memcmp(e + i * esize, a + i * esize, esize) == 0) continue;
    ++c.mismatches;
    if (c.first.size() >= options.max_report) continue;
    Mismatch m;
    m.index = unravel(expected.shape(), i);
    m.coords = coords(m.index, expected.layout());
    m.expected = element_value(expected, i);
    m.actual = element_value(actual, i);
    m.expected_text = element_text(expected, i);
    m.actual_text = element_text(actual, i);
    if (options.base_addr) {
      m.address = *options.base_addr +
                  (options.element_offset ? options.element_offset(i) : static_cast<uint64_t>(i) * esize);
      if (options.log != nullptr) m.cycle = options.log->last_write(*m.address, esize);
    } else if (options.element_cycle) {
      m.cycle = options.element_cycle(i);
    }
    c.first.push_back(std::move(m));
  }
  return c;
}

const std::vector<double>& drift_bin_bounds() {
  // Exact, then fractions (bf16 / fp32 outputs), then integer steps (int8).
  static const std::vector<double> kBounds = {0, 1.0 / 256, 1.0 / 16, 0.25, 1, 2, 4, 8, 16, 32, 64, 128};
  return kBounds;
}

Distance distance(const std::string& reference_name, const Tensor& reference, const Tensor& actual) {
  same_form(reference, actual, "distance to " + reference_name);
  Distance d;
  d.reference = reference_name;
  d.elements = reference.numel();
  const std::vector<double>& bounds = drift_bin_bounds();
  d.histogram.assign(bounds.size() + 1, 0);
  const auto bin_of = [&bounds](double diff) {
    std::size_t bin = 0;
    while (bin < bounds.size() && !(diff <= bounds[bin])) ++bin;  // NaN: the last bin
    return bin;
  };
  if (reference.dtype() == DType::kInt8 && actual.dtype() == DType::kInt8) {
    // The common case (int8 networks, thousands of checks): the 256
    // possible differences binned once, the same figures as below.
    std::array<std::size_t, 256> bins{};
    for (int k = 0; k < 256; ++k) bins[static_cast<std::size_t>(k)] = bin_of(k);
    const int8_t* r = reference.data<int8_t>();
    const int8_t* a = actual.data<int8_t>();
    int max_diff = 0;
    for (int64_t i = 0; i < d.elements; ++i) {
      const int diff = std::abs(int{r[i]} - int{a[i]});
      max_diff = std::max(max_diff, diff);
      ++d.histogram[bins[static_cast<std::size_t>(diff)]];
    }
    d.exact = d.histogram[0];  // bin 0 holds the difference 0 only
    d.max_abs_diff = max_diff;
  } else {
    for (int64_t i = 0; i < d.elements; ++i) {
      const double diff = std::fabs(element_value(reference, i) - element_value(actual, i));
      if (diff == 0) ++d.exact;
      if (diff > d.max_abs_diff) d.max_abs_diff = diff;
      ++d.histogram[bin_of(diff)];
    }
  }
  d.exact_pct = d.elements == 0 ? 100.0 : 100.0 * static_cast<double>(d.exact) / static_cast<double>(d.elements);
  return d;
}

}  // namespace cosim::tb
