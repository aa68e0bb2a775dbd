#include "vta/compiler/conv2d_program_writer.hpp"

#include <algorithm>
#include <sstream>

#include "common/error.hpp"
#include "common/text.hpp"
#include "vta/compiler/layout_transform.hpp"
#include "vta/compiler/program_tail.hpp"
#include "vta/compiler/tflite_requant_emit.hpp"

namespace cosim::vta::conv2d {

namespace {

int32_t wrap32(uint64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(v)); }
uint16_t u16(int64_t v) { return static_cast<uint16_t>(v); }
uint32_t u32(int64_t v) { return static_cast<uint32_t>(v); }

std::string range_str(int64_t a, int64_t b) { return std::to_string(a) + ".." + std::to_string(b - 1); }

// `n` consecutive entries, one uop execution each.
Loop run_of(int64_t n) { return Loop{u32(n), 1, 0, 0}; }

// Entry `e` of a kernel with one uop per parameter entry.
UopRange alu_uop(UopRange k, int64_t e) {
  return UopRange{k.bgn + static_cast<uint32_t>(e), k.bgn + static_cast<uint32_t>(e) + 1};
}

// The DRAM the layer's data take: input, weights, parameter vectors, output.
uint64_t dram_data_bytes(const Geo& g, int64_t ps) {
  return static_cast<uint64_t>(g.n * g.cb * g.h * g.w) * kInpElemBytes +
         static_cast<uint64_t>(g.ob * g.kk * g.cb) * kWgtElemBytes + static_cast<uint64_t>(g.ob * ps) * kAccElemBytes +
         static_cast<uint64_t>(g.n * g.ob * g.oh * g.ow) * kOutElemBytes;
}

}  // namespace

Conv2dProgramWriter::Conv2dProgramWriter(const Tensor& input, const Tensor& filter, const Tensor& bias, const Geo& g,
                                         int32_t zp_in, const std::vector<quant::VtaRequantPlan>& plans,
                                         const TfliteRequantProgram* tfl, const CompileOptions& opt)
    : input_(input),
      filter_(filter),
      bias_(bias),
      plans_(plans),
      tfl_(tfl),
      opt_(opt),
      g_(g),
      zp_in_(zp_in),
      bd_(make_borders(g, zp_in)),
      tl_(choose_tiling(g, bd_, opt, tfl)),
      ps_(tl_.param_entries),
      threads_(opt.threads),
      data_bytes_(dram_data_bytes(g, ps_)) {
  check_dram_budget();  // before any large allocation
  allocate_regions();
  std::vector<int64_t> bias_terms;
  std::vector<std::vector<int64_t>> corrections;
  fill_plan_vectors(bias_terms, corrections);
  // The fused program replaces the bias and the corrections by start values.
  fused_ = tfl_ == nullptr && opt_.fused_requant ? fuse_requant(plans_, bias_terms, corrections) : std::nullopt;
  if (fused_) write_fused_starts();
  if (tfl_ != nullptr) write_tflite_vectors();
  summarize_plans();
  plan_sram();
  b_.set_dram_budget(opt_.dram_limit - data_bytes_, "VTA conv2d compiler");
  list_tiles();
  check_instruction_floor();
}

CompiledProgram Conv2dProgramWriter::write() {
  for (int64_t grp = 0; grp < tl_.groups; ++grp) write_group(grp);
  finish();
  return std::move(cp_);
}

// ---- set-up -------------------------------------------------------------------

void Conv2dProgramWriter::check_dram_budget() const {
  if (data_bytes_ > opt_.dram_limit)
    bad("input " + shape_str(input_.shape()) + " needs " + std::to_string(data_bytes_) +
        " bytes of DRAM data, more than the DRAM limit " + std::to_string(opt_.dram_limit));
}

void Conv2dProgramWriter::allocate_regions() {
  cp_.op = "conv2d";
  cp_.layout = DramLayout(opt_.dram_base);
  DramLayout& layout = cp_.layout;
  const uint64_t in_elems = static_cast<uint64_t>(g_.n * g_.cb * g_.h * g_.w);
  if (opt_.input_addr) {  // an earlier program's output, already in place
    if (*opt_.input_addr % kInpElemBytes != 0)
      bad("input address " + std::to_string(*opt_.input_addr) + " is not a multiple of " +
          std::to_string(kInpElemBytes));
    r_in_ = DramRegion{"input", MemType::kInp, *opt_.input_addr, in_elems};
  } else {
    r_in_ = layout.alloc("input", MemType::kInp, in_elems);
  }
  r_w_ = layout.alloc("weights", MemType::kWgt, static_cast<uint64_t>(g_.ob * g_.kk * g_.cb));
  r_p_ = layout.alloc("params", MemType::kAcc, static_cast<uint64_t>(g_.ob * ps_));
  r_out_ = layout.alloc("output", MemType::kOut, static_cast<uint64_t>(g_.n * g_.ob * g_.oh * g_.ow));
}

int32_t& Conv2dProgramWriter::param(int64_t ob, int64_t entry, int64_t lane) {
  return par_[static_cast<std::size_t>((ob * ps_ + entry) * kBlock + lane)];
}

// The sum of output channel o's weights at each kernel tap.
std::vector<int64_t> Conv2dProgramWriter::tap_sums(int64_t o) const {
  const int8_t* wt = filter_.data<int8_t>();
  const int64_t per_oc = g_.kk * g_.c;
  std::vector<int64_t> tap(static_cast<std::size_t>(g_.kk));
  for (int64_t k = 0; k < g_.kk; ++k) {
    int64_t s = 0;
    for (int64_t c = 0; c < g_.c; ++c) s += wt[o * per_oc + k * g_.c + c];
    tap[static_cast<std::size_t>(k)] = s;
  }
  return tap;
}

