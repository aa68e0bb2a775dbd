// Shared by the UNISIM stand-in tests (tests/vendor_unisim): a Verilated test
// top with its context, the INIT generator of the tops (mix(), the same
// splitmix64 as tops/unisim_mix.svh), and bit helpers.
#pragma once

#include <verilated.h>

#include <cstdint>
#include <random>

namespace cosim::vendor_unisim_test {

// splitmix64 of seed + (k + 1) * golden ratio: the INIT of instance k of a
// test top (tops/unisim_mix.svh computes the same in SystemVerilog).
inline uint64_t mix(uint64_t seed, uint64_t k) {
  uint64_t z = seed + (k + 1) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

inline unsigned bit(uint64_t v, unsigned i) { return static_cast<unsigned>((v >> i) & 1u); }
inline uint64_t mask(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }
inline uint64_t with_bit(uint64_t v, unsigned i, unsigned b) { return (v & ~(1ull << i)) | (uint64_t{b & 1u} << i); }

template <class Model>
struct Bench {
  VerilatedContext ctx;
  Model dut{&ctx};
  void eval() { dut.eval(); }
};

// Random bits: a coin with `num` in `den` chance of 1.
inline unsigned coin(std::mt19937_64& g, unsigned num, unsigned den) { return g() % den < num ? 1u : 0u; }

}  // namespace cosim::vendor_unisim_test
