#include "support/vta_random_program.hpp"

#include <algorithm>
#include <array>
#include <deque>
#include <random>
#include <sstream>
#include <stdexcept>

#include "vta/functional_model.hpp"

namespace cosim::vta {

namespace {

// ---- access sets ------------------------------------------------------------
enum Space { kSpInp = 0, kSpWgt = 1, kSpAcc = 2, kSpDram = 3, kSpaces = 4 };

struct Ranges {
  std::vector<std::pair<uint64_t, uint64_t>> r;  // [lo, hi)
  void add(uint64_t lo, uint64_t hi) {
    if (lo >= hi) return;
    if (!r.empty() && r.back().second == lo) {
      r.back().second = hi;
      return;
    }
    r.emplace_back(lo, hi);
  }
  bool overlaps(const Ranges& o) const {
    for (const auto& a : r) {
      for (const auto& b : o.r) {
        if (a.first < b.second && b.first < a.second) return true;
      }
    }
    return false;
  }
};

struct Access {
  std::array<Ranges, kSpaces> reads, writes;
  bool conflicts(const Access& o) const {
    for (int s = 0; s < kSpaces; ++s) {
      if (writes[s].overlaps(o.writes[s]) || writes[s].overlaps(o.reads[s]) || reads[s].overlaps(o.writes[s])) {
        return true;
      }
    }
    return false;
  }
};

using Clock = std::array<int, 3>;  // highest sequence number per engine known to happen before

Clock merge(const Clock& a, const Clock& b) {
  return {std::max(a[0], b[0]), std::max(a[1], b[1]), std::max(a[2], b[2])};
}

constexpr int L = 0, C = 1, S = 2;

struct Win {
  uint32_t lo = 0, hi = 0;
};

// Layout of the generated DRAM image.
constexpr uint64_t kUopAreaBytes = 16 * 1024;
constexpr uint64_t kDataAreaBytes = 48 * 1024;
constexpr uint64_t kOutAreaBytes = 8 * 1024;

class Generator {
 public:
  Generator(uint64_t seed, const RandomProgramOptions& opt) : rng_(seed), opt_(opt) {
    for (auto& row : hb_) row = {-1, -1, -1};
  }

  RandomProgram run(uint64_t seed);

 private:
  // -- randomness
  uint32_t uni(uint32_t lo, uint32_t hi) { return std::uniform_int_distribution<uint32_t>(lo, hi)(rng_); }
  bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }

  // -- emission and ordering
  void append(Insn insn, const std::vector<Queue>& pops, const Access& acc);
  void emit(Insn insn, const Access& acc);
  void make_push(int from, int to);
  void noop(int e, const std::vector<Queue>& pops);
  Insn noop_insn(int e);

  // -- steps
  void step_load(MemType type);
  void step_store();
  void step_gemm();
  void step_alu();
  void step_sync();
  void step_fill(MemType type);
  void step_spare_token();
  bool token_for(int from, int to, const Clock& need, bool force, Queue* q_out);
  void finish();

  // helpers
  bool pick_dram(MemType type, uint32_t y, uint32_t x, uint32_t stride, bool allow_out, uint32_t* dram_base,
                 Access* acc, bool write);
  Pad random_pad(int max_pad, double p);
  std::vector<char>& init_of(MemType t);
  Win& win_of(MemType t);
  uint32_t pick_index(const std::vector<char>& init, Win w, uint32_t headroom, bool want_init);
  struct Kernel {
    bool load = false;
    MemInsn insn;                 // the LOAD UOP
    std::vector<std::pair<uint64_t, Uop>> dram_uops;  // uops to place at (uop index in DRAM)
    UopRange range;
    std::vector<Uop> buffer;      // buffer contents of the range after the load
  };
  bool propose_kernel(bool alu, uint32_t n_hint, const LoopNest& loop, uint16_t wfo, uint16_t wfi, Kernel* k);
  void emit_kernel_load(const Kernel& k);

  std::mt19937_64 rng_;
  RandomProgramOptions opt_;

  uint64_t uop_lo_ = 0, data_lo_ = 0, out_lo_ = 0, insn_lo_ = 0;
  uint64_t uop_next_ = 0;  // next free uop slot (in uops) of the uop area
  std::vector<uint8_t> init_dram_, work_dram_;
  VtaSram sram_;
  ModelStats stats_;
  std::vector<char> init_inp_ = std::vector<char>(kInpDepth, 0);
  std::vector<char> init_wgt_ = std::vector<char>(kWgtDepth, 0);
  std::vector<char> init_acc_ = std::vector<char>(kAccDepth, 0);
  std::vector<char> init_uop_ = std::vector<char>(kUopDepth, 0);
  Win inp_w_, wgt_w_, acc_w_, uop_w_;