// The 16-bit plans' vectors. What the accumulator holds beyond the GEMM's
// raw sum, per channel: the bias term everywhere, plus a correction per
// border class.
void Conv2dProgramWriter::fill_plan_vectors(std::vector<int64_t>& bias_terms,
                                            std::vector<std::vector<int64_t>>& corrections) {
  par_.assign(static_cast<std::size_t>(g_.ob * ps_ * kBlock), 0);
  bias_terms.assign(static_cast<std::size_t>(g_.o), 0);
  corrections.assign(static_cast<std::size_t>(bd_.count), std::vector<int64_t>(static_cast<std::size_t>(g_.o), 0));
  const bool has_bias = bias_.nbytes() != 0;
  for (int64_t o = 0; o < g_.ob * kBlock; ++o) {
    const int64_t ob = o / kBlock, lane = o % kBlock;
    const quant::VtaRequantPlan& pl = plans_[static_cast<std::size_t>(std::min(o, g_.o - 1))];
    // Padded lanes: harmless values (multiplier 0), never read back.
    param(ob, kParZp, lane) = pl.zero_point;
    param(ob, kParMin, lane) = pl.act_min;
    param(ob, kParMax, lane) = pl.act_max;
    if (o >= g_.o) continue;
    const std::vector<int64_t> tap = tap_sums(o);
    int64_t total = 0;
    for (int64_t s : tap) total += s;
    const int64_t b = has_bias ? bias_.data<int32_t>()[o] : 0;
    bias_terms[static_cast<std::size_t>(o)] = b - static_cast<int64_t>(zp_in_) * total;
    param(ob, kParBias, lane) = wrap32(static_cast<uint64_t>(bias_terms[static_cast<std::size_t>(o)]));
    param(ob, kParPre, lane) = pl.pre_shift;
    param(ob, kParMul, lane) = pl.multiplier;
    param(ob, kParPost, lane) = pl.post_shift;
    fill_border_corrections(o, tap, total, corrections);
  }
}

// Channel o's zero-point correction of each border class: zp_in times the
// weights of the taps that fall outside the image.
void Conv2dProgramWriter::fill_border_corrections(int64_t o, const std::vector<int64_t>& tap, int64_t total,
                                                  std::vector<std::vector<int64_t>>& corrections) {
  for (std::size_t rc = 0; rc < bd_.rows.ranges.size(); ++rc)
    for (std::size_t cc = 0; cc < bd_.cols.ranges.size(); ++cc) {
      const int cls = bd_.id[rc * bd_.cols.ranges.size() + cc];
      if (cls < 0) continue;
      int64_t valid = 0;
      for (int64_t y = bd_.rows.ranges[rc].first; y < bd_.rows.ranges[rc].second; ++y)
        for (int64_t x = bd_.cols.ranges[cc].first; x < bd_.cols.ranges[cc].second; ++x)
          valid += tap[static_cast<std::size_t>(y * g_.kw + x)];
      const int64_t corr = static_cast<int64_t>(zp_in_) * (total - valid);
      corrections[static_cast<std::size_t>(cls)][static_cast<std::size_t>(o)] = corr;
      param(o / kBlock, kParFixed + cls, o % kBlock) = wrap32(static_cast<uint64_t>(corr));
    }
}

void Conv2dProgramWriter::write_fused_starts() {
  for (int64_t o = 0; o < g_.o; ++o) {
    const auto oi = static_cast<std::size_t>(o);
    param(o / kBlock, kParBias, o % kBlock) = fused_->start[0][oi];
    for (int cls = 0; cls < bd_.count; ++cls)
      param(o / kBlock, kParFixed + cls, o % kBlock) = fused_->start[static_cast<std::size_t>(cls) + 1][oi];
    param(o / kBlock, kParOffset, o % kBlock) = fused_->offset[oi];
  }
}

// The TFLite program's vectors, after the border corrections.
void Conv2dProgramWriter::write_tflite_vectors() {
  for (int64_t o = 0; o < g_.o; ++o)
    for (std::size_t j = 0; j < tfl_->vectors.size(); ++j)
      param(o / kBlock, kParFixed + bd_.count + static_cast<int64_t>(j), o % kBlock) =
          tfl_->vector_value(j, static_cast<std::size_t>(o));
}

// Which requantization steps the plans need, and which values they share
// (an ALU immediate then replaces a vector).
void Conv2dProgramWriter::summarize_plans() {
  for (const auto& pl : plans_) {
    any_pre_ = any_pre_ || pl.pre_shift != 0;
    any_post_ = any_post_ || pl.post_shift != 0;
    same_zp_ = same_zp_ && pl.zero_point == plans_[0].zero_point;
    same_min_ = same_min_ && pl.act_min == plans_[0].act_min;
    same_max_ = same_max_ && pl.act_max == plans_[0].act_max;
  }
  auto imm_ok = [](int32_t v) { return v >= -32768 && v <= 32767; };
  same_zp_ = same_zp_ && imm_ok(plans_[0].zero_point);
  same_min_ = same_min_ && imm_ok(plans_[0].act_min);
  same_max_ = same_max_ && imm_ok(plans_[0].act_max);
  if (fused_)
    for (int32_t k : fused_->offset) any_offset_ = any_offset_ || k != 0;

  // A fused program with immediate clamps and no border classes reads only
  // the first kParFusedUsed entries of each block: DRAM holds just those, and
  // the load pads the rest of each block's entries.
  trim_params_ = fused_ && tfl_ == nullptr && bd_.count == 0 && ps_ == kParFixed &&
                 (fused_->fold_zero_point || same_zp_) && same_min_ && same_max_;
  dram_ps_ = trim_params_ ? kParFusedUsed : ps_;
}

