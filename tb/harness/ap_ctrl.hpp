// The Vitis kernel control map (ap_ctrl_hs / ap_ctrl_chain), which an RTL
// kernel exposes on its AXI4-Lite control port, and the host's "wait until
// done" over it: what XRT does after setting ap_start, polling CTRL until
// ap_done (which clears on read), and for ap_ctrl_chain acknowledging the
// output with ap_continue.
#pragma once

#include <cstdint>

namespace cosim::tb::harness::ap_ctrl {

// Byte offsets.
constexpr uint32_t kCtrl = 0x00;  // ap_start, ap_done, ap_idle, ap_ready, ap_continue, auto_restart
constexpr uint32_t kGie = 0x04;   // bit 0: global interrupt enable
constexpr uint32_t kIer = 0x08;   // bit 0: ap_done, bit 1: ap_ready interrupt enable
constexpr uint32_t kIsr = 0x0c;   // bit 0: ap_done, bit 1: ap_ready interrupt status; toggle on write
constexpr uint32_t kArgs = 0x10;  // the kernel's arguments from here
// CTRL bits.
constexpr uint32_t kApStart = 1u << 0;      // write 1: start; clears when the kernel takes it (ap_ready)
constexpr uint32_t kApDone = 1u << 1;       // clear on read
constexpr uint32_t kApIdle = 1u << 2;       // read only
constexpr uint32_t kApReady = 1u << 3;      // clear on read
constexpr uint32_t kApContinue = 1u << 4;   // ap_ctrl_chain: write 1 to release the output
constexpr uint32_t kAutoRestart = 1u << 7;  // restart after each run

// Reads CTRL while `more()` (the cycle budget) allows, until ap_done; with
// `chain`, then writes ap_continue. True when done was seen.
template <class More, class Read, class Write>
bool wait_done(bool chain, More&& more, Read&& read, Write&& write) {
  while (more()) {
    if (read(kCtrl) & kApDone) {
      if (chain) write(kCtrl, kApContinue);
      return true;
    }
  }
  return false;
}

}  // namespace cosim::tb::harness::ap_ctrl
