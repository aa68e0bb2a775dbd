#include "axi/axi4_slave.hpp"

#include <algorithm>
#include <stdexcept>

#include "common/error.hpp"
#include "common/text.hpp"

namespace cosim::tb {

namespace {
constexpr uint8_t kRespOkay = 0;
constexpr uint8_t kRespSlvErr = 2;
constexpr std::size_t kMaxErrors = 16;  // keep reports short

}  // namespace

Axi4SlaveModel::Axi4SlaveModel(MemoryPort& mem, Axi4SlaveConfig cfg) : mem_(mem), cfg_(cfg) {
  const uint32_t db = cfg_.data_bytes;
  if (db == 0 || db > kAxiMaxDataBytes || (db & (db - 1)) != 0) {
    throw cosim::InputError("AXI slave: data_bytes must be a power of two in 1..64, got " + std::to_string(db));
  }
  if (!(cfg_.stall_probability >= 0.0 && cfg_.stall_probability < 1.0)) {
    throw cosim::InputError("AXI slave: stall_probability must be in [0, 1)");
  }
  if (cfg_.max_outstanding == 0) cfg_.max_outstanding = 1;
  // splitmix64 seeding: any seed (also 0) gives a usable xorshift state.
  uint64_t z = cfg_.seed + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  rng_ = (z ^ (z >> 31)) | 1;
  r_credit_ = w_credit_ = cfg_.data_bytes;
}

bool Axi4SlaveModel::stall() {
  if (cfg_.stall_probability <= 0.0) return false;
  // xorshift64*: fixed algorithm, so runs are identical across libraries.
  rng_ ^= rng_ >> 12;
  rng_ ^= rng_ << 25;
  rng_ ^= rng_ >> 27;
  const uint64_t r = rng_ * 0x2545f4914f6cdd1dULL;
  const double u = static_cast<double>(r >> 11) * (1.0 / 9007199254740992.0);
  return u < cfg_.stall_probability;
}

void Axi4SlaveModel::error(std::vector<std::string>& list, const std::string& msg) {
  if (list.size() < kMaxErrors) list.push_back("cycle " + std::to_string(cycle_) + ": " + msg);
}

uint64_t Axi4SlaveModel::beat_addr(const Burst& b) const {
  const uint64_t n = 1ULL << b.size;
  if (b.burst == 0 || b.beat == 0) return b.addr;  // FIXED, or the first beat
  return (b.addr & ~(n - 1)) + static_cast<uint64_t>(b.beat) * n;
}

// Byte lanes [lo, hi) carrying this beat.
void Axi4SlaveModel::lanes(const Burst& b, uint32_t& lo, uint32_t& hi) const {
  const uint64_t a = beat_addr(b);
  const uint64_t n = 1ULL << b.size;
  const uint64_t end = (a & ~(n - 1)) + n;  // next size boundary
  lo = static_cast<uint32_t>(a % cfg_.data_bytes);
  hi = lo + static_cast<uint32_t>(end - a);
}

Axi4SlaveModel::Burst Axi4SlaveModel::accept_burst(uint32_t id, uint64_t addr, uint32_t len, uint32_t size,
                                                    uint32_t burst, const char* ch) {
  Burst b{id, addr, len, size, burst};
  check_burst(b, ch);
  if ((1u << b.size) > cfg_.data_bytes) b.error = true;
  return b;
}

void Axi4SlaveModel::check_burst(const Burst& b, const char* ch) {
  const uint64_t n = 1ULL << b.size;
  if (n > cfg_.data_bytes) {
    error(protocol_errors_, std::string(ch) + " size " + std::to_string(n) + " bytes wider than the bus");
  }
  if (b.burst == 2) error(protocol_errors_, std::string(ch) + " WRAP burst not supported");
  if (b.burst == 3) error(protocol_errors_, std::string(ch) + " reserved burst type");
  if (b.burst == 1) {
    const uint64_t first = b.addr;
    const uint64_t last = (b.addr & ~(n - 1)) + static_cast<uint64_t>(b.len) * n + (n - 1);
    if ((first >> 12) != (last >> 12)) {
      error(protocol_errors_, std::string(ch) + " burst at " + hex(b.addr) + " with " + std::to_string(b.len + 1) +
                                  " beats crosses a 4 KB boundary");
    }
  }
}

void Axi4SlaveModel::drive(Axi4Pins& p) {
  // Read address.
  p.arready = reads_.size() < cfg_.max_outstanding && !stall();

  // Read data: keep a shown beat until it is taken.
  if (!r_shown_ && !reads_.empty()) {
    Burst& b = reads_.front();
    const bool bw_ok = cfg_.bytes_per_cycle == 0 || r_credit_ >= cfg_.data_bytes;
    if (cycle_ >= b.ready_cycle && bw_ok && !stall()) {
      uint32_t lo = 0, hi = 0;
      lanes(b, lo, hi);
      std::fill(last_.rdata.begin(), last_.rdata.end(), 0);
      uint8_t resp = b.error ? kRespSlvErr : kRespOkay;
      if (!b.error && hi <= cfg_.data_bytes) {
        try {
          mem_.read(beat_addr(b), last_.rdata.data() + lo, hi - lo);
        } catch (const std::exception& e) {
          error(access_errors_, std::string("read: ") + e.what());
          b.error = true;
          resp = kRespSlvErr;
        }
      }
      last_.rresp = resp;
      last_.rlast = (b.beat == b.len);
      last_.rid = b.id;
      r_shown_ = true;
    }
  }
  p.rvalid = r_shown_;
  if (r_shown_) {
    p.rdata = last_.rdata;
    p.rresp = last_.rresp;
    p.rlast = last_.rlast;
    p.rid = last_.rid;
  }

  // Write address and data: W is taken only for a burst whose AW arrived.
  p.awready = writes_.size() < cfg_.max_outstanding && !stall();
  const bool w_bw_ok = cfg_.bytes_per_cycle == 0 || w_credit_ >= cfg_.data_bytes;
  p.wready = !writes_.empty() && w_bw_ok && !stall();

  // Write response.
  if (!b_shown_ && !bresps_.empty() && cycle_ >= bresps_.front().ready_cycle && !stall()) {
    b_shown_ = true;
  }
  p.bvalid = b_shown_;
  if (b_shown_) {
    p.bresp = bresps_.front().resp;
    p.bid = bresps_.front().id;
  }
  last_.arready = p.arready;
  last_.awready = p.awready;
  last_.wready = p.wready;
}

void Axi4SlaveModel::tick(const Axi4Pins& p) {
  // AR.
  if (p.arvalid && last_.arready) {
    Burst b = accept_burst(p.arid, p.araddr, p.arlen, p.arsize, p.arburst, "AR");
    b.ready_cycle = cycle_ + 1 + cfg_.read_latency;
    reads_.push_back(b);
  }
  // R.
  if (r_shown_ && p.rready) {
    r_shown_ = false;
    ++read_beats_;
    if (cfg_.bytes_per_cycle != 0) r_credit_ -= cfg_.data_bytes;
    Burst& b = reads_.front();
    if (b.beat == b.len) {
      reads_.pop_front();
    } else {
      ++b.beat;
    }
  }
  // AW.
  if (p.awvalid && last_.awready) {
    writes_.push_back(accept_burst(p.awid, p.awaddr, p.awlen, p.awsize, p.awburst, "AW"));
  }
  // W (the burst existed when wready was driven).
  if (p.wvalid && last_.wready) {
    Burst& b = writes_.front();
    ++write_beats_;
    if (cfg_.bytes_per_cycle != 0) w_credit_ -= cfg_.data_bytes;
    const bool last = (b.beat == b.len);
    if (p.wlast != last) {
      error(protocol_errors_, "W: WLAST " + std::string(p.wlast ? "set" : "missing") + " on beat " +
                                  std::to_string(b.beat) + " of a " + std::to_string(b.len + 1) + "-beat burst");
    }
    if (!b.error) {
      uint32_t lo = 0, hi = 0;
      lanes(b, lo, hi);
      std::array<uint8_t, kAxiMaxDataBytes> strobe{};
      for (uint32_t i = lo; i < hi; ++i) strobe[i] = static_cast<uint8_t>((p.wstrb >> i) & 1u);
      try {
        mem_.write(beat_addr(b), p.wdata.data() + lo, hi - lo, strobe.data() + lo);
      } catch (const std::exception& e) {
        error(access_errors_, std::string("write: ") + e.what());
        b.error = true;
      }
    }
    if (last) {
      bresps_.push_back({b.id, b.error ? kRespSlvErr : kRespOkay, cycle_ + 1 + cfg_.write_latency});
      writes_.pop_front();
    } else {
      ++b.beat;
    }
  }
  // B.
  if (b_shown_ && p.bready) {
    b_shown_ = false;
    bresps_.pop_front();
  }
  // Bandwidth credits refill (capped at one beat: no bursts above the rate).
  if (cfg_.bytes_per_cycle != 0) {
    r_credit_ = std::min<uint64_t>(r_credit_ + cfg_.bytes_per_cycle, cfg_.data_bytes);
    w_credit_ = std::min<uint64_t>(w_credit_ + cfg_.bytes_per_cycle, cfg_.data_bytes);
  }
  ++cycle_;
}

}  // namespace cosim::tb