// ACC: the group's parameter entries, then one half per thread of tile
// accumulators; INP: one half per thread.
void Conv2dProgramWriter::plan_sram() {
  nob_ = tl_.oc_blocks_per_group;
  inp_half_ = opt_.inp_depth / threads_;
  acc_params_ = nob_ * ps_;
  acc_half_ = nob_ * tl_.tile_rows * tl_.tile_cols * tl_.pixel_entries;
  // The first tile starts on its first run of (cb, ky) weight slices (at
  // most twelve runs) while the rest of the group's weights load; slice
  // q = cb * KH + ky.
  slices_ = g_.cb * g_.kh;
  first_chunks_ = std::min<int64_t>(slices_, 12);
  first_run_slices_ = first_chunks_ > 1 ? slices_ / first_chunks_ : slices_;
}

void Conv2dProgramWriter::list_tiles() {
  for (int64_t n = 0; n < g_.n; ++n)
    for (int64_t rt = 0; rt < tl_.row_tiles; ++rt)
      for (int64_t ct = 0; ct < tl_.col_tiles; ++ct) {
        const int64_t r0 = rt * tl_.tile_rows, rr = std::min(tl_.tile_rows, g_.oh - r0);
        const int64_t c0 = ct * tl_.tile_cols, cw = std::min(tl_.tile_cols, g_.ow - c0);
        if (rr > 0 && cw > 0) tiles_.push_back(TilePos{n, r0, rr, c0, cw});
      }
  halves_used_ = std::min<int64_t>(threads_, tl_.groups * static_cast<int64_t>(tiles_.size()));
}

// A lower bound of the program before it is built: every tile of every
// group loads each input channel block at least once (one LOAD, 16 bytes).
// A layer whose instructions alone cannot fit the DRAM is refused here, in
// microseconds, not after millions of instructions are held in memory.
void Conv2dProgramWriter::check_instruction_floor() const {
  const uint64_t min_insns = static_cast<uint64_t>(tl_.groups) * tiles_.size() * static_cast<uint64_t>(g_.cb);
  if (min_insns * 16 > opt_.dram_limit - data_bytes_)
    bad("input " + shape_str(input_.shape()) + " needs at least " + std::to_string(min_insns) + " instructions (" +
        std::to_string(tl_.groups) + " weight groups x " + std::to_string(tiles_.size()) + " tiles x " +
        std::to_string(g_.cb) + " input channel blocks), more than the " +
        std::to_string(opt_.dram_limit - data_bytes_) + " bytes of DRAM left beside its data");
}

// ---- uop kernels ----------------------------------------------------------------

Loop Conv2dProgramWriter::over_blocks(int64_t gn, int64_t pix) const {
  return Loop{u32(gn), u32(pix), u32(ps_), 0};
}

Conv2dProgramWriter::SliceRuns Conv2dProgramWriter::slice_runs(int64_t count) const {
  SliceRuns r;
  for (int64_t i = 0; i < count; ++i) r.emplace_back(slices_ * i / count, slices_ * (i + 1) / count);
  return r;
}

// The GEMM kernel of a tile on ACC / INP half t, in (cb, ky, kx, ob) order:
// a run of (cb, ky) slices is a contiguous part of it.
std::vector<Uop> Conv2dProgramWriter::gemm_kernel(const TilePos& tp, int64_t t, int64_t gn, int64_t wbase) const {
  const int64_t ab = acc_base(t), rows_in = tp.rows_in(g_), cols_in = tp.cols_in(g_);
  std::vector<Uop> k;
  for (int64_t cb = 0; cb < g_.cb; ++cb)
    for (int64_t ky = 0; ky < g_.kh; ++ky)
      for (int64_t kx = 0; kx < g_.kw; ++kx)
        for (int64_t ob = 0; ob < gn; ++ob)
          k.push_back(Uop{u16(ab + ob * tp.pix()), u16(inp_base(t) + cb * rows_in * cols_in + ky * cols_in + kx),
                          u16(wbase + ((cb * g_.kh + ky) * gn + ob) * g_.kw + kx)});
  return k;
}

// The program's first tile does its first run of weight slices in parts of
// first_part_rows output rows, each after the input rows it reads: the first
// GEMM then waits for a part of the input window instead of all of it. A
// part whose new window rows are all padding joins its neighbour.
std::vector<Conv2dProgramWriter::RowPart> Conv2dProgramWriter::first_tile_parts(const TilePos& tp) const {
  const int64_t k = opt_.first_part_rows < 1 ? 1 : ceil_div(tp.rr, opt_.first_part_rows);
  const int64_t rows_in = tp.rows_in(g_), ys = tp.r0 * g_.sh - g_.pt;
  const int64_t data_lo = std::max<int64_t>(0, -ys);
  const int64_t data_hi = data_lo + (g_.skip_rows ? tp.rr : std::min(g_.h, ys + rows_in) - std::max<int64_t>(0, ys));
  std::vector<RowPart> parts;
  int64_t first = 0;
  for (int64_t j = 0; j < k; ++j) {
    const int64_t end = tp.rr * (j + 1) / k, window = std::min(rows_in, g_.in_rows(end));
    if (window <= data_lo) continue;  // only top padding so far: the next part takes these rows too
    const int64_t prev_window = parts.empty() ? 0 : parts.back().window_rows;
    if (!parts.empty() && prev_window >= data_hi) {
      parts.back().end = end;  // only bottom padding: the previous part takes these rows
      parts.back().window_rows = window;
      continue;
    }
    parts.push_back(RowPart{first, end, window});
    first = end;
  }
  return parts;
}

