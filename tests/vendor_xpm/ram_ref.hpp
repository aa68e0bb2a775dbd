// Reference model of the xpm_memory_sdpram / xpm_memory_tdpram stand-ins,
// written from the behaviour their headers and rtl/vendor/README.md document
// (UG974 plus the stand-ins' choices for collisions): an array of words and,
// per port, the read pipeline (latch, middle registers, output register).
// Words are at most 64 bits here.
#pragma once

#include <cstdint>
#include <vector>

namespace cosim::vendor_xpm_test {

enum class WriteMode { NoChange, ReadFirst, WriteFirst };

struct RamPortCfg {
  bool write;           // the port writes (sdpram: A only)
  bool read;            // the port reads (sdpram: B only)
  unsigned byte_width;  // BYTE_WRITE_WIDTH_*
  unsigned latency;     // READ_LATENCY_*
  WriteMode mode;       // WRITE_MODE_*
  uint64_t rst_val;     // READ_RESET_VALUE_*
  bool async_rst;       // RST_MODE_* "ASYNC": reset at once, to zero
};

struct RamCfg {
  unsigned width;       // bits per word
  unsigned depth;       // MEMORY_SIZE / width
  RamPortCfg a, b;
  bool bypass_b;        // sdpram WRITE_MODE_B "write_first": B reads A's new word
  bool write_protect;   // WRITE_PROTECT 1: a write needs en
};

// One port's inputs in a cycle.
struct RamPortIn {
  bool en = false;
  unsigned we = 0;  // one bit per lane
  unsigned addr = 0;
  uint64_t din = 0;
  bool rst = false;
  bool regce = false;
};

// A port's output and whether the model knows it (registers start unknown).
struct RamPortOut {
  bool known;
  uint64_t dout;
};

class RamRef {
 public:
  RamRef(const RamCfg& cfg, std::vector<uint64_t> init) : cfg_(cfg), mem_(std::move(init)) {
    mem_.resize(cfg.depth, 0);
    port_[0].resize(cfg.a.latency);
    port_[1].resize(cfg.b.latency);
  }

  uint64_t word(unsigned addr) const { return addr < cfg_.depth ? mem_[addr] : 0; }

  // dout of port 0 (A) or 1 (B) for this cycle's inputs.
  RamPortOut dout(int p, const RamPortIn& in) const {
    const RamPortCfg& c = p == 0 ? cfg_.a : cfg_.b;
    if (c.latency == 0) return {true, word(in.addr)};
    if (c.async_rst && in.rst) return {true, 0};
    return {port_[p].out_known, port_[p].out};
  }

  // One edge of the common clock.
  void edge(const RamPortIn& a, const RamPortIn& b) { edge(a, b, true, true); }

  // CLOCKING_MODE "independent_clock": an edge of port A's clock (clk_a), of
  // port B's (clk_b) or of both at one instant; a port whose clock does not
  // rise does nothing. A read takes the array from before the instant.
  void edge(const RamPortIn& a, const RamPortIn& b, bool clk_a, bool clk_b) {
    const uint64_t old_a = word(a.addr), old_b = word(b.addr);
    const bool we_a = cfg_.a.write && a.we != 0, we_b = cfg_.b.write && b.we != 0;
    const uint64_t new_a = merge(old_a, a.din, a.we, cfg_.a.byte_width);
    const uint64_t new_b = merge(old_b, b.din, b.we, cfg_.b.byte_width);
    const bool wr_a = clk_a && we_a && (a.en || !cfg_.write_protect) && a.addr < cfg_.depth;
    const bool wr_b = clk_b && we_b && (b.en || !cfg_.write_protect) && b.addr < cfg_.depth;

    // What each read latch takes.
    const bool load_a = a.en && (!we_a || cfg_.a.mode != WriteMode::NoChange);
    const uint64_t latch_a = (we_a && cfg_.a.mode == WriteMode::WriteFirst) ? new_a : old_a;
    const bool load_b = b.en && (!we_b || cfg_.b.mode != WriteMode::NoChange);
    uint64_t latch_b = (we_b && cfg_.b.mode == WriteMode::WriteFirst) ? new_b : old_b;
    if (cfg_.bypass_b && !we_b && wr_a && b.addr < cfg_.depth && a.addr == b.addr) latch_b = new_a;

    if (cfg_.a.read && clk_a) clock_port(0, cfg_.a, a, load_a, latch_a);
    if (cfg_.b.read && clk_b) clock_port(1, cfg_.b, b, load_b, latch_b);
    // An asynchronous reset between a port's edges clears its output register
    // all the same, and it stays clear until the port's next edge.
    if (cfg_.a.read && !clk_a) async_reset(0, cfg_.a, a);
    if (cfg_.b.read && !clk_b) async_reset(1, cfg_.b, b);

    if (wr_a) mem_[a.addr] = new_a;
    if (wr_b) mem_[b.addr] = merge(mem_[b.addr], b.din, b.we, cfg_.b.byte_width);  // B's lanes last
  }

 private:
  struct Port {
    uint64_t out = 0;
    bool out_known = false;
    std::vector<uint64_t> stage;  // 0: the latch, then the middle registers
    std::vector<bool> stage_known;
    std::vector<bool> en_d;  // en_d[k]: en k + 1 edges ago
    void resize(unsigned latency) {
      const unsigned n = latency >= 2 ? latency - 1 : 0;
      stage.assign(n, 0);
      stage_known.assign(n, false);
      en_d.assign(n, false);
    }
  };

  uint64_t merge(uint64_t old, uint64_t din, unsigned we, unsigned byte_width) const {
    const unsigned lanes = cfg_.width / byte_width;
    for (unsigned i = 0; i < lanes; ++i) {
      if ((we >> i) & 1u) {
        const uint64_t m = (byte_width >= 64 ? ~0ull : ((1ull << byte_width) - 1)) << (i * byte_width);
        old = (old & ~m) | (din & m);
      }
    }
    return old;
  }

  void async_reset(int p, const RamPortCfg& c, const RamPortIn& in) {
    if (c.async_rst && in.rst && c.latency > 0) port_[p].out = 0, port_[p].out_known = true;
  }

  void clock_port(int p, const RamPortCfg& c, const RamPortIn& in, bool load, uint64_t latch) {
    Port& s = port_[p];
    const uint64_t rst_val = c.async_rst ? 0 : c.rst_val;
    if (c.latency == 0) return;
    if (c.latency == 1) {
      if (in.rst) {
        s.out = rst_val, s.out_known = true;
      } else if (load) {
        s.out = latch, s.out_known = true;
      }
      return;
    }
    const std::size_t last = c.latency - 2;  // the register before the output
    if (in.rst) {
      s.out = rst_val, s.out_known = true;
    } else if (in.regce) {
      s.out = s.stage[last], s.out_known = s.stage_known[last];
    }
    for (std::size_t k = last; k >= 1; --k) {
      if (s.en_d[k - 1]) s.stage[k] = s.stage[k - 1], s.stage_known[k] = s.stage_known[k - 1];
    }
    if (load) s.stage[0] = latch, s.stage_known[0] = true;
    for (std::size_t k = last; k >= 1; --k) s.en_d[k] = s.en_d[k - 1];
    s.en_d[0] = in.en;
  }

  RamCfg cfg_;
  std::vector<uint64_t> mem_;
  Port port_[2];
};

}  // namespace cosim::vendor_xpm_test