  std::vector<Insn> insns_;
  std::vector<int> eng_;
  std::vector<Clock> vc_;
  std::vector<Access> acc_log_;
  std::vector<int> seq_of_;
  std::array<int, 3> seq_{-1, -1, -1};
  std::array<long, 3> last_{-1, -1, -1};
  std::array<Clock, 3> hb_;
  std::array<std::deque<Clock>, 4> tokens_;
};

// Queue used from engine `from` to engine `to`, and the flags on both sides.
Queue queue_between(int from, int to) {
  if (from == L && to == C) return Queue::kLoadToCompute;
  if (from == C && to == L) return Queue::kComputeToLoad;
  if (from == C && to == S) return Queue::kComputeToStore;
  if (from == S && to == C) return Queue::kStoreToCompute;
  throw std::logic_error("random program: no queue between engines");
}

// A queue that flows towards STORE (load->compute, compute->store) is pushed
// with push_next and popped with pop_prev; one flowing back, the other way.
bool flows_forward(Queue q) { return q == Queue::kLoadToCompute || q == Queue::kComputeToStore; }

bool DepFlags::*push_flag(Queue q) { return flows_forward(q) ? &DepFlags::push_next : &DepFlags::push_prev; }

bool DepFlags::*pop_flag(Queue q) { return flows_forward(q) ? &DepFlags::pop_prev : &DepFlags::pop_next; }

void Generator::append(Insn insn, const std::vector<Queue>& pops, const Access& acc) {
  const int e = static_cast<int>(engine_of(insn));
  DepFlags& d = dep_of(insn);
  Clock clock = hb_[e];
  for (Queue q : pops) {
    d.*pop_flag(q) = true;
    if (tokens_[static_cast<int>(q)].empty()) throw std::logic_error("random program: pop without token");
    clock = merge(clock, tokens_[static_cast<int>(q)].front());
    tokens_[static_cast<int>(q)].pop_front();
  }
  // Flags the engine ignores (the spec says hardware ignores them).
  if (e == L) {
    if (chance(opt_.ignored_flag_prob)) d.pop_prev = true;
    if (chance(opt_.ignored_flag_prob)) d.push_prev = true;
  } else if (e == S) {
    if (chance(opt_.ignored_flag_prob)) d.pop_next = true;
    if (chance(opt_.ignored_flag_prob)) d.push_next = true;
  }
  clock[e] = ++seq_[e];
  hb_[e] = clock;
  last_[e] = static_cast<long>(insns_.size());
  insns_.push_back(insn);
  eng_.push_back(e);
  vc_.push_back(clock);
  acc_log_.push_back(acc);
  seq_of_.push_back(seq_[e]);
  execute_insn(insn, insns_.size() - 1, sram_, work_dram_, stats_);
}

void Generator::make_push(int from, int to) {
  const Queue q = queue_between(from, to);
  const long last = last_[from];
  if (last < 0 || dep_of(insns_[last]).*push_flag(q)) {
    noop(from, {});
  }
  const long l2 = last_[from];
  dep_of(insns_[l2]).*push_flag(q) = true;
  tokens_[static_cast<int>(q)].push_back(vc_[l2]);
}

Insn Generator::noop_insn(int e) {
  MemInsn m;
  m.x_size = 0;
  // Moves nothing whatever the other fields say.
  m.y_size = static_cast<uint16_t>(uni(0, 3));
  m.sram_base = static_cast<uint16_t>(uni(0, 0xffff));
  m.dram_base = uni(0, 0xffffffffu);
  m.x_stride = static_cast<uint16_t>(uni(0, 8));
  if (chance(0.5)) {
    m.y_pad_0 = static_cast<uint8_t>(uni(0, 15));
    m.x_pad_1 = static_cast<uint8_t>(uni(0, 15));
  }
  if (e == L) {
    m.opcode = Opcode::kLoad;
    m.mem_type = chance(0.5) ? MemType::kInp : MemType::kWgt;
    return m;
  }
  if (e == S) {
    m.opcode = Opcode::kStore;
    m.mem_type = MemType::kOut;
    m.y_pad_0 = m.x_pad_1 = 0;
    return m;
  }
  switch (uni(0, 4)) {
    case 0: m.opcode = Opcode::kLoad; m.mem_type = MemType::kUop; return m;
    case 1: m.opcode = Opcode::kLoad; m.mem_type = chance(0.5) ? MemType::kAcc : MemType::kAcc8; return m;
    case 2: {  // empty uop range
      GemmInsn g;
      g.loop.uop_bgn = g.loop.uop_end = static_cast<uint16_t>(uni(0, 100));
      g.loop.iter_out = static_cast<uint16_t>(uni(1, 3));
      g.loop.iter_in = static_cast<uint16_t>(uni(1, 3));
      return g;
    }
    case 3: {  // zero iterations
      GemmInsn g;
      g.loop.uop_bgn = 0;
      g.loop.uop_end = 1;
      g.loop.iter_out = 0;
      g.loop.iter_in = static_cast<uint16_t>(uni(0, 2));
      return g;
    }
    default: {
      AluInsn a;
      a.op = static_cast<AluOp>(uni(0, 4));
      a.use_imm = true;
      a.loop.uop_bgn = a.loop.uop_end = static_cast<uint16_t>(uni(0, 100));
      return a;
    }
  }
}

void Generator::noop(int e, const std::vector<Queue>& pops) { append(noop_insn(e), pops, Access{}); }

// Makes the next instruction of engine `to` know engine-sequence numbers
// `need` through a token on the queue from `from`: stale tokens (pushed
// earlier, carrying less knowledge) are first taken by no-ops on `to`; then a
// fresh token is pushed unless the oldest one already suffices. Returns the
// queue the instruction must pop, or nothing when no pop is needed.
bool Generator::token_for(int from, int to, const Clock& need, bool force, Queue* q_out) {
  const Queue q = queue_between(from, to);
  auto& tok = tokens_[static_cast<int>(q)];
  auto covers = [&](const Clock& c) {
    const Clock m = merge(hb_[to], c);
    return m[0] >= need[0] && m[1] >= need[1] && m[2] >= need[2];
  };
  const Clock& known = hb_[to];
  const bool required = known[0] < need[0] || known[1] < need[1] || known[2] < need[2];
  if (!required && !force) return false;
  while (!tok.empty() && !covers(tok.front())) noop(to, {q});
  const bool still = hb_[to][0] < need[0] || hb_[to][1] < need[1] || hb_[to][2] < need[2];
  if (!still && !force) return false;
  if (tok.empty()) make_push(from, to);
  *q_out = q;
  return true;
}

// Orders `insn` after every conflicting instruction of the other engines, then
// appends it.
void Generator::emit(Insn insn, const Access& acc) {
  const int e = static_cast<int>(engine_of(insn));
  Clock need = {-1, -1, -1};
  for (std::size_t i = 0; i < insns_.size(); ++i) {
    if (eng_[i] == e) continue;
    if (acc.conflicts(acc_log_[i])) need[eng_[i]] = std::max(need[eng_[i]], seq_of_[i]);
  }
  std::vector<Queue> pops;
  Queue q;
  if (e == C) {
    for (int f : {L, S}) {
      Clock nf = {-1, -1, -1};
      nf[f] = need[f];
      const bool extra = seq_[f] >= 0 && chance(opt_.extra_pop_prob);
      if (token_for(f, C, nf, extra, &q)) pops.push_back(q);
    }
  } else {
    const int other = e == L ? S : L;  // reached through COMPUTE
    if (need[other] > hb_[e][other] && hb_[C][other] < need[other]) {
      Clock nc = {-1, -1, -1};
      nc[other] = need[other];
      if (token_for(other, C, nc, false, &q)) noop(C, {q});
    }
    Clock ne = {-1, -1, -1};
    ne[C] = need[C];
    ne[other] = need[other];
    const bool extra = seq_[C] >= 0 && chance(opt_.extra_pop_prob);
    if (token_for(C, e, ne, extra, &q)) pops.push_back(q);
  }
  append(std::move(insn), pops, acc);
}

// Pushes a token nobody needs yet; a later pop takes it (its knowledge is
// older, which the ordering logic accounts for). Exercises token counts > 1.
void Generator::step_spare_token() {
  static const int pairs[4][2] = {{L, C}, {C, L}, {C, S}, {S, C}};
  const int* p = pairs[uni(0, 3)];
  if (tokens_[static_cast<int>(queue_between(p[0], p[1]))].size() >= 3) return;
  make_push(p[0], p[1]);
}

Pad Generator::random_pad(int max_pad, double p) {
  Pad pad;
  if (!chance(p)) return pad;
  pad.y0 = static_cast<uint8_t>(chance(0.5) ? uni(0, max_pad) : 0);
  pad.y1 = static_cast<uint8_t>(chance(0.5) ? uni(0, max_pad) : 0);
  pad.x0 = static_cast<uint8_t>(chance(0.5) ? uni(0, max_pad) : 0);
  pad.x1 = static_cast<uint8_t>(chance(0.5) ? uni(0, max_pad) : 0);
  if (pad.y0 + pad.y1 + pad.x0 + pad.x1 == 0) pad.x1 = 1;
  return pad;
}

// The scratchpad a LOAD of type t writes.
Space scratchpad_of(MemType t) {
  switch (t) {
    case MemType::kInp: return kSpInp;
    case MemType::kWgt: return kSpWgt;
    default: return kSpAcc;
  }
}

// Where a LOAD / STORE sits in SRAM and the shape of its DRAM block.
void set_block(MemInsn* m, uint32_t sram_base, uint32_t y, uint32_t x, uint32_t stride, const Pad& pad = Pad{}) {
  m->sram_base = static_cast<uint16_t>(sram_base);
  m->y_size = static_cast<uint16_t>(y);
  m->x_size = static_cast<uint16_t>(x);
  m->x_stride = static_cast<uint16_t>(stride);
  m->y_pad_0 = pad.y0;
  m->y_pad_1 = pad.y1;
  m->x_pad_0 = pad.x0;
  m->x_pad_1 = pad.x1;
}

std::vector<char>& Generator::init_of(MemType t) {
  switch (t) {
    case MemType::kInp: return init_inp_;
    case MemType::kWgt: return init_wgt_;
    case MemType::kUop: return init_uop_;
    default: return init_acc_;
  }
}

Win& Generator::win_of(MemType t) {
  switch (t) {
    case MemType::kInp: return inp_w_;
    case MemType::kWgt: return wgt_w_;
    case MemType::kUop: return uop_w_;
    default: return acc_w_;
  }
}

// Chooses a DRAM element base for y rows of x elements at stride; the data
// area is read-only, the out area is where STOREs write (and some loads read).
bool Generator::pick_dram(MemType type, uint32_t y, uint32_t x, uint32_t stride, bool allow_out,
                          uint32_t* dram_base, Access* acc, bool write) {
  const uint64_t eb = dram_element_bytes(type);
  const bool out = write || (allow_out && chance(0.25));
  const uint64_t lo = (out ? out_lo_ : data_lo_) / eb;
  const uint64_t hi = (out ? out_lo_ + kOutAreaBytes : data_lo_ + kDataAreaBytes) / eb;
  const uint64_t span = uint64_t{y - 1} * stride + x;
  if (span > hi - lo) return false;
  const uint64_t base = lo + std::uniform_int_distribution<uint64_t>(0, hi - lo - span)(rng_);
  *dram_base = static_cast<uint32_t>(base);
  for (uint64_t r = 0; r < y; ++r) {
    const uint64_t a = (base + r * stride) * eb;
    (write ? acc->writes : acc->reads)[kSpDram].add(a, a + uint64_t{x} * eb);
  }
  return true;
}

// LOAD of a random padded block: INP / WGT on the LOAD engine, ACC /
// ACC_8BIT on the COMPUTE engine.
void Generator::step_load(MemType type) {
  const bool wgt = type == MemType::kWgt;
  const bool inp = type == MemType::kInp;
  MemInsn m;
  m.opcode = Opcode::kLoad;
  m.mem_type = type;
  const uint32_t y = uni(1, wgt ? 2 : 3);
  const uint32_t x = uni(1, wgt ? 3 : inp ? 6 : 4);
  const uint32_t stride = x + (chance(0.5) ? uni(1, 3) : 0);
  const Pad pad = random_pad(2, 0.35);
  const uint32_t total = (pad.y0 + y + pad.y1) * (pad.x0 + x + pad.x1);
  const Win w = win_of(type);
  if (total > w.hi - w.lo) return;
  Access acc;
  if (!pick_dram(type, y, x, stride, true, &m.dram_base, &acc, false)) return;
  set_block(&m, uni(w.lo, w.hi - total), y, x, stride, pad);
  acc.writes[scratchpad_of(type)].add(m.sram_base, m.sram_base + total);
  emit(m, acc);
  auto& init = init_of(type);
  for (uint32_t i = 0; i < total; ++i) init[m.sram_base + i] = 1;
}

// One dense 2-D load covering a whole window.
void Generator::step_fill(MemType type) {
  const Win w = win_of(type);
  const uint32_t n = w.hi - w.lo;
  const uint32_t x = n % 8 == 0 && chance(0.5) ? 8 : n % 4 == 0 ? 4 : 1;
  const uint32_t y = n / x;
  const uint32_t stride = x + (chance(0.3) ? 1 : 0);
  MemInsn m;
  m.opcode = Opcode::kLoad;
  m.mem_type = type;
  Access acc;
  if (!pick_dram(type, y, x, stride, false, &m.dram_base, &acc, false)) return;
  set_block(&m, w.lo, y, x, stride);
  acc.writes[scratchpad_of(type)].add(w.lo, w.hi);
  emit(m, acc);
  auto& init = init_of(type);
  for (uint32_t i = w.lo; i < w.hi; ++i) init[i] = 1;
}

void Generator::step_store() {
  MemInsn m;
  m.opcode = Opcode::kStore;
  m.mem_type = MemType::kOut;
  const uint32_t y = uni(1, 3);
  const uint32_t x = uni(1, 4);
  const uint32_t stride = x + (chance(0.5) ? uni(1, 3) : 0);
  const uint32_t n = y * x;
  // A fully initialised run of ACC entries.
  uint32_t base = 0;
  bool found = false;
  for (int attempt = 0; attempt < 12 && !found; ++attempt) {
    base = uni(acc_w_.lo, acc_w_.hi - n);
    found = true;
    for (uint32_t i = 0; i < n; ++i) found = found && init_acc_[base + i];
  }
  if (!found) return;
  Access acc;
  if (!pick_dram(MemType::kOut, y, x, stride, false, &m.dram_base, &acc, true)) return;
  set_block(&m, base, y, x, stride);
  acc.reads[kSpAcc].add(base, base + n);
  emit(m, acc);
}

// Picks an index in window w (leaving `headroom` entries above it), preferring
// initialised entries.
uint32_t Generator::pick_index(const std::vector<char>& init, Win w, uint32_t headroom, bool want_init) {
  const uint32_t hi = w.hi - 1 - std::min(headroom, w.hi - w.lo - 1);
  if (want_init) {
    for (int attempt = 0; attempt < 8; ++attempt) {
      const uint32_t i = uni(w.lo, hi);
      if (init[i]) return i;
    }
  }
  return uni(w.lo, hi);
}

// Builds a micro-op kernel (a LOAD UOP of random shape, or the uops already
// in the buffer) whose indices stay inside the windows for the given loops.
bool Generator::propose_kernel(bool alu, uint32_t n_hint, const LoopNest& l, uint16_t wfo, uint16_t wfi, Kernel* k) {
  const uint32_t dst_head = (l.iter_out - 1u) * l.dst_factor_out + (l.iter_in - 1u) * l.dst_factor_in;
  const uint32_t src_head = (l.iter_out - 1u) * l.src_factor_out + (l.iter_in - 1u) * l.src_factor_in;
  const uint32_t wgt_head = (l.iter_out - 1u) * wfo + (l.iter_in - 1u) * wfi;
  auto random_uop = [&]() {
    Uop u;
    u.dst = static_cast<uint16_t>(pick_index(init_acc_, acc_w_, dst_head, true));
    u.src = static_cast<uint16_t>(alu ? pick_index(init_acc_, acc_w_, src_head, true)
                                      : pick_index(init_inp_, inp_w_, src_head, true));
    u.wgt = static_cast<uint16_t>(alu ? 0 : pick_index(init_wgt_, wgt_w_, wgt_head, true));
    return u;
  };
  k->load = true;
  const bool pad_ok = uop_w_.lo == 0 && inp_w_.lo == 0 && wgt_w_.lo == 0 && acc_w_.lo == 0;
  const uint32_t y = chance(0.3) ? 2 : 1;
  const uint32_t x = std::max<uint32_t>(1, n_hint / y);
  const uint32_t stride = x + (chance(0.3) ? uni(1, 2) : 0);
  const Pad pad = pad_ok ? random_pad(1, 0.25) : Pad{};
  const uint32_t total = (pad.y0 + y + pad.y1) * (pad.x0 + x + pad.x1);
  const uint64_t span = uint64_t{y - 1} * stride + x;
  if (uop_next_ + span > kUopAreaBytes / kUopBytes) return false;
  MemInsn& m = k->insn;
  m = MemInsn{};
  m.opcode = Opcode::kLoad;
  m.mem_type = MemType::kUop;
  set_block(&m, uni(uop_w_.lo, uop_w_.hi - total), y, x, stride, pad);
  m.dram_base = static_cast<uint32_t>(uop_lo_ / kUopBytes + uop_next_);
  k->dram_uops.clear();
  k->buffer.clear();
  const uint32_t xt = pad.x0 + x + pad.x1;
  for (uint32_t i = 0; i < pad.y0 * xt; ++i) k->buffer.push_back(Uop{});
  for (uint32_t r = 0; r < y; ++r) {
    for (uint32_t i = 0; i < pad.x0; ++i) k->buffer.push_back(Uop{});
    for (uint32_t c = 0; c < x; ++c) {
      const Uop u = random_uop();
      k->dram_uops.emplace_back(uop_next_ + r * stride + c, u);
      k->buffer.push_back(u);
    }
    for (uint32_t i = 0; i < pad.x1; ++i) k->buffer.push_back(Uop{});
  }
  for (uint32_t i = 0; i < pad.y1 * xt; ++i) k->buffer.push_back(Uop{});
  k->range = {m.sram_base, m.sram_base + total};
  return true;
}

void Generator::emit_kernel_load(const Kernel& k) {
  uint64_t top = uop_next_;
  for (const auto& [slot, u] : k.dram_uops) {
    const uint32_t w = encode_uop(u);
    for (int b = 0; b < 4; ++b) {
      init_dram_[uop_lo_ + slot * 4 + b] = work_dram_[uop_lo_ + slot * 4 + b] = static_cast<uint8_t>(w >> (8 * b));
    }
    top = std::max(top, slot + 1);
  }
  uop_next_ = top;
  emit(k.insn, Access{});  // the uop buffer is private to COMPUTE
  for (uint32_t i = k.range.bgn; i < k.range.end; ++i) init_uop_[i] = 1;
}

LoopNest random_loop(std::mt19937_64& rng, bool allow_zero_dst_in) {
  auto uni = [&](uint32_t lo, uint32_t hi) { return std::uniform_int_distribution<uint32_t>(lo, hi)(rng); };
  LoopNest l;
  l.iter_out = static_cast<uint16_t>(uni(0, 9) < 4 ? 1 : uni(2, 3));
  l.iter_in = static_cast<uint16_t>(uni(0, 9) < 4 ? 1 : uni(2, 3));
  l.dst_factor_out = static_cast<uint16_t>(uni(0, 9) < 3 ? 0 : uni(1, 6));
  l.dst_factor_in = static_cast<uint16_t>(allow_zero_dst_in && uni(0, 9) < 4 ? 0 : uni(1, 3));
  l.src_factor_out = static_cast<uint16_t>(uni(0, 9) < 3 ? 0 : uni(1, 6));
  l.src_factor_in = static_cast<uint16_t>(uni(0, 9) < 3 ? 0 : uni(1, 3));
  return l;
}

void Generator::step_gemm() {
  for (int attempt = 0; attempt < 20; ++attempt) {
    GemmInsn g;
    g.reset = chance(0.25);
    g.loop = random_loop(rng_, true);
    g.wgt_factor_out = static_cast<uint16_t>(chance(0.3) ? 0 : uni(1, 3));
    g.wgt_factor_in = static_cast<uint16_t>(chance(0.3) ? 0 : uni(1, 2));
    Kernel k;
    std::vector<Uop> buffer;
    UopRange range;
    const bool reuse = chance(0.25);
    if (reuse) {  // uops already in the buffer
      const uint32_t n = uni(1, 4);
      range.bgn = uni(uop_w_.lo, uop_w_.hi - n);
      range.end = range.bgn + n;
      for (uint32_t i = range.bgn; i < range.end; ++i) {
        if (!init_uop_[i]) range.end = range.bgn;
        buffer.push_back(sram_.uop[i]);
      }
      if (range.end == range.bgn) continue;
    } else {
      if (!propose_kernel(false, uni(1, 4), g.loop, g.wgt_factor_out, g.wgt_factor_in, &k)) continue;
      buffer = k.buffer;
      range = k.range;
    }
    // Check every index of the loop nest.
    Access acc;
    bool ok = true;
    for (uint32_t i = 0; i < g.loop.iter_out && ok; ++i) {
      for (uint32_t j = 0; j < g.loop.iter_in && ok; ++j) {
        for (const Uop& u : buffer) {
          const uint32_t a = u.dst + i * g.loop.dst_factor_out + j * g.loop.dst_factor_in;
          const uint32_t x = u.src + i * g.loop.src_factor_out + j * g.loop.src_factor_in;
          const uint32_t w = u.wgt + i * g.wgt_factor_out + j * g.wgt_factor_in;
          if (a >= kAccDepth || x >= kInpDepth || w >= kWgtDepth) {
            ok = false;
            break;
          }
          if (!g.reset && !(init_acc_[a] && init_inp_[x] && init_wgt_[w])) {
            ok = false;
            break;
          }
          acc.writes[kSpAcc].add(a, a + 1);
          if (!g.reset) {
            acc.reads[kSpAcc].add(a, a + 1);
            acc.reads[kSpInp].add(x, x + 1);
            acc.reads[kSpWgt].add(w, w + 1);
          }
        }
      }
    }
    if (!ok) continue;
    if (!reuse) emit_kernel_load(k);
    g.loop.uop_bgn = static_cast<uint16_t>(range.bgn);
    g.loop.uop_end = static_cast<uint16_t>(range.end);
    emit(g, acc);
    for (const auto& r : acc.writes[kSpAcc].r) {
      for (uint64_t a = r.first; a < r.second; ++a) init_acc_[a] = 1;
    }
    return;
  }
}

void Generator::step_alu() {
  const AluOp op = static_cast<AluOp>(uni(0, 4));
  const bool use_imm = chance(0.5);
  for (int attempt = 0; attempt < 20; ++attempt) {
    AluInsn a;
    a.op = op;
    a.use_imm = use_imm;
    a.reset = chance(0.1);  // ignored by ALU
    a.loop = random_loop(rng_, false);
    if (use_imm) {
      if (op == AluOp::kShr) {
        a.imm = static_cast<int16_t>(static_cast<int32_t>(uni(0, 62)) - 31);
      } else if (chance(0.5)) {
        a.imm = static_cast<int16_t>(static_cast<int32_t>(uni(0, 200)) - 100);
      } else {
        a.imm = static_cast<int16_t>(static_cast<uint16_t>(uni(0, 0xffff)));
      }
    } else {
      a.imm = static_cast<int16_t>(static_cast<uint16_t>(uni(0, 0xffff)));  // unused
    }
    Kernel k;
    if (!propose_kernel(true, uni(1, 3), a.loop, 0, 0, &k)) continue;
    // Index sets per iteration, in execution order.
    std::vector<std::pair<uint32_t, uint32_t>> it;  // (dst, src)
    bool ok = true;
    for (uint32_t i = 0; i < a.loop.iter_out; ++i) {
      for (uint32_t j = 0; j < a.loop.iter_in; ++j) {
        for (const Uop& u : k.buffer) {
          const uint32_t d = u.dst + i * a.loop.dst_factor_out + j * a.loop.dst_factor_in;
          const uint32_t s = u.src + i * a.loop.src_factor_out + j * a.loop.src_factor_in;
          if (d >= kAccDepth || s >= kAccDepth || !init_acc_[d] || (!use_imm && !init_acc_[s])) ok = false;
          it.emplace_back(d, s);
        }
      }
    }
    if (!ok) continue;
    const bool strict = !opt_.alu_hazards || (op == AluOp::kShr && !use_imm);
    if (strict) {
      // No entry written twice, no source written by another iteration.
      for (std::size_t p = 0; p < it.size() && ok; ++p) {
        for (std::size_t q = 0; q < it.size() && ok; ++q) {
          if (p == q) continue;
          if (it[p].first == it[q].first) ok = false;
          if (!use_imm && it[p].second == it[q].first) ok = false;
        }
      }
    }
    if (!ok) continue;
    Access acc;
    for (const auto& [d, s] : it) {
      acc.writes[kSpAcc].add(d, d + 1);
      acc.reads[kSpAcc].add(d, d + 1);
      if (!use_imm) acc.reads[kSpAcc].add(s, s + 1);
    }
    emit_kernel_load(k);
    if (op == AluOp::kShr && !use_imm) {
      // Clamp the shift operands to 0..31 first: a kernel whose dst is each
      // uop's src, run over the same loops with the src factors.
      Kernel c = k;
      for (auto& du : c.dram_uops) du.second = Uop{du.second.src, du.second.src, 0};
      for (auto& bu : c.buffer) bu = Uop{bu.src, bu.src, 0};
      c.insn.dram_base = static_cast<uint32_t>(uop_lo_ / kUopBytes + uop_next_);
      const uint32_t shift = static_cast<uint32_t>(uop_next_ - (k.dram_uops.front().first));
      for (auto& du : c.dram_uops) du.first += shift;
      // Place the clamp kernel in another part of the uop buffer.
      const uint32_t total = k.range.size();
      uint32_t base = k.range.bgn;
      for (int t = 0; t < 8 && base < k.range.end && base + total > k.range.bgn; ++t) {
        base = uni(uop_w_.lo, uop_w_.hi - total);
      }
      if (base < k.range.end && base + total > k.range.bgn) return;  // no room; skip the SHR
      if (uop_next_ + (k.dram_uops.back().first - k.dram_uops.front().first) + 1 > kUopAreaBytes / kUopBytes) return;
      c.insn.sram_base = static_cast<uint16_t>(base);
      c.range = {base, base + total};
      emit_kernel_load(c);
      Access cacc;
      for (const auto& [d, s] : it) {
        (void)d;
        cacc.writes[kSpAcc].add(s, s + 1);
        cacc.reads[kSpAcc].add(s, s + 1);
      }
      for (AluOp cop : {AluOp::kMax, AluOp::kMin}) {
        AluInsn ca;
        ca.op = cop;
        ca.use_imm = true;
        ca.imm = cop == AluOp::kMax ? 0 : 31;
        ca.loop = a.loop;
        ca.loop.uop_bgn = static_cast<uint16_t>(c.range.bgn);
        ca.loop.uop_end = static_cast<uint16_t>(c.range.end);
        ca.loop.dst_factor_out = a.loop.src_factor_out;
        ca.loop.dst_factor_in = a.loop.src_factor_in;
        emit(ca, cacc);
      }
    }
    a.loop.uop_bgn = static_cast<uint16_t>(k.range.bgn);
    a.loop.uop_end = static_cast<uint16_t>(k.range.end);
    emit(a, acc);
    return;
  }
}

void Generator::step_sync() {
  const int e = static_cast<int>(uni(0, 2));
  emit(noop_insn(e), Access{});
}

void Generator::finish() {
  // Take every spare token so that no token outlives the program.
  for (int qi = 0; qi < 4; ++qi) {
    const Queue q = static_cast<Queue>(qi);
    const int to = q == Queue::kComputeToLoad ? L : q == Queue::kComputeToStore ? S : C;
    while (!tokens_[qi].empty()) noop(to, {q});
  }
  std::vector<Queue> pops;
  for (int f : {L, S}) {
    if (seq_[f] >= 0 && hb_[C][f] < seq_[f]) {
      make_push(f, C);
      pops.push_back(queue_between(f, C));
    } else if (seq_[f] >= 0 && chance(0.3)) {
      make_push(f, C);
      pops.push_back(queue_between(f, C));
    }
  }
  if (!pops.empty() && chance(0.4)) {  // a compute no-op takes the tokens
    noop(C, pops);
    pops.clear();
  }
  append(FinishInsn{}, pops, Access{});
}

RandomProgram Generator::run(uint64_t seed) {
  // DRAM image: [uops][data][out][gap][insns]; random contents everywhere.
  uop_lo_ = 0;
  data_lo_ = uop_lo_ + kUopAreaBytes;
  out_lo_ = data_lo_ + kDataAreaBytes;
  const uint64_t gap = 16 * uni(0, 16);
  insn_lo_ = out_lo_ + kOutAreaBytes + gap;
  init_dram_.resize(insn_lo_);
  for (auto& b : init_dram_) b = static_cast<uint8_t>(rng_());
  work_dram_ = init_dram_;

  // Buffer windows: low (from 0) or at the top of each buffer.
  const bool high = chance(0.2);
  auto win = [&](uint32_t depth, uint32_t size) { return high ? Win{depth - size, depth} : Win{0, size}; };
  inp_w_ = win(kInpDepth, 64);
  wgt_w_ = win(kWgtDepth, 24);
  acc_w_ = win(kAccDepth, 64);
  uop_w_ = win(kUopDepth, 96);

  const int steps = static_cast<int>(uni(static_cast<uint32_t>(opt_.min_steps), static_cast<uint32_t>(opt_.max_steps)));
  // Fill each window first (in a random order) so that compute reads only
  // entries that were written.
  std::vector<MemType> boot = {MemType::kInp, MemType::kWgt, chance(0.5) ? MemType::kAcc8 : MemType::kAcc};
  std::shuffle(boot.begin(), boot.end(), rng_);
  for (MemType t : boot) step_fill(t);
  for (int s = 0; s < steps; ++s) {
    const uint32_t r = uni(0, 99);
    if (r < 13) step_load(MemType::kInp);
    else if (r < 23) step_load(MemType::kWgt);
    else if (r < 29) step_load(MemType::kAcc);
    else if (r < 35) step_load(MemType::kAcc8);
    else if (r < 55) step_gemm();
    else if (r < 75) step_alu();
    else if (r < 91) step_store();
    else if (r < 96) step_sync();
    else step_spare_token();
  }
  finish();

  RandomProgram p;
  p.seed = seed;
  p.insns = insns_;
  p.raw = make_raw_program(to_bytes(insns_), init_dram_, insn_lo_);
  auto region = [](const char* name, MemType t, uint64_t lo, uint64_t bytes) {
    DramRegion r;
    r.name = name;
    r.type = t;
    r.byte_addr = lo;
    r.elements = bytes / dram_element_bytes(t);
    return r;
  };
  p.regions = {region("uops", MemType::kUop, uop_lo_, kUopAreaBytes),
               region("data", MemType::kWgt, data_lo_, kDataAreaBytes),
               region("out", MemType::kOut, out_lo_, kOutAreaBytes),
               region("insns", MemType::kOut, insn_lo_, insns_.size() * kInsnBytes)};
  return p;
}

}  // namespace