// Part `a` rows down of a GEMM kernel: the same uops, `a` output rows and
// a * in_row_step input rows further on.
std::vector<Uop> Conv2dProgramWriter::rows_down(std::vector<Uop> k, const TilePos& tp, int64_t a) const {
  for (Uop& u : k) {
    u.dst = u16(u.dst + a * tp.cw);
    u.src = u16(u.src + a * g_.in_row_step() * tp.cols_in(g_));
  }
  return k;
}

// The kernels of the first run's later parts, for the first tile on half 0.
std::vector<std::vector<Uop>> Conv2dProgramWriter::first_part_kernels(const TilePos& tp, int64_t gn,
                                                                      int64_t wbase) const {
  const std::vector<Uop> whole = gemm_kernel(tp, 0, gn, wbase);
  const std::vector<Uop> first(whole.begin(), whole.begin() + first_run_slices_ * g_.kw * gn);
  std::vector<std::vector<Uop>> ks;
  const std::vector<RowPart> parts = first_tile_parts(tp);
  for (std::size_t j = 1; j < parts.size(); ++j) ks.push_back(rows_down(first, tp, parts[j].first));
  return ks;
}

// One uop per parameter entry, at the accumulators of half t.
std::vector<Uop> Conv2dProgramWriter::alu_kernel(int64_t t) const {
  std::vector<Uop> k;
  for (int64_t e = 0; e < kParFixed; ++e) k.push_back(Uop{u16(acc_base(t)), u16(e), 0});
  return k;
}

// The last tile's requantization block by block: one uop per parameter
// entry of each block.
std::vector<Uop> Conv2dProgramWriter::split_kernel(const TilePos& tp, int64_t t, int64_t gn) const {
  std::vector<Uop> k;
  for (int64_t ob = 0; ob < gn; ++ob)
    for (int64_t e = 0; e < kParFixed; ++e) k.push_back(Uop{u16(acc_base(t) + ob * tp.pix()), u16(ob * ps_ + e), 0});
  return k;
}

std::vector<Uop> Conv2dProgramWriter::reset_kernel(int64_t t) const {
  return std::vector<Uop>{Uop{u16(acc_base(t)), 0, 0}};
}

// The fused program's start: MIN of each entry with its pixel class's start
// value. Pixels are taken in runs along a row with one class; one ALU
// instruction per run length covers its runs, so a tile with border pixels
// needs a few uops per row rather than one per pixel.
std::map<int64_t, std::vector<Uop>> Conv2dProgramWriter::start_kernels(const TilePos& tp, int64_t t) const {
  std::map<int64_t, std::vector<Uop>> by_length;
  for (int64_t y = 0; y < tp.rr; ++y)
    for (int64_t x = 0; x < tp.cw;) {
      const int cls = bd_.of(tp.r0 + y, tp.c0 + x);
      int64_t len = 1;
      while (x + len < tp.cw && bd_.of(tp.r0 + y, tp.c0 + x + len) == cls) ++len;
      by_length[len].push_back(Uop{u16(acc_base(t) + y * tp.cw + x), u16(cls < 0 ? kParBias : kParFixed + cls), 0});
      x += len;
    }
  return by_length;
}

// ---- the program: groups --------------------------------------------------------

// One work unit per instruction: `u` for those emitted since the last note.
void Conv2dProgramWriter::note(const WorkUnit& u) {
  while (cp_.work.size() < b_.size()) cp_.work.push_back(u);
}

// LOAD takes compute->load tokens (one per finished GEMM) until `need` are
// taken; each pop rides on its own LOAD-engine instruction.
void Conv2dProgramWriter::load_pop_until(int64_t need) {
  while (c2l_popped_ < need) {
    if (load_pop_pending_) b_.noop(Engine::kLoad);
    b_.pop(Engine::kCompute, Engine::kLoad);
    load_pop_pending_ = true;
    ++c2l_popped_;
  }
}

void Conv2dProgramWriter::write_group(int64_t grp) {
  const int64_t ob0 = grp * nob_;
  const Group gr{grp, ob0, std::min(nob_, g_.ob - ob0),
                 tl_.wgt_double_buffered ? (grp % 2) * (opt_.wgt_depth / 2) : 0};
  WorkUnit setup;
  setup.text = "group " + std::to_string(grp) + " (oc " +
               range_str(ob0 * kBlock, std::min(g_.o, (ob0 + gr.gn) * kBlock)) + "): weights and per-channel vectors";
  // New weights only after every GEMM that read the WGT half they go to:
  // the previous group's (one buffer) or the one before (two halves).
  if (!tl_.wgt_double_buffered) load_pop_until(tile_idx_);
  else if (grp >= 1) load_pop_until(group_first_[static_cast<std::size_t>(grp - 1)]);
  group_first_.push_back(tile_idx_);
  // The program's first tile loads its group's weights one input-channel
  // run at a time with its input (see load_tile_input); later groups load
  // them whole.
  const bool chunked = grp == 0 && first_chunks_ > 1;
  const bool params_late = params_go_late(gr, chunked);
  if (grp == 0) start_program(gr, params_late);
  if (!chunked) {
    b_.load_2d(MemType::kWgt, u32(gr.wbase), r_w_.elem(static_cast<uint64_t>(ob0 * g_.kk * g_.cb)), 1,
               u32(gr.gn * g_.kk * g_.cb), u32(gr.gn * g_.kk * g_.cb));
    load_pop_pending_ = false;
  }
  if (grp > 0) load_params(gr);
  if (fused_ && grp == 0) reset_accumulators();
  if (params_late) load_params(gr);
  note(setup);

  for (const TilePos& tp : tiles_) {
    Tile tile = make_tile(gr, tp);
    load_tile_input(tile);
    compute_tile(tile);
    requantize_tile(tile);
    store_tile(tile);
    ++tile_idx_;
  }
}

