// The memory of the test DUTs' 16-beat copy (tests/support/copy16.sv, in
// tests/clocks/iface_top.sv and tests/axi_channels/axi_channels_top.sv): 16 KiB
// of seeded random bytes, the 128 read from 0x1000, and the check that 0x2000
// then holds their complement. Expected values from the DUT's description.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "axi/axi4_slave.hpp"

namespace cosim::test {

struct CopyImage {
  static constexpr std::size_t kSource = 0x1000, kDest = 0x2000, kBytes = 128;

  explicit CopyImage(uint64_t seed) : image(0x4000) {
    std::mt19937_64 rng(seed);
    for (uint8_t& b : image) b = static_cast<uint8_t>(rng());
    source.assign(image.begin() + kSource, image.begin() + kSource + kBytes);
  }

  // An 8-byte slave stalling with `stall`, seeded.
  static tb::Axi4SlaveConfig slave_config(double stall, uint64_t seed) {
    tb::Axi4SlaveConfig cfg;
    cfg.data_bytes = 8;
    cfg.stall_probability = stall;
    cfg.seed = seed;
    return cfg;
  }

  void expect_copied() const {
    for (std::size_t i = 0; i < kBytes; ++i) {
      ASSERT_EQ(image[kDest + i], static_cast<uint8_t>(~source[i])) << "byte " << i;
    }
  }

  std::vector<uint8_t> image;
  std::vector<uint8_t> source;
};

}  // namespace cosim::test
