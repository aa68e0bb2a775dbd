// MLI accumulator headroom rule: ceil(log2 N) extra bits over one operand.
#include "mli/headroom.hpp"

#include <algorithm>
#include <stdexcept>

#include "common/error.hpp"

namespace cosim::mli {

int extra_bits(int64_t n) {
  if (n < 1) throw std::invalid_argument("extra_bits: operand count must be >= 1");
  int k = 0;
  while (k < 63 && (int64_t{1} << k) < n) ++k;
  return k;
}

namespace {

HeadroomCheck evaluate(int value_bits, int acc_bits, int64_t n, const std::string& what) {
  if (acc_bits < 2 || acc_bits > 64) throw std::invalid_argument("headroom: accumulator width must be 2..64");
  if (n < 1) throw std::invalid_argument("headroom: operand count must be >= 1");
  HeadroomCheck c;
  c.value_bits = value_bits;
  c.needed_bits = extra_bits(n);
  c.available_bits = acc_bits - 1 - value_bits;
  c.max_operands = c.available_bits < 0 ? 0 : (int64_t{1} << std::min(c.available_bits, 62));
  c.ok = c.available_bits >= 0 && c.needed_bits <= c.available_bits;
  c.message = what + " over " + std::to_string(n) + " operands needs " + std::to_string(c.needed_bits) +
              " extra bits; a " + std::to_string(acc_bits) + "-bit accumulator leaves " +
              std::to_string(c.available_bits) + " (up to " + std::to_string(c.max_operands) + " operands)" +
              (c.ok ? ": accepted" : ": rejected, tile the reduction or quantize with fewer bits");
  return c;
}

}  // namespace

HeadroomCheck check_mac_headroom(Format a, Format b, int acc_bits, int64_t num_products) {
  return evaluate(significant_bits(a) + significant_bits(b), acc_bits, num_products,
                  std::string(format_name(a)) + " x " + format_name(b) + " MAC");
}

HeadroomCheck check_sum_headroom(Format f, int acc_bits, int64_t num_operands) {
  return evaluate(significant_bits(f), acc_bits, num_operands, std::string(format_name(f)) + " accumulation");
}

HeadroomCheck check_mac_headroom_data(int64_t max_abs_a, int64_t max_abs_b, int acc_bits, int64_t num_products) {
  if (max_abs_a < 0 || max_abs_b < 0 || num_products < 1 || acc_bits < 2 || acc_bits > 64)
    throw std::invalid_argument("check_mac_headroom_data: bad arguments");
  const __int128 limit = (static_cast<__int128>(1) << (acc_bits - 1)) - 1;
  const __int128 worst = static_cast<__int128>(num_products) * max_abs_a * max_abs_b;
  HeadroomCheck c;
  c.ok = worst <= limit;
  const __int128 per = static_cast<__int128>(max_abs_a) * max_abs_b;
  const __int128 max_n = per == 0 ? (static_cast<__int128>(1) << 62) : limit / per;
  c.max_operands = static_cast<int64_t>(max_n > (static_cast<__int128>(1) << 62) ? (static_cast<__int128>(1) << 62) : max_n);
  c.message = "MAC over " + std::to_string(num_products) + " products of |a| <= " + std::to_string(max_abs_a) +
              ", |b| <= " + std::to_string(max_abs_b) + " in a " + std::to_string(acc_bits) +
              "-bit accumulator (up to " + std::to_string(c.max_operands) + " products)" +
              (c.ok ? ": accepted" : ": rejected, tile the reduction");
  return c;
}

void require_mac_headroom(Format a, Format b, int acc_bits, int64_t num_products, const std::string& what) {
  const HeadroomCheck c = check_mac_headroom(a, b, acc_bits, num_products);
  if (!c.ok) throw InputError(what + ": " + c.message);
}

}  // namespace cosim::mli