// The parameters are first needed by the first start values, after the
// resets. When the resets last longer than the first part's loads would take
// at 8 bytes per cycle (ResNet-8's memory), the LOAD engine goes first and
// the parameters load during its later traffic; otherwise they go before any
// LOAD-engine traffic, as the memory is shared.
bool Conv2dProgramWriter::params_go_late(const Group& gr, bool chunked) const {
  if (gr.index != 0 || !fused_ || tiles_.empty()) return false;
  const TilePos& t0 = tiles_.front();
  const int64_t run0_cbs = ceil_div(first_run_slices_, g_.kh);
  const int64_t wgt_entries = chunked ? first_run_slices_ * gr.gn * g_.kw : gr.gn * g_.kk * g_.cb;
  const int64_t inp_entries = run0_cbs * first_tile_parts(t0).front().window_rows * t0.cols_in(g_);
  const int64_t first_bytes =
      wgt_entries * static_cast<int64_t>(kWgtElemBytes) + inp_entries * static_cast<int64_t>(kInpElemBytes);
  constexpr int64_t kAssumedBytesPerCycle = 8;
  return halves_used_ * acc_half_ * kAssumedBytesPerCycle >= first_bytes;
}

void Conv2dProgramWriter::load_params(const Group& gr) {
  if (trim_params_) {
    b_.load_2d(MemType::kAcc, 0, r_p_.elem(static_cast<uint64_t>(gr.ob0 * dram_ps_)), u32(gr.gn), u32(dram_ps_),
               u32(dram_ps_), Pad{0, 0, 0, static_cast<uint8_t>(ps_ - dram_ps_)});
    return;
  }
  b_.load_2d(MemType::kAcc, 0, r_p_.elem(static_cast<uint64_t>(gr.ob0 * ps_)), 1, u32(gr.gn * ps_),
             u32(gr.gn * ps_));
}

// The first group's start: the first parameters go before any LOAD-engine
// traffic (the COMPUTE engine cannot start without them, and the memory is
// shared), unless they go late; so do the first uop kernels; then COMPUTE's
// start token.
void Conv2dProgramWriter::start_program(const Group& gr, bool params_late) {
  if (!params_late) load_params(gr);
  const std::vector<std::vector<Uop>> kernels = first_kernels(gr);
  std::size_t preload = 0;
  for (const auto& k : kernels) preload += k.size();
  if (preload <= kUopDepth / 2) b_.load_uop_kernels(kernels);  // else each loads where used
  // COMPUTE's start token: the LOAD engine takes it before its first load,
  // or before its first input load, or there is none.
  using LoadStart = CompileOptions::LoadStart;
  if (opt_.load_start != LoadStart::kAtOnce) b_.push(Engine::kCompute, Engine::kLoad);
  if (opt_.load_start == LoadStart::kAfterComputeStart) {
    b_.pop(Engine::kCompute, Engine::kLoad);
    load_pop_pending_ = true;
  }
  input_waits_for_start_ = opt_.load_start == LoadStart::kWeightsFirst;
}

// The first tiles' uop kernels and the last tile's, loaded in one request
// (the later loads find them resident).
std::vector<std::vector<Uop>> Conv2dProgramWriter::first_kernels(const Group& gr) const {
  std::vector<std::vector<Uop>> kernels;
  for (int64_t i = 0; i < std::min<int64_t>(halves_used_, static_cast<int64_t>(tiles_.size())); ++i) {
    const TilePos& tp = tiles_[static_cast<std::size_t>(i)];
    kernels.push_back(alu_kernel(i));
    if (fused_) {
      kernels.push_back(reset_kernel(i));
      for (auto& by_length : start_kernels(tp, i)) kernels.push_back(std::move(by_length.second));
    }
    kernels.push_back(gemm_kernel(tp, i, gr.gn, gr.wbase));
    if (i == 0)
      for (auto& k : first_part_kernels(tp, gr.gn, gr.wbase)) kernels.push_back(std::move(k));
  }
  const int64_t last_gn = g_.ob - (tl_.groups - 1) * nob_;
  if (tfl_ == nullptr && last_gn > 1) {
    const int64_t last = tl_.groups * static_cast<int64_t>(tiles_.size()) - 1;
    kernels.push_back(split_kernel(tiles_.back(), last % threads_, last_gn));
  }
  return kernels;
}

// Every accumulator entry must hold a clamped output or 0 before its first
// start (fused program): reset each half once, while the first loads run.
void Conv2dProgramWriter::reset_accumulators() {
  for (int64_t th = 0; th < halves_used_; ++th) {
    b_.gemm_reset(b_.load_uops(reset_kernel(th)), run_of(acc_half_));
    cp_.reset_uops += static_cast<uint64_t>(acc_half_);
  }
}

// ---- the program: tiles ---------------------------------------------------------