RandomProgram generate_random_program(uint64_t seed, const RandomProgramOptions& opt) {
  Generator g(seed, opt);
  return g.run(seed);
}

// ---- coverage ---------------------------------------------------------------

namespace {

const MemType kLoadTypes[] = {MemType::kUop, MemType::kWgt, MemType::kInp, MemType::kAcc, MemType::kAcc8};
const char* const kFlagNames[] = {"pop_prev", "pop_next", "push_prev", "push_next"};

bool flag(const DepFlags& d, int i) {
  switch (i) {
    case 0: return d.pop_prev;
    case 1: return d.pop_next;
    case 2: return d.push_prev;
    default: return d.push_next;
  }
}

bool loop_nontrivial(const LoopNest& l, uint16_t wfo, uint16_t wfi) {
  return l.iter_out > 1 && l.iter_in > 1 && (l.dst_factor_out || l.src_factor_out || wfo) &&
         (l.dst_factor_in || l.src_factor_in || wfi);
}

}  // namespace

ProgramCoverage::ProgramCoverage() {
  std::vector<std::string> names;
  for (MemType t : kLoadTypes) {
    const std::string base = std::string("LOAD ") + mem_type_name(t);
    names.push_back(base + " unpadded");
    names.push_back(base + " padded");
    names.push_back(base + " sync");
    names.push_back(base + " strided");
    const bool load_engine = t == MemType::kInp || t == MemType::kWgt;
    for (int f = 0; f < 4; ++f) {
      if (load_engine && (f == 0 || f == 2)) continue;  // ignored flags
      names.push_back(base + " " + kFlagNames[f]);
    }
  }
  names.push_back("STORE OUT");
  names.push_back("STORE OUT sync");
  names.push_back("STORE OUT strided");
  names.push_back("STORE OUT pop_prev");
  names.push_back("STORE OUT push_prev");
  for (const char* mode : {"reset", "accumulate"}) {
    for (int f = 0; f < 4; ++f) names.push_back(std::string("GEMM ") + mode + " " + kFlagNames[f]);
    names.push_back(std::string("GEMM ") + mode + " both loops");
  }
  names.push_back("GEMM accumulate repeated dst");
  for (int op = 0; op < 5; ++op) {
    for (const char* src : {"imm", "reg"}) {
      names.push_back(std::string("ALU ") + alu_op_name(static_cast<AluOp>(op)) + " " + src);
      names.push_back(std::string("ALU ") + alu_op_name(static_cast<AluOp>(op)) + " " + src + " both loops");
    }
  }
  for (int f = 0; f < 4; ++f) names.push_back(std::string("ALU ") + kFlagNames[f]);
  names.push_back("ALU SHR imm negative");
  names.push_back("FINISH pop_prev");
  names.push_back("FINISH pop_next");
  for (auto& n : names) hits_.emplace_back(n, 0);
}

