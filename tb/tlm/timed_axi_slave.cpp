#include "tlm/timed_axi_slave.hpp"

namespace cosim::tb {

namespace {
Axi4SlaveConfig untimed(uint32_t data_bytes, uint32_t max_outstanding) {
  Axi4SlaveConfig c;
  c.data_bytes = data_bytes;
  c.max_outstanding = max_outstanding;
  return c;  // no latency, no bandwidth cap, no stalls: the DRAM target times
}

void quiet(Axi4Pins& p) {
  p.arready = false;
  p.rvalid = false;
  p.awready = false;
  p.wready = false;
  p.bvalid = false;
}
}  // namespace

TimedAxiSlave::TimedAxiSlave(TlmMemoryPort& port, uint32_t data_bytes, uint32_t max_outstanding)
    : port_(port), model_(port, untimed(data_bytes, max_outstanding)) {}

void TimedAxiSlave::absorb() {
  const uint64_t accesses = port_.stats().reads + port_.stats().writes;
  if (accesses == accesses_seen_) return;  // delay only comes with accesses
  const uint64_t delay = port_.take_delay_cycles();
  const uint64_t n = accesses - accesses_seen_;
  accesses_seen_ = accesses;
  if (delay > n) freeze_ += delay - n;
}

void TimedAxiSlave::drive(Axi4Pins& pins) {
  frozen_ = freeze_ > 0;
  if (!frozen_) {
    model_.drive(pins);  // may read memory for the next R beat
    absorb();
    frozen_ = freeze_ > 0;  // that beat waits for the memory
  }
  if (frozen_) quiet(pins);
}

void TimedAxiSlave::tick(const Axi4Pins& pins) {
  if (frozen_) {
    --freeze_;
    ++wait_cycles_;
    port_.note_waiting();
    return;
  }
  model_.tick(pins);  // may write memory for a W beat
  absorb();
}

std::string TimedAxiSlave::state() const {
  return std::string("AXI slave ") + (model_.idle() ? "idle" : "busy") + ", " + std::to_string(freeze_) +
         " memory wait cycles pending, " + std::to_string(model_.read_beats()) + " R / " +
         std::to_string(model_.write_beats()) + " W beats served";
}

}  // namespace cosim::tb
