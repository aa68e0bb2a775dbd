// Reference of the xpm_fifo_async stand-in's documented behaviour (its
// header and rtl/vendor/README.md), event by event on both clocks; used by
// xpm_fifo_async's test and by xpm_fifo_axis's with CLOCKING_MODE
// "independent_clock".
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <sstream>
#include <string>
#include <vector>

#include "fifo_ref.hpp"
#include "xpm_tb.hpp"

namespace cosim::vendor_xpm_test {

// The parameters as xpm_fifo_sync's test has them (FifoCfg), and what the
// second clock adds.
struct AsyncCfg : FifoCfg {
  unsigned stages;        // CDC_SYNC_STAGES
  bool sim_assert_error;  // SIM_ASSERT_CHK 1, EN_SIM_ASSERT_ERR "error"

  // The documented effective depth: the memory holds depth - 1 words, fwft
  // adds its two output registers.
  unsigned capacity() const { return fwft ? depth + 1 : depth - 1; }
  uint64_t mask() const { return width >= 64 ? ~0ull : (1ull << width) - 1; }
  bool adv_on(unsigned bit) const { return ((adv >> bit) & 1u) != 0; }
  // A count port narrower than log2(depth)+1 bits shows the top bits.
  uint64_t fit(uint64_t n, unsigned port_width) const {
    unsigned bits = 1;
    while ((1u << (bits - 1)) < depth) ++bits;
    return port_width >= bits ? n : n >> (bits - port_width);
  }
};

// The ports of one side, as read after settle().
struct WrOut {
  bool full, almost_full, prog_full, overflow, wr_ack, wr_rst_busy;
  uint64_t wr_data_count;
};
struct RdOut {
  bool empty, almost_empty, prog_empty, underflow, data_valid, rd_rst_busy;
  uint64_t rd_data_count, dout;
};

template <class M>
WrOut wr_out(const M& d) {
  return WrOut{static_cast<bool>(d.full),     static_cast<bool>(d.almost_full),
               static_cast<bool>(d.prog_full), static_cast<bool>(d.overflow),
               static_cast<bool>(d.wr_ack),   static_cast<bool>(d.wr_rst_busy),
               static_cast<uint64_t>(d.wr_data_count)};
}
template <class M>
RdOut rd_out(const M& d) {
  return RdOut{static_cast<bool>(d.empty),      static_cast<bool>(d.almost_empty),
               static_cast<bool>(d.prog_empty), static_cast<bool>(d.underflow),
               static_cast<bool>(d.data_valid), static_cast<bool>(d.rd_rst_busy),
               static_cast<uint64_t>(d.rd_data_count), static_cast<uint64_t>(d.dout)};
}

// Reference of the stand-in's documented behaviour, event by event. It keeps
// the time of every write stored, every word taken from the memory (fwft:
// into the output registers) and every read since the FIFO was last emptied;
// a side sees the other's events from before the instant its synchroniser
// sampled them (EdgeTimes::sample_time). The busy flags are read from the
// FIFO and checked against the handshake's rules: wr_rst_busy from the edge
// after rst; rd_rst_busy rising exactly after the CDC_SYNC_STAGES-th rd_clk
// edge after that rst edge; wr_rst_busy falling only after the read side has
// emptied.
class AsyncCheck {
 public:
  explicit AsyncCheck(const AsyncCfg& c) : cfg_(c) {}

  // What the write side must show, and the mismatches ("" when none).
  std::string check_wr(const WrOut& o) const {
    std::ostringstream bad;
    const auto cmp = [&bad](const char* name, uint64_t want, uint64_t got) {
      if (want != got) bad << " " << name << "=" << got << " (want " << want << ")";
    };
    if (rst_edge_seen_ && !o.wr_rst_busy) bad << " wr_rst_busy=0 after an rst edge (want 1)";
    if ((rd_reset_ == RdReset::kRequested || rd_reset_ == RdReset::kArrived) && !o.wr_rst_busy)
      bad << " wr_rst_busy=0 before the read side has emptied";
    if (o.wr_rst_busy) {
      const bool fr = cfg_.full_reset;
      cmp("full (busy)", fr, o.full);
      cmp("almost_full (busy)", cfg_.adv_on(3) && fr, o.almost_full);
      cmp("prog_full (busy)", cfg_.adv_on(1) && fr, o.prog_full);
      cmp("wr_data_count (busy)", 0, o.wr_data_count);
    } else {
      const uint64_t t = wr_edges_.sample_time(cfg_.stages);
      const uint64_t mem_used = stored_.size() - before(taken_, t);
      const uint64_t count = stored_.size() - before(popped_, t);
      if (count < words_.size()) bad << " model: the write side counts fewer words than are held";
      cmp("full", mem_used >= cfg_.depth - 1, o.full);
      cmp("almost_full", cfg_.adv_on(3) && mem_used + 2 >= cfg_.depth, o.almost_full);
      cmp("prog_full", cfg_.adv_on(1) && count >= cfg_.prog_full, o.prog_full);
      cmp("wr_data_count", cfg_.adv_on(2) ? cfg_.fit(count, cfg_.wr_count_width) : 0, o.wr_data_count);
    }
    cmp("overflow", cfg_.adv_on(0) && overflow_, o.overflow);
    cmp("wr_ack", cfg_.adv_on(4) && wr_ack_, o.wr_ack);
    return bad.str();
  }

