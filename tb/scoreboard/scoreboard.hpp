// Element-by-element comparison of a DUT output with its expected tensor:
// mismatch count, the first mismatches with coordinates named after the
// layout (n,h,w,c for NHWC), both values, and the cycle the DUT last wrote
// the element when a WriteLog is available. Also the distance of an output
// to a reference semantics (exact %, max |diff|, a histogram of |diff|).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "scoreboard/write_log.hpp"
#include "tensor/tensor.hpp"

namespace cosim::tb {

struct Mismatch {
  std::vector<int64_t> index;
  std::string coords;  // "n=0,h=3,w=1,c=7"
  double expected = 0;  // as numbers (a 64-bit integer beyond 2^53 rounded: the texts hold it)
  double actual = 0;
  std::string expected_text, actual_text;  // exactly (element_text)
  std::optional<uint64_t> address;  // when the tensor lives in memory
  std::optional<uint64_t> cycle;    // last DUT write of the element
};

struct Comparison {
  std::string name;
  int64_t elements = 0;
  int64_t mismatches = 0;
  std::vector<Mismatch> first;  // at most max_report
  bool pass() const { return mismatches == 0; }
};

struct CompareOptions {
  std::string name;
  std::size_t max_report = 10;
  std::optional<uint64_t> base_addr;  // byte address of element 0
  // Byte offset of element i from base_addr when the tensor is not dense in
  // memory (e.g. channel-blocked); unset: i * element size.
  std::function<uint64_t(int64_t)> element_offset;
  const WriteLog* log = nullptr;
  // Elements without an address (a stream's): the cycle element i was handed
  // over, none when unknown.
  std::function<std::optional<uint64_t>(int64_t)> element_cycle;
};

// expected and actual must have the same dtype and shape
// (std::invalid_argument otherwise: a testbench bug, not user input).
Comparison compare(const Tensor& expected, const Tensor& actual, const CompareOptions& options);

struct Distance {
  std::string reference;
  int64_t elements = 0;
  int64_t exact = 0;
  double exact_pct = 0;
  double max_abs_diff = 0;
  // The drift's spread: elements per |diff| bin, bins bounded above by
  // drift_bin_bounds() (the last one unbounded).
  std::vector<int64_t> histogram;
};
const std::vector<double>& drift_bin_bounds();
Distance distance(const std::string& reference_name, const Tensor& reference, const Tensor& actual);

// Element i (row-major) as a double: integers exactly up to 2^53, bf16 / fp32 widened.
double element_value(const Tensor& t, int64_t flat);
// Element i as text, exactly: an integer in full (64-bit ones too), a float with 9 digits.
std::string element_text(const Tensor& t, int64_t flat);
// Row-major flat index -> full index.
std::vector<int64_t> unravel(const std::vector<int64_t>& shape, int64_t flat);
// "n=0,h=1,w=2,c=3" (NHWC), "n=..,c=..,h=..,w=.." (NCHW), "i0=..,i1=.." otherwise.
std::string coords(const std::vector<int64_t>& index, Layout layout);

}  // namespace cosim::tb
