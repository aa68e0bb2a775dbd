// MLI accumulator headroom (spec/quantization.md s.3): summing N operands
// needs ceil(log2 N) extra bits. A product of formats a and b has
// significant_bits(a) + significant_bits(b) bits; an acc_bits accumulator
// (one sign bit) leaves acc_bits - 1 - product_bits for accumulation, so
// sa8 x sa8 in 32 bits: 31 - 14 = 17 (up to 2^17 products), fx16 x fx16 in
// 40 bits: 39 - 30 = 9 (up to 2^9). Compilers call these to accept, tile or
// reject a workload.
#pragma once

#include <cstdint>
#include <string>

#include "mli/formats.hpp"

namespace cosim::mli {

// ceil(log2 n) for n >= 1 (0 for n = 1), exact in integers.
int extra_bits(int64_t n);

struct HeadroomCheck {
  bool ok = false;
  int value_bits = 0;        // significant bits of one operand / product
  int needed_bits = 0;       // ceil(log2 N)
  int available_bits = 0;    // acc_bits - 1 - value_bits
  int64_t max_operands = 0;  // 2^available_bits (saturated at 2^62)
  std::string message;       // one line, says why it was accepted or rejected
};

// MAC-based kernels: N products of a x b summed in an acc_bits accumulator.
HeadroomCheck check_mac_headroom(Format a, Format b, int acc_bits, int64_t num_products);
// Plain accumulation of N operands of format f.
HeadroomCheck check_sum_headroom(Format f, int acc_bits, int64_t num_operands);
// Tighter bound from real data: N * max|a| * max|b| must fit the signed
// accumulator (|sum| <= 2^(acc_bits-1) - 1).
HeadroomCheck check_mac_headroom_data(int64_t max_abs_a, int64_t max_abs_b, int acc_bits, int64_t num_products);

// Throws cosim::InputError("<what>: <message>") when the MAC check fails.
void require_mac_headroom(Format a, Format b, int acc_bits, int64_t num_products, const std::string& what);

}  // namespace cosim::mli