  // What the read side must show. Also notes the reset arriving (rd_rst_busy
  // rising), which must happen exactly when the request has crossed.
  std::string check_rd(const RdOut& o) {
    std::ostringstream bad;
    const auto cmp = [&bad](const char* name, uint64_t want, uint64_t got) {
      if (want != got) bad << " " << name << "=" << got << " (want " << want << ")";
    };
    const uint64_t t = rd_edges_.sample_time(cfg_.stages);
    if (rd_reset_ == RdReset::kRequested) {
      const bool arrived = t > rst_time_;
      cmp("rd_rst_busy (request crossing)", arrived, o.rd_rst_busy);
      if (arrived) rd_reset_ = RdReset::kArrived;
    } else if (rd_reset_ == RdReset::kNone || rd_reset_ == RdReset::kDone) {
      cmp("rd_rst_busy (no reset)", 0, o.rd_rst_busy);
    } else if (rd_reset_ == RdReset::kBusy && !o.rd_rst_busy) {
      rd_reset_ = RdReset::kDone;
    }
    if (o.rd_rst_busy) {
      cmp("empty (busy)", 1, o.empty);
      cmp("almost_empty (busy)", cfg_.adv_on(11), o.almost_empty);
      cmp("prog_empty (busy)", cfg_.adv_on(9), o.prog_empty);
      cmp("rd_data_count (busy)", 0, o.rd_data_count);
      if (cfg_.fwft) cmp("data_valid (busy)", 0, o.data_valid);
    } else {
      const uint64_t seen = before(stored_, t);
      const uint64_t count = seen - popped_.size();
      if (count > words_.size()) bad << " model: the read side counts more words than are held";
      const bool empty = cfg_.fwft ? out_regs_ == 0 : seen == taken_.size();
      cmp("empty", empty, o.empty);
      cmp("almost_empty", cfg_.adv_on(11) && count <= 1, o.almost_empty);
      cmp("prog_empty", cfg_.adv_on(9) && count <= cfg_.prog_empty, o.prog_empty);
      cmp("rd_data_count", cfg_.adv_on(10) ? cfg_.fit(count, cfg_.rd_count_width) : 0, o.rd_data_count);
      if (cfg_.fwft) {
        cmp("data_valid", cfg_.adv_on(12) && !empty, o.data_valid);
        if (!empty) cmp("dout (the oldest word)", words_.front(), o.dout);
      }
    }
    if (!cfg_.fwft) {
      cmp("data_valid", cfg_.adv_on(12) && delivered_, o.data_valid);
      cmp("dout", dout_, o.dout);
    }
    cmp("underflow", cfg_.adv_on(8) && underflow_, o.underflow);
    return bad.str();
  }

  // A wr_clk edge at time t with these inputs and the outputs settled before it.
  void wr_edge(uint64_t t, bool rst, bool wr_en, uint64_t din, const WrOut& o) {
    const bool busy = o.wr_rst_busy;
    if (rst) {
      if (rd_reset_ == RdReset::kNone || rd_reset_ == RdReset::kDone) {
        rd_reset_ = RdReset::kRequested;
        rst_time_ = t;
        ++resets_;
      }
      rst_edge_seen_ = true;
      overflow_ = wr_ack_ = false;
    } else {
      rst_edge_seen_ = false;
      const bool store = wr_en && !o.full && !busy;
      if (store) {
        ++writes_;
        stored_.push_back(t);
        words_.push_back(din & cfg_.mask());
        if (words_.size() > cfg_.capacity()) ++overfilled_;
      }
      overflow_ = wr_en && o.full && !busy;
      wr_ack_ = store;
      overflows_ += overflow_;
      full_cycles_ += o.full && !busy;
    }
    wr_edges_.add(t);
  }

