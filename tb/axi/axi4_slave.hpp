// Cycle-level AXI4 slave in front of a MemoryPort, independent of any DUT.
//
// A DUT wrapper copies its master's pins into an Axi4Pins each cycle:
//
//   slave.drive(pins);                 // slave outputs for this cycle
//   pins -> DUT inputs; clk=0; eval    // DUT combinational outputs settle
//   DUT outputs -> pins
//   slave.tick(pins);                  // both sides see the same valid/ready
//   clk=1; eval                        // DUT registers update
//
// Supports INCR and FIXED bursts (WRAP is flagged as a protocol error and
// served as INCR), narrow and unaligned transfers, data widths up to 512 bits,
// in-order responses, a configurable read / write latency, a bandwidth limit
// in bytes per cycle, and seeded random de-assertion of the slave's ready and
// valid signals (valid, once raised, stays until the handshake). Memory errors
// answer SLVERR; protocol violations (4 KB crossing, bad WLAST, oversize beat)
// are recorded for tests to check.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "axi/memory_port.hpp"

namespace cosim::tb {

constexpr std::size_t kAxiMaxDataBytes = 64;

struct Axi4Pins {
  // Read address.
  bool arvalid = false;
  bool arready = false;  // slave
  uint64_t araddr = 0;
  uint8_t arlen = 0;
  uint8_t arsize = 0;
  uint8_t arburst = 1;
  uint32_t arid = 0;
  // Read data.
  bool rvalid = false;  // slave
  bool rready = false;
  std::array<uint8_t, kAxiMaxDataBytes> rdata{};  // slave; byte i = lane i
  uint8_t rresp = 0;                             // slave
  bool rlast = false;                            // slave
  uint32_t rid = 0;                              // slave
  // Write address.
  bool awvalid = false;
  bool awready = false;  // slave
  uint64_t awaddr = 0;
  uint8_t awlen = 0;
  uint8_t awsize = 0;
  uint8_t awburst = 1;
  uint32_t awid = 0;
  // Write data.
  bool wvalid = false;
  bool wready = false;  // slave
  std::array<uint8_t, kAxiMaxDataBytes> wdata{};
  uint64_t wstrb = 0;  // bit i = lane i
  bool wlast = false;
  // Write response.
  bool bvalid = false;  // slave
  bool bready = false;
  uint8_t bresp = 0;  // slave
  uint32_t bid = 0;   // slave
};

struct Axi4SlaveConfig {
  uint32_t data_bytes = 16;         // bus width in bytes: 1..64, power of two
  uint32_t read_latency = 0;        // extra cycles from AR handshake to first R beat
  uint32_t write_latency = 0;       // extra cycles from the last W beat to B
  uint32_t bytes_per_cycle = 0;     // bandwidth per direction; 0 = one beat per cycle
  double stall_probability = 0.0;   // per cycle, per channel
  uint64_t seed = 1;
  uint32_t max_outstanding = 8;     // per direction
};

class Axi4SlaveModel {
 public:
  Axi4SlaveModel(MemoryPort& mem, Axi4SlaveConfig cfg);

  void drive(Axi4Pins& pins);
  void tick(const Axi4Pins& pins);

  uint64_t cycle() const { return cycle_; }
  bool idle() const { return reads_.empty() && writes_.empty() && bresps_.empty(); }
  uint64_t read_beats() const { return read_beats_; }
  uint64_t write_beats() const { return write_beats_; }
  const std::vector<std::string>& protocol_errors() const { return protocol_errors_; }
  const std::vector<std::string>& access_errors() const { return access_errors_; }
  const Axi4SlaveConfig& config() const { return cfg_; }

 private:
  struct Burst {
    uint32_t id = 0;
    uint64_t addr = 0;
    uint32_t len = 0;  // beats - 1
    uint32_t size = 0;
    uint32_t burst = 1;
    uint32_t beat = 0;
    uint64_t ready_cycle = 0;
    bool error = false;
  };
  struct BResp {
    uint32_t id;
    uint8_t resp;
    uint64_t ready_cycle;
  };

  bool stall();
  uint64_t beat_addr(const Burst& b) const;
  void lanes(const Burst& b, uint32_t& lo, uint32_t& hi) const;
  // The burst an address channel (`ch`: "AR" or "AW") hands over, checked;
  // marked in error when its beats are wider than the bus.
  Burst accept_burst(uint32_t id, uint64_t addr, uint32_t len, uint32_t size, uint32_t burst, const char* ch);
  void check_burst(const Burst& b, const char* ch);
  void error(std::vector<std::string>& list, const std::string& msg);

  MemoryPort& mem_;
  Axi4SlaveConfig cfg_;
  uint64_t rng_;
  uint64_t cycle_ = 0;
  std::deque<Burst> reads_;
  std::deque<Burst> writes_;
  std::deque<BResp> bresps_;
  bool r_shown_ = false;  // an R beat is on the pins
  bool b_shown_ = false;
  uint64_t r_credit_ = 0, w_credit_ = 0;
  uint64_t read_beats_ = 0, write_beats_ = 0;
  std::vector<std::string> protocol_errors_;
  std::vector<std::string> access_errors_;
  Axi4Pins last_{};  // slave outputs driven this cycle
};

}  // namespace cosim::tb