Conv2dProgramWriter::Tile Conv2dProgramWriter::make_tile(const Group& gr, const TilePos& tp) const {
  Tile tile{};
  tile.pos = &tp;
  tile.group = &gr;
  tile.t = tile_idx_ % threads_;
  tile.rows_in = tp.rows_in(g_);
  tile.cols_in = tp.cols_in(g_);
  tile.pix = tp.pix();
  tile.ab = acc_base(tile.t);
  const bool last_tile = tile_idx_ + 1 == tl_.groups * static_cast<int64_t>(tiles_.size());
  tile.split_store = last_tile && gr.gn > 1 && tfl_ == nullptr;
  // The input window in the image: y0 / x0 rows / columns of top / left
  // padding, then ysz x xsz data from (yi, xi), then x1 columns of padding.
  const int64_t ys = tp.r0 * g_.sh - g_.pt, xs = tp.c0 * g_.sw - g_.pl;
  tile.y0 = std::max<int64_t>(0, -ys);
  tile.yi = std::max<int64_t>(0, ys);
  tile.ysz = g_.skip_rows ? tp.rr : std::min(g_.h, ys + tile.rows_in) - tile.yi;
  tile.x0 = std::max<int64_t>(0, -xs);
  tile.xi = std::max<int64_t>(0, xs);
  tile.xsz = std::min(g_.w, xs + tile.cols_in) - tile.xi;
  tile.x1 = tile.cols_in - tile.x0 - tile.xsz;
  if (tile.ysz < 1 || tile.xsz < 1) bad("internal: a tile's input window misses the image");
  tile.first_of_chunked = tile_idx_ == 0 && first_chunks_ > 1;
  tile.runs = tile.first_of_chunked ? slice_runs(first_chunks_) : slice_runs(1);
  WorkUnit& wu = tile.wu;
  wu.tile = tile_idx_;
  wu.n = tp.n, wu.h0 = tp.r0, wu.h1 = tp.r0 + tp.rr, wu.w0 = tp.c0, wu.w1 = tp.c0 + tp.cw;
  wu.c0 = gr.ob0 * kBlock, wu.c1 = std::min(g_.o, (gr.ob0 + gr.gn) * kBlock);
  tile.desc = "tile " + std::to_string(tile_idx_) + " (n" + std::to_string(tp.n) + " oh " +
              range_str(tp.r0, tp.r0 + tp.rr) + " ow " + range_str(tp.c0, tp.c0 + tp.cw) + " oc " +
              range_str(wu.c0, wu.c1) + ")";
  return tile;
}

// The parts of output rows of the run starting at slice q_lo.
std::vector<Conv2dProgramWriter::RowPart> Conv2dProgramWriter::row_parts(const Tile& tile, int64_t q_lo) const {
  if (tile_idx_ == 0 && q_lo == 0) return first_tile_parts(*tile.pos);
  return std::vector<RowPart>{RowPart{0, tile.pos->rr, tile.rows_in}};
}

// LOAD: the input window, per input-channel block, into INP half t; on the
// first tile of a chunked group, each run's weights first, one token per run.
void Conv2dProgramWriter::load_tile_input(Tile& tile) {
  const Group& gr = *tile.group;
  load_pop_until(tile_idx_ - threads_ + 1);
  for (const auto& run : tile.runs) {
    const int64_t q_lo = run.first, q_hi = run.second;
    if (tile.first_of_chunked) {
      const int64_t per_slice = gr.gn * g_.kw, n_w = (q_hi - q_lo) * per_slice;
      b_.load_2d(MemType::kWgt, u32(gr.wbase + q_lo * per_slice),
                 r_w_.elem(static_cast<uint64_t>(gr.ob0 * g_.kk * g_.cb + q_lo * per_slice)), 1, u32(n_w), u32(n_w));
    }
    // On the first tile's first run, one token per part of output rows.
    int64_t done_rows = 0;
    for (const RowPart& part : row_parts(tile, q_lo)) {
      load_window_rows(tile, q_lo, q_hi, done_rows, part.window_rows);
      done_rows = part.window_rows;
    }
  }
  tile.wu.text = tile.desc + ": input load";
  note(tile.wu);
}

// The input blocks whose first slice is in [q_lo, q_hi): window rows [lo,
// hi) of each, with the padding rows that fall inside; then one token.
void Conv2dProgramWriter::load_window_rows(const Tile& tile, int64_t q_lo, int64_t q_hi, int64_t lo, int64_t hi) {
  const int64_t x_stride = g_.skip_rows ? g_.sh * g_.w : g_.w;
  const int64_t top = std::clamp<int64_t>(tile.y0 - lo, 0, hi - lo);
  const int64_t d_lo = std::max(lo, tile.y0), d_hi = std::min(hi, tile.y0 + tile.ysz);
  const int64_t bottom = std::max<int64_t>(0, hi - std::max(lo, tile.y0 + tile.ysz));
  const Pad pad{static_cast<uint8_t>(top), static_cast<uint8_t>(bottom), static_cast<uint8_t>(tile.x0),
                static_cast<uint8_t>(tile.x1)};
  for (int64_t cb = ceil_div(q_lo, g_.kh); cb * g_.kh < q_hi; ++cb) {
    if (input_waits_for_start_) {
      if (load_pop_pending_) b_.noop(Engine::kLoad);
      b_.pop(Engine::kCompute, Engine::kLoad);
      input_waits_for_start_ = false;
    }
    b_.load_2d(MemType::kInp, u32(inp_base(tile.t) + (cb * tile.rows_in + lo) * tile.cols_in),
               r_in_.elem(static_cast<uint64_t>(((tile.pos->n * g_.cb + cb) * g_.h + tile.yi) * g_.w + tile.xi +
                                                (d_lo - tile.y0) * x_stride)),
               u32(d_hi - d_lo), u32(tile.xsz), u32(x_stride), pad);
    load_pop_pending_ = false;
  }
  b_.push(Engine::kLoad, Engine::kCompute);
}