void ProgramCoverage::hit(const std::string& bin) {
  for (auto& h : hits_) {
    if (h.first == bin) {
      ++h.second;
      return;
    }
  }
}

void ProgramCoverage::add(const std::vector<Insn>& insns) {
  for (const Insn& insn : insns) {
    const DepFlags& d = dep_of(insn);
    if (const auto* m = std::get_if<MemInsn>(&insn)) {
      const std::string base = std::string(opcode_name(m->opcode)) + " " + mem_type_name(m->mem_type);
      if (m->x_size == 0) {
        hit(base + " sync");
      } else {
        const bool padded = m->y_pad_0 || m->y_pad_1 || m->x_pad_0 || m->x_pad_1;
        hit(base + (m->opcode == Opcode::kStore ? "" : padded ? " padded" : " unpadded"));
        if (m->y_size > 1 && m->x_stride > m->x_size) hit(base + " strided");
      }
      for (int f = 0; f < 4; ++f) {
        if (flag(d, f)) hit(base + " " + kFlagNames[f]);
      }
    } else if (const auto* g = std::get_if<GemmInsn>(&insn)) {
      if (g->loop.uop_bgn >= g->loop.uop_end || g->loop.iter_out == 0 || g->loop.iter_in == 0) {
        continue;  // a no-op
      }
      const std::string base = std::string("GEMM ") + (g->reset ? "reset" : "accumulate");
      for (int f = 0; f < 4; ++f) {
        if (flag(d, f)) hit(base + " " + kFlagNames[f]);
      }
      if (loop_nontrivial(g->loop, g->wgt_factor_out, g->wgt_factor_in)) hit(base + " both loops");
      if (!g->reset && g->loop.iter_in > 1 && g->loop.dst_factor_in == 0) hit("GEMM accumulate repeated dst");
    } else if (const auto* a = std::get_if<AluInsn>(&insn)) {
      if (a->loop.uop_bgn >= a->loop.uop_end || a->loop.iter_out == 0 || a->loop.iter_in == 0) continue;
      const std::string base = std::string("ALU ") + alu_op_name(a->op) + (a->use_imm ? " imm" : " reg");
      hit(base);
      if (loop_nontrivial(a->loop, 0, 0)) hit(base + " both loops");
      for (int f = 0; f < 4; ++f) {
        if (flag(d, f)) hit(std::string("ALU ") + kFlagNames[f]);
      }
      if (a->op == AluOp::kShr && a->use_imm && a->imm < 0) hit("ALU SHR imm negative");
    } else {
      if (d.pop_prev) hit("FINISH pop_prev");
      if (d.pop_next) hit("FINISH pop_next");
    }
  }
}

std::vector<std::string> ProgramCoverage::missing() const {
  std::vector<std::string> out;
  for (const auto& h : hits_) {
    if (h.second == 0) out.push_back(h.first);
  }
  return out;
}

std::size_t ProgramCoverage::covered() const {
  std::size_t n = 0;
  for (const auto& h : hits_) n += h.second != 0;
  return n;
}

std::string ProgramCoverage::report() const {
  std::ostringstream os;
  os << "VTA program coverage: " << covered() << "/" << bins() << " bins\n";
  for (const auto& h : hits_) os << "  " << (h.second ? "   " : "-- ") << h.first << ": " << h.second << "\n";
  return os.str();
}

}  // namespace cosim::vta
