#include "axis/axis_dma.hpp"

#include <algorithm>
#include <string>

#include "common/error.hpp"

namespace cosim::tb::axis {

void Mm2sDma::start(uint64_t addr, uint64_t bytes) {
  if (busy()) throw InputError("axis mm2s: start while a transfer is running");
  if (bytes == 0) throw InputError("axis mm2s: zero-length transfer at " + std::to_string(addr));
  inline_.clear();
  addr_ = addr;
  remaining_ = bytes;
}

void Mm2sDma::start_inline(std::vector<uint8_t> bytes) {
  if (busy()) throw InputError("axis mm2s: start while a transfer is running");
  if (bytes.empty()) throw InputError("axis mm2s: zero-length inline transfer");
  remaining_ = bytes.size();
  inline_ = std::move(bytes);
  addr_ = 0;
}

void Mm2sDma::push(const Beat& b) {
  if (hook_) hook_(b);
  source_.push(b);
}

void Mm2sDma::drive(Pins& p) {
  if (wait_ > 0) {
    --wait_;
  } else if (!holding_ && remaining_ > 0 && source_.idle()) {
    // Fetch one beat ahead, as a DMA's read side would.
    uint8_t buf[8] = {0};
    const uint64_t n = std::min<uint64_t>(8, remaining_);
    uint64_t cost = 1;
    if (!inline_.empty()) {
      std::copy_n(inline_.end() - static_cast<std::ptrdiff_t>(remaining_), n, buf);
    } else {
      mem_.read(addr_, buf, n);
      if (delay_) cost = std::max<uint64_t>(1, delay_());
    }
    uint64_t data = 0;
    for (int i = 7; i >= 0; --i) data = (data << 8) | buf[i];
    addr_ += n;
    remaining_ -= n;
    held_ = Beat{data, remaining_ == 0};
    holding_ = true;
    wait_ = cost - 1;
    if (remaining_ == 0) inline_.clear();
  }
  if (holding_ && wait_ == 0) {
    push(held_);
    holding_ = false;
  }
  source_.drive(p);
}

void S2mmDma::start(uint64_t addr, uint64_t max_bytes) {
  if (active_) throw InputError("axis s2mm: start while a transfer is running");
  active_ = true;
  addr_ = addr;
  max_ = max_bytes;
  written_ = 0;
}

void S2mmDma::drive(Pins& p) {
  if (active_ && wait_ == 0) {
    sink_.drive(p);
  } else {
    if (wait_ > 0) --wait_;
    p.tready = false;
  }
}

void S2mmDma::update(const Pins& p) {
  if (!active_ || !p.fire()) return;
  if (written_ + 8 > max_)
    throw ProtocolError("axis s2mm: packet longer than the " + std::to_string(max_) + "-byte buffer at " +
                        std::to_string(addr_));
  uint8_t buf[8];
  for (int i = 0; i < 8; ++i) buf[i] = uint8_t(p.tdata >> (8 * i));
  mem_.write(addr_ + written_, buf, 8, nullptr);
  written_ += 8;
  if (delay_) wait_ = std::max<uint64_t>(1, delay_()) - 1;
  if (p.tlast) active_ = false;
}

}  // namespace cosim::tb::axis