// COMPUTE: the reset needs only ACC half t back from the STORE of tile
// k - threads; the GEMM also needs the input. One GEMM per run of weight
// slices, each after its load.
void Conv2dProgramWriter::compute_tile(Tile& tile) {
  const TilePos& tp = *tile.pos;
  const Group& gr = *tile.group;
  if (tile_idx_ >= threads_) {
    b_.pop(Engine::kStore, Engine::kCompute);
    ++s2c_popped_;
  }
  const UopRange ak = b_.load_uops(alu_kernel(tile.t));
  if (!fused_) {
    b_.gemm_reset(alu_uop(ak, kParBias), run_of(gr.gn * tile.pix));
    cp_.reset_uops += static_cast<uint64_t>(gr.gn * tile.pix);
  } else {
    emit_start(tp, tile.t, gr.gn);
  }
  const std::vector<Uop> whole_k = gemm_kernel(tp, tile.t, gr.gn, gr.wbase);
  const UopRange whole = b_.load_uops(whole_k);
  const uint32_t per_slice = u32(g_.kw * gr.gn);
  for (const auto& [q_lo, q_hi] : tile.runs) {
    const UopRange gk{whole.bgn + static_cast<uint32_t>(q_lo) * per_slice,
                      whole.bgn + static_cast<uint32_t>(q_hi) * per_slice};
    const std::vector<Uop> run_k(whole_k.begin() + q_lo * per_slice, whole_k.begin() + q_hi * per_slice);
    for (const RowPart& part : row_parts(tile, q_lo)) {
      b_.pop(Engine::kLoad, Engine::kCompute);
      const UopRange pk = part.first == 0 ? gk : b_.load_uops(rows_down(run_k, tp, part.first));
      b_.gemm(pk, Loop{u32(part.end - part.first), u32(tp.cw), u32(g_.in_row_step() * tile.cols_in), 0},
              Loop{u32(tp.cw), 1, u32(g_.sw), 0});
    }
    cp_.gemm_uops += static_cast<uint64_t>(gk.size()) * static_cast<uint64_t>(tile.pix);
  }
  b_.push(Engine::kCompute, Engine::kLoad);  // INP half t free
  tile.wu.text = tile.desc + ": GEMM";
  note(tile.wu);
}

void Conv2dProgramWriter::emit_start(const TilePos& tp, int64_t t, int64_t gn) {
  for (const auto& [len, kernel] : start_kernels(tp, t))
    b_.alu_reg(AluOp::kMin, b_.load_uops(kernel), over_blocks(gn, tp.pix()), run_of(len));
  cp_.alu_uops += static_cast<uint64_t>(gn * tp.pix());
}

void Conv2dProgramWriter::requantize_tile(Tile& tile) {
  correct_borders(tile);
  if (tfl_ != nullptr) requantize_tflite(tile);
  else requantize_vta(tile);
  if (!tile.split_store) b_.push(Engine::kCompute, Engine::kStore);
  tile.wu.text = tile.desc + ": requantization";
  note(tile.wu);
}

// Zero-point corrections of the border pixels (the fused program's start
// values already hold them).
void Conv2dProgramWriter::correct_borders(const Tile& tile) {
  if (fused_) return;
  const TilePos& tp = *tile.pos;
  std::vector<Uop> corr_k;
  for (int64_t y = 0; y < tp.rr; ++y)
    for (int64_t x = 0; x < tp.cw; ++x) {
      const int cls = bd_.of(tp.r0 + y, tp.c0 + x);
      if (cls >= 0) corr_k.push_back(Uop{u16(tile.ab + y * tp.cw + x), u16(kParFixed + cls), 0});
    }
  if (corr_k.empty()) return;
  const UopRange ck = b_.load_uops(corr_k);
  b_.alu_reg(AluOp::kAdd, ck, over_blocks(tile.group->gn, tile.pix));
  cp_.alu_uops += static_cast<uint64_t>(ck.size() * tile.group->gn);
}

// TFLite requantization: the bias, then the program on the accumulators and
// this tile's temporaries.
void Conv2dProgramWriter::requantize_tflite(const Tile& tile) {
  const int64_t gn = tile.group->gn, pix = tile.pix;
  const Loop blocks = over_blocks(gn, pix), pixels = run_of(pix);
  b_.alu_reg(AluOp::kAdd, b_.load_uops({Uop{u16(tile.ab), u16(kParBias), 0}}), blocks, pixels);
  RqPlacement at;
  at.acc = u32(tile.ab);
  for (int k = 0; k < tfl_->temps; ++k) at.temps.push_back(u32(tile.ab + (1 + k) * gn * pix));
  at.vectors = u32(kParFixed + bd_.count);
  at.outer = blocks;
  at.inner = pixels;
  cp_.alu_uops += static_cast<uint64_t>(gn * pix) + emit_tflite_requant(b_, *tfl_, at);
}

// The 16-bit plans. The program's last tile goes block by block, each block
// stored while the next one requantizes: one block's store is left exposed.
void Conv2dProgramWriter::requantize_vta(const Tile& tile) {
  const int64_t gn = tile.group->gn, pix = tile.pix;
  const bool split = tile.split_store;
  const Loop blocks = over_blocks(gn, pix), pixels = run_of(pix);
  const UopRange parts_k = split ? b_.load_uops(split_kernel(*tile.pos, tile.t, gn)) : UopRange{};
  for (int64_t part = 0; part < (split ? gn : 1); ++part) {
    const UopRange ak = split ? UopRange{parts_k.bgn + u32(part * kParFixed), parts_k.bgn + u32((part + 1) * kParFixed)}
                              : b_.load_uops(alu_kernel(tile.t));
    const Loop outer = split ? pixels : blocks, inner = split ? Loop{} : pixels;
    const Loop all = split ? pixels : run_of(gn * pix);
    const int alu_n = emit_requant_steps(ak, outer, inner, all);
    cp_.alu_uops += static_cast<uint64_t>(alu_n * (split ? 1 : gn) * pix);
    if (split) b_.push(Engine::kCompute, Engine::kStore);
  }
}

