// Reference model of the xpm_fifo_sync stand-in, written from the behaviour
// its header and rtl/vendor/README.md document (UG974 plus the stand-in's
// latencies), with a std::deque for the words: what every output must show
// in a cycle, and what one clock edge does.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

namespace cosim::vendor_xpm_test {

struct FifoCfg {
  unsigned depth;           // FIFO_WRITE_DEPTH
  unsigned width;           // WRITE_DATA_WIDTH = READ_DATA_WIDTH
  bool fwft;                // READ_MODE
  unsigned latency;         // FIFO_READ_LATENCY (std)
  unsigned prog_full;       // PROG_FULL_THRESH
  unsigned prog_empty;      // PROG_EMPTY_THRESH
  unsigned wr_count_width;  // WR_DATA_COUNT_WIDTH
  unsigned rd_count_width;  // RD_DATA_COUNT_WIDTH
  unsigned adv;             // USE_ADV_FEATURES
  bool full_reset;          // FULL_RESET_VALUE
  uint64_t dout_reset;      // DOUT_RESET_VALUE
};

// The outputs of one cycle.
struct FifoOut {
  bool full, almost_full, prog_full, overflow, wr_ack, wr_rst_busy;
  bool empty, almost_empty, prog_empty, underflow, data_valid, rd_rst_busy;
  uint64_t wr_data_count, rd_data_count;
  uint64_t dout;
  bool dout_defined;  // fwft shows no particular word while empty
};

class FifoRef {
 public:
  explicit FifoRef(const FifoCfg& cfg) : cfg_(cfg), pipe_(cfg.fwft ? 0 : cfg.latency) {
    count_bits_ = 1;
    while ((1u << (count_bits_ - 1)) < cfg.depth) ++count_bits_;  // log2(depth) + 1
    reset();
    busy_ = false;  // the test resets first; this only makes the state defined
  }

  // Words held, as the counts and the programmable flags see them.
  unsigned count() const { return static_cast<unsigned>(mem_.size() + out_.size()); }
  unsigned capacity() const { return cfg_.depth + (cfg_.fwft ? 2 : 0); }
  const FifoCfg& cfg() const { return cfg_; }

  FifoOut outputs() const {
    const auto on = [this](unsigned bit) { return ((cfg_.adv >> bit) & 1u) != 0; };
    FifoOut o{};
    const unsigned n = count();
    const bool mem_full = mem_.size() == cfg_.depth;
    o.full = busy_ ? cfg_.full_reset : mem_full;
    o.almost_full = on(3) && (busy_ ? cfg_.full_reset : mem_.size() + 1 >= cfg_.depth);
    o.prog_full = on(1) && (busy_ ? cfg_.full_reset : n >= cfg_.prog_full);
    o.wr_data_count = on(2) ? fit(n, cfg_.wr_count_width) : 0;
    o.overflow = on(0) && overflow_;
    o.wr_ack = on(4) && wr_ack_;
    o.wr_rst_busy = busy_;
    o.empty = cfg_.fwft ? out_.empty() : mem_.empty();
    o.almost_empty = on(11) && n <= 1;
    o.prog_empty = on(9) && n <= cfg_.prog_empty;
    o.rd_data_count = on(10) ? fit(n, cfg_.rd_count_width) : 0;
    o.underflow = on(8) && underflow_;
    o.rd_rst_busy = busy_;
    if (cfg_.fwft) {
      o.data_valid = on(12) && !out_.empty();
      o.dout_defined = !out_.empty();
      o.dout = out_.empty() ? 0 : out_.front();
    } else {
      o.data_valid = on(12) && pipe_.back().valid;
      o.dout_defined = true;
      o.dout = pipe_.back().data;
    }
    return o;
  }

  // One rising edge with these inputs.
  void edge(bool rst, bool wr_en, uint64_t din, bool rd_en) {
    if (rst) {
      reset();
      return;
    }
    const bool was_full = mem_.size() == cfg_.depth;
    const bool writes = wr_en && !busy_ && !was_full;
    if (cfg_.fwft) {
      const bool was_empty = out_.empty();
      if (rd_en && !busy_ && !was_empty) out_.pop_front();
      // The memory refills the two output registers, one word an edge.
      if (!busy_ && !mem_.empty() && out_.size() < 2) {
        out_.push_back(mem_.front());
        mem_.pop_front();
      }
      underflow_ = rd_en && !busy_ && was_empty;
    } else {
      const bool was_empty = mem_.empty();
      const bool reads = rd_en && !busy_ && !was_empty;
      for (std::size_t k = pipe_.size() - 1; k > 0; --k) {
        pipe_[k].valid = pipe_[k - 1].valid;
        if (pipe_[k - 1].valid) pipe_[k].data = pipe_[k - 1].data;
      }
      pipe_[0].valid = reads;
      if (reads) {
        pipe_[0].data = mem_.front();
        mem_.pop_front();
      }
      underflow_ = rd_en && !busy_ && was_empty;
    }
    if (writes) mem_.push_back(din & mask());
    wr_ack_ = writes;
    overflow_ = wr_en && !busy_ && was_full;
    busy_ = false;
  }

 private:
  struct Stage {
    bool valid = false;
    uint64_t data = 0;
  };

  void reset() {
    mem_.clear();
    out_.clear();
    for (auto& s : pipe_) s = Stage{false, cfg_.dout_reset};
    busy_ = true;
    wr_ack_ = overflow_ = underflow_ = false;
  }
  uint64_t mask() const { return cfg_.width >= 64 ? ~0ull : (1ull << cfg_.width) - 1; }
  // A count port narrower than log2(depth)+1 shows the top bits.
  uint64_t fit(unsigned n, unsigned width) const {
    return width >= count_bits_ ? n : (n >> (count_bits_ - width));
  }

  FifoCfg cfg_;
  unsigned count_bits_;
  std::deque<uint64_t> mem_;  // words in the memory array
  std::deque<uint64_t> out_;  // fwft: words in the output registers, front = dout
  std::vector<Stage> pipe_;   // std: the read pipeline, back = dout
  bool busy_ = false;
  bool wr_ack_ = false, overflow_ = false, underflow_ = false;
};

}  // namespace cosim::vendor_xpm_test