  // An rd_clk edge at time t with rd_en and the outputs settled before it.
  void rd_edge(uint64_t t, bool rd_en, const RdOut& o) {
    if (o.rd_rst_busy) {
      // The read side empties on its first busy edge; writes may follow
      // before its last one (the write side can finish first).
      if (rd_reset_ == RdReset::kArrived) {
        discarded_ += words_.size();
        stored_.clear();
        taken_.clear();
        popped_.clear();
        words_.clear();
        pipe_.clear();
        out_regs_ = 0;
        dout_ = cfg_.dout_reset;
        delivered_ = false;
        rd_reset_ = RdReset::kBusy;
      }
      underflow_ = false;
      rd_edges_.add(t);
      return;
    }
    const uint64_t seen = before(stored_, rd_edges_.sample_time(cfg_.stages));
    const uint64_t in_memory = seen - taken_.size();
    if (cfg_.fwft) {
      const bool pop = rd_en && out_regs_ > 0;
      underflow_ = rd_en && out_regs_ == 0;
      if (pop) take_word(t, o.dout);
      const unsigned keep = out_regs_ - (pop ? 1 : 0);
      out_regs_ = keep;
      if (in_memory > 0 && keep < 2) {
        taken_.push_back(t);
        ++out_regs_;
      }
    } else {
      const bool read = rd_en && in_memory > 0;
      underflow_ = rd_en && in_memory == 0;
      ++rd_index_;
      if (read) {
        pipe_.push_back(InFlight{rd_index_ + cfg_.latency - 1, words_.front()});
        taken_.push_back(t);
        take_word(t, words_.front());
      }
      delivered_ = !pipe_.empty() && pipe_.front().due == rd_index_;
      if (delivered_) {
        dout_ = pipe_.front().word;
        pipe_.pop_front();
      }
    }
    empty_cycles_ += o.empty;
    underflows_ += underflow_;
    rd_edges_.add(t);
  }

  // The FIFO's state is unknown until the first reset is through: start
  // afresh (empty, dout at its reset value) once both sides are ready.
  void restart() {
    *this = AsyncCheck(cfg_);
    dout_ = cfg_.dout_reset;
  }

  bool reset_in_progress() const { return rd_reset_ != RdReset::kNone && rd_reset_ != RdReset::kDone; }
  std::size_t held() const { return words_.size(); }

  // What the traffic reached.
  unsigned writes_ = 0, reads_ = 0, resets_ = 0, overfilled_ = 0;
  unsigned full_cycles_ = 0, empty_cycles_ = 0, overflows_ = 0, underflows_ = 0;
  std::size_t discarded_ = 0;
  std::string order_errors_;  // a word read out of order

 private:
  enum class RdReset { kNone, kRequested, kArrived, kBusy, kDone };
  struct InFlight {
    uint64_t due;  // the rd_clk edge (index) after which it is on dout
    uint64_t word;
  };

  // Events of `times` before instant t.
  static uint64_t before(const std::vector<uint64_t>& times, uint64_t t) {
    return static_cast<uint64_t>(std::lower_bound(times.begin(), times.end(), t) - times.begin());
  }
  // A read takes the oldest word; `got` is what the FIFO gives for it (fwft:
  // dout before the edge; std: the word checked on dout later).
  void take_word(uint64_t t, uint64_t got) {
    if (words_.empty()) {
      order_errors_ += " a read with no word held;";
      return;
    }
    if (got != words_.front()) {
      std::ostringstream m;
      m << " read " << got << " at " << t << ", want " << words_.front() << ";";
      order_errors_ += m.str();
    }
    words_.pop_front();
    popped_.push_back(t);
    ++reads_;
  }

  AsyncCfg cfg_;
  EdgeTimes wr_edges_, rd_edges_;
  std::vector<uint64_t> stored_, taken_, popped_;  // event times since the FIFO was emptied
  std::deque<uint64_t> words_;                     // stored and not yet read, oldest first
  std::deque<InFlight> pipe_;                      // std: read, on the way to dout
  unsigned out_regs_ = 0;                          // fwft: words in the output registers
  uint64_t rd_index_ = 0, dout_ = 0;
  bool delivered_ = false, underflow_ = false, overflow_ = false, wr_ack_ = false;
  bool rst_edge_seen_ = false;
  RdReset rd_reset_ = RdReset::kNone;
  uint64_t rst_time_ = 0;
};

}  // namespace cosim::vendor_xpm_test