// The requantization steps the plans need, as register-source ALU ops on
// the parameter entries of `ak` or immediates; returns how many.
int Conv2dProgramWriter::emit_requant_steps(UopRange ak, const Loop& outer, const Loop& inner, const Loop& all) {
  int alu_n = 0;
  auto reg = [&](AluOp op, int64_t entry) {
    b_.alu_reg(op, alu_uop(ak, entry), outer, inner);
    ++alu_n;
  };
  auto imm = [&](AluOp op, int32_t v) {
    b_.alu_imm(op, v, alu_uop(ak, kParBias), all);
    ++alu_n;
  };
  if (!fused_) reg(AluOp::kAdd, kParBias);
  if (any_pre_) reg(AluOp::kShr, kParPre);
  reg(AluOp::kMul, kParMul);
  if (fused_ && any_offset_) reg(AluOp::kAdd, kParOffset);
  if (any_post_) reg(AluOp::kShr, kParPost);
  if (!fused_ || !fused_->fold_zero_point) {
    if (same_zp_) imm(AluOp::kAdd, plans_[0].zero_point);
    else reg(AluOp::kAdd, kParZp);
  }
  if (same_max_) imm(AluOp::kMin, plans_[0].act_max);
  else reg(AluOp::kMin, kParMax);
  if (same_min_) imm(AluOp::kMax, plans_[0].act_min);
  else reg(AluOp::kMax, kParMin);
  return alu_n;
}

// STORE: one 2-D store per output block; a tile of whole output rows is one
// contiguous run per block, so a single store (one row per block) writes
// them all: fewer instructions to fetch.
void Conv2dProgramWriter::store_tile(Tile& tile) {
  const TilePos& tp = *tile.pos;
  const Group& gr = *tile.group;
  if (!tile.split_store) b_.pop(Engine::kCompute, Engine::kStore);
  const bool one_store = !tile.split_store && tp.cw == g_.ow && tp.rr * tp.cw <= 0xffff && g_.oh * g_.ow <= 0xffff;
  if (one_store) {
    b_.store_2d(u32(tile.ab), r_out_.elem(static_cast<uint64_t>(((tp.n * g_.ob + gr.ob0) * g_.oh + tp.r0) * g_.ow)),
                u32(gr.gn), u32(tp.rr * tp.cw), u32(g_.oh * g_.ow));
    note(store_unit(tile, gr.ob0 * kBlock, std::min(g_.o, (gr.ob0 + gr.gn) * kBlock)));
  }
  for (int64_t ob = 0; ob < (one_store ? 0 : gr.gn); ++ob) {
    if (tile.split_store) b_.pop(Engine::kCompute, Engine::kStore);
    b_.store_2d(u32(tile.ab + ob * tile.pix),
                r_out_.elem(static_cast<uint64_t>(((tp.n * g_.ob + gr.ob0 + ob) * g_.oh + tp.r0) * g_.ow + tp.c0)),
                u32(tp.rr), u32(tp.cw), u32(g_.ow));
    note(store_unit(tile, (gr.ob0 + ob) * kBlock, std::min(g_.o, (gr.ob0 + ob + 1) * kBlock)));
  }
  b_.push(Engine::kStore, Engine::kCompute);
  tile.wu.text = tile.desc + ": store";
  note(tile.wu);
}

// The work unit of a store of output channels [c0, c1) (none real: a
// padding-only block).
WorkUnit Conv2dProgramWriter::store_unit(const Tile& tile, int64_t c0, int64_t c1) const {
  WorkUnit su = tile.wu;
  su.c0 = c0;
  su.c1 = c1;
  su.stores_output = c0 < g_.o;
  su.text = tile.desc + ": store oc " + range_str(c0, c1);
  return su;
}

// ---- the end --------------------------------------------------------------------

// Drain the tokens left in the queues, then FINISH; the data into the image.
void Conv2dProgramWriter::finish() {
  load_pop_until(tile_idx_);
  if (load_pop_pending_) b_.noop(Engine::kLoad);
  const BuiltProgram bp =
      close_program(b_, cp_, cp_.layout, tile_idx_ - s2c_popped_, opt_.dram_limit, "VTA conv2d compiler");
  write_dram_data();
  adopt_program(cp_, bp, opt_.dram_base);
  cp_.output.kind = OutputLayout::Kind::kBlockedNhwc;
  cp_.output.byte_addr = r_out_.byte_addr;
  cp_.output.bytes = r_out_.bytes();
  cp_.output.shape = {g_.n, g_.oh, g_.ow, g_.o};
  cp_.tiles = static_cast<uint64_t>(tile_idx_);
  cp_.macs = useful_macs(g_, bd_);
  cp_.tiling = describe_tiling();
}

void Conv2dProgramWriter::write_dram_data() {
  if (!opt_.input_addr) {
    const std::vector<uint8_t> xin = pack_activations(input_);
    cp_.write(r_in_, xin.data(), xin.size());
  }
  const std::vector<uint8_t> xw = group_weights(pack_weights(filter_), g_, nob_);
  cp_.write(r_w_, xw.data(), xw.size());
  if (trim_params_) {
    std::vector<int32_t> kept;
    for (int64_t ob = 0; ob < g_.ob; ++ob)
      kept.insert(kept.end(), par_.begin() + (ob * ps_) * kBlock, par_.begin() + (ob * ps_ + dram_ps_) * kBlock);
    par_ = std::move(kept);
  }
  cp_.write_int32(r_p_, par_);
}

std::string Conv2dProgramWriter::describe_tiling() const {
  std::ostringstream os;
  os << "oc groups " << tl_.groups << " x " << tl_.oc_blocks_per_group << " blocks"
     << (tl_.wgt_double_buffered ? " (WGT halves)" : "") << ", tiles " << tl_.row_tiles << "x" << tl_.col_tiles
     << " of " << tl_.tile_rows << "x" << tl_.tile_cols << " outputs, " << threads_ << " thread(s), "
     << tl_.border_classes << " border classes";
  if (tfl_ != nullptr)
    os << ", TFLite " << (tfl_->rounding == quant::Rounding::kDouble ? "double" : "single") << " rounding ("
       << tfl_->steps.size() << " ALU steps, " << tfl_->temps << " temporaries)";
  return os.str();
}

}  // namespace cosim::vta::conv2d
