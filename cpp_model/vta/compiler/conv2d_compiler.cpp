#include "vta/compiler/conv2d_compiler.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <utility>

#include "common/error.hpp"
#include "common/text.hpp"
#include "vta/compiler/conv2d_geometry.hpp"
#include "vta/compiler/fused_requant.hpp"
#include "vta/compiler/layout_transform.hpp"
#include "vta/compiler/program_tail.hpp"
#include "vta/compiler/tflite_requant_emit.hpp"

namespace cosim::vta {

using namespace conv2d;

namespace {

int32_t wrap32(uint64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(v)); }

std::string range_str(int64_t a, int64_t b) { return std::to_string(a) + ".." + std::to_string(b - 1); }

}  // namespace

Conv2dTiling plan_conv2d_tiling(const std::vector<int64_t>& input_shape, const std::vector<int64_t>& filter_shape,
                                const ops::ConvParams& p, const CompileOptions& opt,
                                const TfliteRequantProgram* requant) {
  const Geo g = make_geo(input_shape, filter_shape, p);
  return choose_tiling(g, make_borders(g, p.input_zero_point), opt, requant);
}

namespace {

// Both requantization modes: `tfl` null = the VTA 16-bit plans.
CompiledProgram compile_impl(const Tensor& input, const Tensor& filter, const Tensor& bias, const ops::ConvParams& p,
                             const std::vector<quant::VtaRequantPlan>& plans, const TfliteRequantProgram* tfl,
                             const CompileOptions& opt) {
  if (input.dtype() != DType::kInt8) bad(std::string("input must be int8, got ") + dtype_name(input.dtype()));
  if (filter.dtype() != DType::kInt8) bad(std::string("filter must be int8, got ") + dtype_name(filter.dtype()));
  const Geo g = make_geo(input.shape(), filter.shape(), p);
  const bool has_bias = bias.nbytes() != 0;
  if (has_bias && !(bias.dtype() == DType::kInt32 && bias.rank() == 1 && bias.dim(0) == g.o))
    bad("bias must be int32 [" + std::to_string(g.o) + "] or empty, got " + dtype_name(bias.dtype()) + " " +
        shape_str(bias.shape()));
  if (static_cast<int64_t>(plans.size()) != g.o)
    bad(std::to_string(plans.size()) + " requantization plans for " + std::to_string(g.o) + " output channels");
  for (std::size_t i = 0; i < plans.size(); ++i) {
    const auto& pl = plans[i];
    if (pl.pre_shift < 0 || pl.pre_shift > 31 || pl.post_shift < 0 || pl.post_shift > 31)
      bad("plan of channel " + std::to_string(i) + ": shifts must be in 0..31");
  }
  const int32_t zp_in = p.input_zero_point;
  if (im2col_pays(g, opt)) {
    if (zp_in < -128 || zp_in > 127) bad("input zero point " + std::to_string(zp_in) + " is outside int8");
    ops::ConvParams flat = p;
    flat.padding = ops::Padding::kValid;
    flat.stride_h = flat.stride_w = 1;
    Tensor filter_rows(DType::kInt8, {g.o, 1, 1, g.kk * g.c}, filter.layout());
    std::copy_n(filter.data<int8_t>(), filter.numel(), filter_rows.data<int8_t>());
    CompiledProgram cp = compile_impl(im2col(input, g, zp_in), filter_rows, bias, flat, plans, tfl, opt);
    cp.macs = useful_macs(g, make_borders(g, zp_in));
    cp.tiling = g.kk == 1 ? "host subsampling (stride " + std::to_string(g.sh) + "x" + std::to_string(g.sw) + "), " + cp.tiling
                          : "host im2col (" + std::to_string(g.kh) + "x" + std::to_string(g.kw) + "x" +
                                std::to_string(g.c) + " windows as " + std::to_string(g.kk * g.c) + " channels), " +
                                cp.tiling;
    return cp;
  }
  const Borders bd = make_borders(g, zp_in);
  if (tfl != nullptr && tfl->channels != 1 && static_cast<int64_t>(tfl->channels) != g.o)
    bad("TFLite requantization for " + std::to_string(tfl->channels) + " channels, the layer has " +
        std::to_string(g.o));
  const Conv2dTiling tl = choose_tiling(g, bd, opt, tfl);
  const int64_t ps = tl.param_entries;
  const int64_t threads = opt.threads;

  // DRAM budget before any large allocation.
  const uint64_t data_bytes = static_cast<uint64_t>(g.n * g.cb * g.h * g.w) * kInpElemBytes +
                              static_cast<uint64_t>(g.ob * g.kk * g.cb) * kWgtElemBytes +
                              static_cast<uint64_t>(g.ob * ps) * kAccElemBytes +
                              static_cast<uint64_t>(g.n * g.ob * g.oh * g.ow) * kOutElemBytes;
  if (data_bytes > opt.dram_limit)
    bad("input " + shape_str(input.shape()) + " needs " + std::to_string(data_bytes) +
        " bytes of DRAM data, more than the DRAM limit " + std::to_string(opt.dram_limit));

  CompiledProgram cp;
  cp.op = "conv2d";
  cp.layout = DramLayout(opt.dram_base);
  DramLayout& layout = cp.layout;
  const uint64_t in_elems = static_cast<uint64_t>(g.n * g.cb * g.h * g.w);
  DramRegion r_in;
  if (opt.input_addr) {  // an earlier program's output, already in place
    if (*opt.input_addr % kInpElemBytes != 0)
      bad("input address " + std::to_string(*opt.input_addr) + " is not a multiple of " +
          std::to_string(kInpElemBytes));
    r_in = DramRegion{"input", MemType::kInp, *opt.input_addr, in_elems};
  } else {
    r_in = layout.alloc("input", MemType::kInp, in_elems);
  }
  const DramRegion r_w = layout.alloc("weights", MemType::kWgt, static_cast<uint64_t>(g.ob * g.kk * g.cb));
  const DramRegion r_p = layout.alloc("params", MemType::kAcc, static_cast<uint64_t>(g.ob * ps));
  const DramRegion r_out = layout.alloc("output", MemType::kOut, static_cast<uint64_t>(g.n * g.ob * g.oh * g.ow));

  // ---- per-channel vectors (host) -------------------------------------------
  std::vector<int32_t> par(static_cast<std::size_t>(g.ob * ps * kBlock), 0);
  auto P = [&](int64_t ob, int64_t entry, int64_t lane) -> int32_t& {
    return par[static_cast<std::size_t>((ob * ps + entry) * kBlock + lane)];
  };
  const int8_t* wt = filter.data<int8_t>();
  const int64_t per_oc = g.kk * g.c;
  std::vector<int64_t> tap(static_cast<std::size_t>(g.kk));
  // What the accumulator holds beyond the GEMM's raw sum, per channel: the
  // bias term everywhere, plus a correction per border class.
  std::vector<int64_t> bias_terms(static_cast<std::size_t>(g.o), 0);
  std::vector<std::vector<int64_t>> corrections(static_cast<std::size_t>(bd.count),
                                                std::vector<int64_t>(static_cast<std::size_t>(g.o), 0));
  for (int64_t o = 0; o < g.ob * kBlock; ++o) {
    const int64_t ob = o / kBlock, lane = o % kBlock;
    const quant::VtaRequantPlan& pl = plans[static_cast<std::size_t>(std::min(o, g.o - 1))];
    // Padded lanes: harmless values (multiplier 0), never read back.
    P(ob, kParZp, lane) = pl.zero_point;
    P(ob, kParMin, lane) = pl.act_min;
    P(ob, kParMax, lane) = pl.act_max;
    if (o >= g.o) continue;
    int64_t total = 0;
    for (int64_t k = 0; k < g.kk; ++k) {
      int64_t s = 0;
      for (int64_t c = 0; c < g.c; ++c) s += wt[o * per_oc + k * g.c + c];
      tap[static_cast<std::size_t>(k)] = s;
      total += s;
    }
    const int64_t b = has_bias ? bias.data<int32_t>()[o] : 0;
    bias_terms[static_cast<std::size_t>(o)] = b - static_cast<int64_t>(zp_in) * total;
    P(ob, kParBias, lane) = wrap32(static_cast<uint64_t>(bias_terms[static_cast<std::size_t>(o)]));
    P(ob, kParPre, lane) = pl.pre_shift;
    P(ob, kParMul, lane) = pl.multiplier;
    P(ob, kParPost, lane) = pl.post_shift;
    for (std::size_t rc = 0; rc < bd.rows.ranges.size(); ++rc)
      for (std::size_t cc = 0; cc < bd.cols.ranges.size(); ++cc) {
        const int cls = bd.id[rc * bd.cols.ranges.size() + cc];
        if (cls < 0) continue;
        int64_t valid = 0;
        for (int64_t y = bd.rows.ranges[rc].first; y < bd.rows.ranges[rc].second; ++y)
          for (int64_t x = bd.cols.ranges[cc].first; x < bd.cols.ranges[cc].second; ++x)
            valid += tap[static_cast<std::size_t>(y * g.kw + x)];
        const int64_t corr = static_cast<int64_t>(zp_in) * (total - valid);
        corrections[static_cast<std::size_t>(cls)][static_cast<std::size_t>(o)] = corr;
        P(ob, kParFixed + cls, lane) = wrap32(static_cast<uint64_t>(corr));
      }
  }
  // The fused program replaces the bias and the corrections by start values.
  const std::optional<FusedRequant> fused =
      tfl == nullptr && opt.fused_requant ? fuse_requant(plans, bias_terms, corrections) : std::nullopt;
  if (fused) {
    for (int64_t o = 0; o < g.o; ++o) {
      const auto oi = static_cast<std::size_t>(o);
      P(o / kBlock, kParBias, o % kBlock) = fused->start[0][oi];
      for (int cls = 0; cls < bd.count; ++cls)
        P(o / kBlock, kParFixed + cls, o % kBlock) = fused->start[static_cast<std::size_t>(cls) + 1][oi];
      P(o / kBlock, kParOffset, o % kBlock) = fused->offset[oi];
    }
  }
  if (tfl != nullptr) {  // the TFLite program's vectors, after the border corrections
    for (int64_t o = 0; o < g.o; ++o)
      for (std::size_t j = 0; j < tfl->vectors.size(); ++j)
        P(o / kBlock, kParFixed + bd.count + static_cast<int64_t>(j), o % kBlock) =
            tfl->vector_value(j, static_cast<std::size_t>(o));
  }
  bool any_pre = false, any_post = false, same_zp = true, same_min = true, same_max = true;
  for (const auto& pl : plans) {
    any_pre = any_pre || pl.pre_shift != 0;
    any_post = any_post || pl.post_shift != 0;
    same_zp = same_zp && pl.zero_point == plans[0].zero_point;
    same_min = same_min && pl.act_min == plans[0].act_min;
    same_max = same_max && pl.act_max == plans[0].act_max;
  }
  auto imm_ok = [](int32_t v) { return v >= -32768 && v <= 32767; };
  same_zp = same_zp && imm_ok(plans[0].zero_point);
  same_min = same_min && imm_ok(plans[0].act_min);
  same_max = same_max && imm_ok(plans[0].act_max);

  // A fused program with immediate clamps and no border classes reads only
  // the first kParFusedUsed entries of each block: DRAM holds just those, and
  // the load pads the rest of each block's entries.
  const bool trim_params = fused && tfl == nullptr && bd.count == 0 && ps == kParFixed &&
                           (fused->fold_zero_point || same_zp) && same_min && same_max;
  const int64_t dram_ps = trim_params ? kParFusedUsed : ps;  // DRAM entries per block

  // ---- SRAM plan ---------------------------------------------------------------
  const int64_t nob = tl.oc_blocks_per_group;
  const int64_t inp_half = opt.inp_depth / threads;
  const int64_t acc_params = nob * ps;
  const int64_t acc_half = nob * tl.tile_rows * tl.tile_cols * tl.pixel_entries;
  auto inp_base = [&](int64_t t) { return t * inp_half; };
  auto acc_base = [&](int64_t t) { return acc_params + t * acc_half; };

  // The first tile starts on its first run of (cb, ky) weight slices (at
  // most twelve runs) while the rest of the group's weights load; slice
  // q = cb * KH + ky.
  const int64_t slices = g.cb * g.kh;
  const int64_t first_chunks = std::min<int64_t>(slices, 12);
  auto slice_runs = [&](int64_t count) {
    std::vector<std::pair<int64_t, int64_t>> r;
    for (int64_t i = 0; i < count; ++i) r.emplace_back(slices * i / count, slices * (i + 1) / count);
    return r;
  };
  const int64_t first_run_slices = first_chunks > 1 ? slices / first_chunks : slices;
  bool any_offset = false;
  if (fused)
    for (int32_t k : fused->offset) any_offset = any_offset || k != 0;

  // ---- program -----------------------------------------------------------------
  ProgramBuilder b;
  b.set_dram_budget(opt.dram_limit - data_bytes, "VTA conv2d compiler");
  std::vector<WorkUnit>& work = cp.work;
  auto note = [&](const WorkUnit& u) {
    while (work.size() < b.size()) work.push_back(u);
  };
  int64_t tile_idx = 0, c2l_popped = 0, s2c_popped = 0;
  std::vector<int64_t> group_first;  // first tile index of each group
  // LOAD takes compute->load tokens (one per finished GEMM) until `need` are
  // taken; each pop rides on its own LOAD-engine instruction.
  bool load_pop_pending = false;
  bool input_waits_for_start = false;  // the first input load takes COMPUTE's start token
  auto load_pop_until = [&](int64_t need) {
    while (c2l_popped < need) {
      if (load_pop_pending) b.noop(Engine::kLoad);
      b.pop(Engine::kCompute, Engine::kLoad);
      load_pop_pending = true;
      ++c2l_popped;
    }
  };
  auto u16 = [](int64_t v) { return static_cast<uint16_t>(v); };
  // The output tiles of one group, in program order.
  struct TilePos {
    int64_t n, r0, rr, c0, cw;
    int64_t pix() const { return rr * cw; }
    int64_t rows_in(const Geo& g) const { return g.in_rows(rr); }
    int64_t cols_in(const Geo& g) const { return (cw - 1) * g.sw + g.kw; }
  };
  std::vector<TilePos> tiles;
  for (int64_t n = 0; n < g.n; ++n)
    for (int64_t rt = 0; rt < tl.row_tiles; ++rt)
      for (int64_t ct = 0; ct < tl.col_tiles; ++ct) {
        const int64_t r0 = rt * tl.tile_rows, rr = std::min(tl.tile_rows, g.oh - r0);
        const int64_t c0 = ct * tl.tile_cols, cw = std::min(tl.tile_cols, g.ow - c0);
        if (rr > 0 && cw > 0) tiles.push_back(TilePos{n, r0, rr, c0, cw});
      }
  // A lower bound of the program before it is built: every tile of every
  // group loads each input channel block at least once (one LOAD, 16 bytes).
  // A layer whose instructions alone cannot fit the DRAM is refused here, in
  // microseconds, not after millions of instructions are held in memory.
  {
    const uint64_t min_insns = static_cast<uint64_t>(tl.groups) * tiles.size() * static_cast<uint64_t>(g.cb);
    if (min_insns * 16 > opt.dram_limit - data_bytes)
      bad("input " + shape_str(input.shape()) + " needs at least " + std::to_string(min_insns) + " instructions (" +
          std::to_string(tl.groups) + " weight groups x " + std::to_string(tiles.size()) + " tiles x " +
          std::to_string(g.cb) + " input channel blocks), more than the " +
          std::to_string(opt.dram_limit - data_bytes) + " bytes of DRAM left beside its data");
  }
  const int64_t halves_used = std::min<int64_t>(threads, tl.groups * static_cast<int64_t>(tiles.size()));
  // The uop kernels of a tile on ACC / INP half t, in (cb, ky, kx, ob)
  // order: a run of (cb, ky) slices is a contiguous part of the whole kernel.
  auto gemm_kernel = [&](const TilePos& tp, int64_t t, int64_t gn, int64_t wbase, int64_t cb_lo, int64_t cb_hi) {
    const int64_t ab = acc_base(t), rows_in = tp.rows_in(g), cols_in = tp.cols_in(g);
    std::vector<Uop> k;
    for (int64_t cb = cb_lo; cb < cb_hi; ++cb)
      for (int64_t ky = 0; ky < g.kh; ++ky)
        for (int64_t kx = 0; kx < g.kw; ++kx)
          for (int64_t ob = 0; ob < gn; ++ob)
            k.push_back(Uop{u16(ab + ob * tp.pix()), u16(inp_base(t) + cb * rows_in * cols_in + ky * cols_in + kx),
                            u16(wbase + ((cb * g.kh + ky) * gn + ob) * g.kw + kx)});
    return k;
  };
  // Output rows [first, end) of a tile, and the input window rows [0,
  // window_rows) they read.
  struct RowPart {
    int64_t first, end, window_rows;
  };
  // The program's first tile does its first run of weight slices in parts
  // of first_part_rows output rows, each after the input rows it reads: the
  // first GEMM then waits for a part of the input window instead of all of
  // it. A part whose new window rows are all padding joins its neighbour.
  auto first_tile_parts = [&](const TilePos& tp) {
    const int64_t k = opt.first_part_rows < 1 ? 1 : ceil_div(tp.rr, opt.first_part_rows);
    const int64_t rows_in = tp.rows_in(g), ys = tp.r0 * g.sh - g.pt;
    const int64_t data_lo = std::max<int64_t>(0, -ys);
    const int64_t data_hi = data_lo + (g.skip_rows ? tp.rr : std::min(g.h, ys + rows_in) - std::max<int64_t>(0, ys));
    std::vector<RowPart> parts;
    int64_t first = 0;
    for (int64_t j = 0; j < k; ++j) {
      const int64_t end = tp.rr * (j + 1) / k, window = std::min(rows_in, g.in_rows(end));
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
  };
  // Part `a` rows down of a GEMM kernel: the same uops, `a` output rows and
  // a * in_row_step input rows further on.
  auto rows_down = [&](std::vector<Uop> k, const TilePos& tp, int64_t a) {
    for (Uop& u : k) {
      u.dst = u16(u.dst + a * tp.cw);
      u.src = u16(u.src + a * g.in_row_step() * tp.cols_in(g));
    }
    return k;
  };
  // The kernels of the first run's later parts, for the first tile on half 0.
  auto first_part_kernels = [&](const TilePos& tp, int64_t gn, int64_t wbase) {
    const std::vector<Uop> whole = gemm_kernel(tp, 0, gn, wbase, 0, g.cb);
    const std::vector<Uop> first(whole.begin(), whole.begin() + first_run_slices * g.kw * gn);
    std::vector<std::vector<Uop>> ks;
    const std::vector<RowPart> parts = first_tile_parts(tp);
    for (std::size_t j = 1; j < parts.size(); ++j) ks.push_back(rows_down(first, tp, parts[j].first));
    return ks;
  };
  // One uop per parameter entry, at the accumulators of half t.
  auto alu_kernel = [&](int64_t t) {
    std::vector<Uop> k;
    for (int64_t e = 0; e < kParFixed; ++e) k.push_back(Uop{u16(acc_base(t)), u16(e), 0});
    return k;
  };
  // The last tile's requantization block by block: one uop per parameter
  // entry of each block.
  auto split_kernel = [&](const TilePos& tp, int64_t t, int64_t gn) {
    std::vector<Uop> k;
    for (int64_t ob = 0; ob < gn; ++ob)
      for (int64_t e = 0; e < kParFixed; ++e) k.push_back(Uop{u16(acc_base(t) + ob * tp.pix()), u16(ob * ps + e), 0});
    return k;
  };
  auto reset_kernel = [&](int64_t t) { return std::vector<Uop>{Uop{u16(acc_base(t)), 0, 0}}; };
  // The fused program's start: MIN of each entry with its pixel class's
  // start value. Pixels are taken in runs along a row with one class; one
  // ALU instruction per run length covers its runs, so a tile with border
  // pixels needs a few uops per row rather than one per pixel.
  auto start_kernels = [&](const TilePos& tp, int64_t t) {
    std::map<int64_t, std::vector<Uop>> by_length;
    for (int64_t y = 0; y < tp.rr; ++y)
      for (int64_t x = 0; x < tp.cw;) {
        const int cls = bd.of(tp.r0 + y, tp.c0 + x);
        int64_t len = 1;
        while (x + len < tp.cw && bd.of(tp.r0 + y, tp.c0 + x + len) == cls) ++len;
        by_length[len].push_back(
            Uop{u16(acc_base(t) + y * tp.cw + x), u16(cls < 0 ? kParBias : kParFixed + cls), 0});
        x += len;
      }
    return by_length;
  };
  auto emit_start = [&](const TilePos& tp, int64_t t, int64_t gn) {
    const Loop over_blocks{static_cast<uint32_t>(gn), static_cast<uint32_t>(tp.pix()), static_cast<uint32_t>(ps), 0};
    for (const auto& [len, kernel] : start_kernels(tp, t))
      b.alu_reg(AluOp::kMin, b.load_uops(kernel), over_blocks, Loop{static_cast<uint32_t>(len), 1, 0, 0});
    cp.alu_uops += static_cast<uint64_t>(gn * tp.pix());
  };

  for (int64_t grp = 0; grp < tl.groups; ++grp) {
    const int64_t ob0 = grp * nob, gn = std::min(nob, g.ob - ob0);
    WorkUnit setup;
    setup.text = "group " + std::to_string(grp) + " (oc " + range_str(ob0 * kBlock, std::min(g.o, (ob0 + gn) * kBlock)) +
                 "): weights and per-channel vectors";
    // New weights only after every GEMM that read the WGT half they go to:
    // the previous group's (one buffer) or the one before (two halves).
    const int64_t wbase = tl.wgt_double_buffered ? (grp % 2) * (opt.wgt_depth / 2) : 0;
    if (!tl.wgt_double_buffered) load_pop_until(tile_idx);
    else if (grp >= 1) load_pop_until(group_first[static_cast<std::size_t>(grp - 1)]);
    group_first.push_back(tile_idx);
    // The program's first tile loads its group's weights one input-channel
    // run at a time with its input (see below); later groups load them whole.
    // The first parameters go before any LOAD-engine traffic: the COMPUTE
    // engine cannot start without them, and the memory is shared.
    const bool chunked = grp == 0 && first_chunks > 1;
    auto load_params = [&] {
      if (trim_params) {
        b.load_2d(MemType::kAcc, 0, r_p.elem(static_cast<uint64_t>(ob0 * dram_ps)), static_cast<uint32_t>(gn),
                  static_cast<uint32_t>(dram_ps), static_cast<uint32_t>(dram_ps),
                  Pad{0, 0, 0, static_cast<uint8_t>(ps - dram_ps)});
        return;
      }
      b.load_2d(MemType::kAcc, 0, r_p.elem(static_cast<uint64_t>(ob0 * ps)), 1, static_cast<uint32_t>(gn * ps),
                static_cast<uint32_t>(gn * ps));
    };
    // The parameters are first needed by the first start values, after the
    // resets. When the resets last longer than the first part's loads would
    // take at 8 bytes per cycle (ResNet-8's memory), the LOAD engine goes
    // first and the parameters load during its later traffic; otherwise
    // they go before any LOAD-engine traffic, as the memory is shared.
    bool params_late = false;
    if (grp == 0 && fused && !tiles.empty()) {
      const TilePos& t0 = tiles.front();
      const int64_t run0_cbs = ceil_div(first_run_slices, g.kh);
      const int64_t wgt_entries = chunked ? first_run_slices * gn * g.kw : gn * g.kk * g.cb;
      const int64_t inp_entries = run0_cbs * first_tile_parts(t0).front().window_rows * t0.cols_in(g);
      const int64_t first_bytes = wgt_entries * static_cast<int64_t>(kWgtElemBytes) +
                                  inp_entries * static_cast<int64_t>(kInpElemBytes);
      constexpr int64_t kAssumedBytesPerCycle = 8;
      params_late = halves_used * acc_half * kAssumedBytesPerCycle >= first_bytes;
    }
    if (grp == 0) {
      if (!params_late) load_params();
      // So are the first tiles' uop kernels and the last tile's, in one
      // request (the later loads find them resident).
      std::vector<std::vector<Uop>> kernels;
      for (int64_t i = 0; i < std::min<int64_t>(halves_used, static_cast<int64_t>(tiles.size())); ++i) {
        const TilePos& tp = tiles[static_cast<std::size_t>(i)];
        kernels.push_back(alu_kernel(i));
        if (fused) {
          kernels.push_back(reset_kernel(i));
          for (const auto& [len, kernel] : start_kernels(tp, i)) kernels.push_back(kernel);
        }
        kernels.push_back(gemm_kernel(tp, i, gn, wbase, 0, g.cb));
        if (i == 0)
          for (auto& k : first_part_kernels(tp, gn, wbase)) kernels.push_back(std::move(k));
      }
      const int64_t last_gn = g.ob - (tl.groups - 1) * nob;
      if (tfl == nullptr && last_gn > 1) {
        const int64_t last = tl.groups * static_cast<int64_t>(tiles.size()) - 1;
        kernels.push_back(split_kernel(tiles.back(), last % threads, last_gn));
      }
      std::size_t preload = 0;
      for (const auto& k : kernels) preload += k.size();
      if (preload <= kUopDepth / 2) b.load_uop_kernels(kernels);  // else each loads where used
      // COMPUTE's start token: the LOAD engine takes it before its first
      // load, or before its first input load, or there is none.
      using LoadStart = CompileOptions::LoadStart;
      if (opt.load_start != LoadStart::kAtOnce) b.push(Engine::kCompute, Engine::kLoad);
      if (opt.load_start == LoadStart::kAfterComputeStart) {
        b.pop(Engine::kCompute, Engine::kLoad);
        load_pop_pending = true;
      }
      input_waits_for_start = opt.load_start == LoadStart::kWeightsFirst;
    }
    if (!chunked) {
      b.load_2d(MemType::kWgt, static_cast<uint32_t>(wbase), r_w.elem(static_cast<uint64_t>(ob0 * g.kk * g.cb)), 1,
                static_cast<uint32_t>(gn * g.kk * g.cb), static_cast<uint32_t>(gn * g.kk * g.cb));
      load_pop_pending = false;
    }
    if (grp > 0) load_params();
    if (fused && grp == 0) {
      // Every accumulator entry must hold a clamped output or 0 before its
      // first start: reset each half once, while the first loads run.
      for (int64_t th = 0; th < halves_used; ++th) {
        b.gemm_reset(b.load_uops(reset_kernel(th)), Loop{static_cast<uint32_t>(acc_half), 1, 0, 0});
        cp.reset_uops += static_cast<uint64_t>(acc_half);
      }
    }
    if (params_late) load_params();
    note(setup);

    for (const TilePos& tp : tiles) {
      const int64_t n = tp.n, r0 = tp.r0, rr = tp.rr, c0 = tp.c0, cw = tp.cw;
      const int64_t t = tile_idx % threads;
      const int64_t rows_in = tp.rows_in(g), cols_in = tp.cols_in(g);
      const bool last_tile = tile_idx + 1 == tl.groups * static_cast<int64_t>(tiles.size());
      const bool split_store = last_tile && gn > 1 && tfl == nullptr;
      const int64_t ys = r0 * g.sh - g.pt, xs = c0 * g.sw - g.pl;
      const int64_t y0 = std::max<int64_t>(0, -ys), yi = std::max<int64_t>(0, ys);
      const int64_t ysz = g.skip_rows ? rr : std::min(g.h, ys + rows_in) - yi;
      const int64_t x0 = std::max<int64_t>(0, -xs), xi = std::max<int64_t>(0, xs);
      const int64_t xsz = std::min(g.w, xs + cols_in) - xi, x1 = cols_in - x0 - xsz;
      if (ysz < 1 || xsz < 1) bad("internal: a tile's input window misses the image");
      const int64_t pix = rr * cw;
      WorkUnit wu;
      wu.tile = tile_idx;
      wu.n = n, wu.h0 = r0, wu.h1 = r0 + rr, wu.w0 = c0, wu.w1 = c0 + cw;
      wu.c0 = ob0 * kBlock, wu.c1 = std::min(g.o, (ob0 + gn) * kBlock);
      const std::string desc = "tile " + std::to_string(tile_idx) + " (n" + std::to_string(n) + " oh " +
                               range_str(r0, r0 + rr) + " ow " + range_str(c0, c0 + cw) + " oc " +
                               range_str(wu.c0, wu.c1) + ")";

      // LOAD: the input window, per input-channel block, into INP half t;
      // on the first tile of a chunked group, each run's weights first,
      // one token per run.
      load_pop_until(tile_idx - threads + 1);
      const bool first_of_chunked = tile_idx == 0 && first_chunks > 1;
      const std::vector<std::pair<int64_t, int64_t>> runs =
          first_of_chunked ? slice_runs(first_chunks) : slice_runs(1);
      // The parts of output rows of the run starting at slice q_lo.
      auto row_parts = [&](int64_t q_lo) {
        if (tile_idx == 0 && q_lo == 0) return first_tile_parts(tp);
        return std::vector<RowPart>{RowPart{0, rr, rows_in}};
      };
      for (const auto& run : runs) {
        // Plain names: a lambda below captures them (C++17 cannot capture a structured binding).
        const int64_t q_lo = run.first, q_hi = run.second;
        if (first_of_chunked) {
          const int64_t per_slice = gn * g.kw, n_w = (q_hi - q_lo) * per_slice;
          b.load_2d(MemType::kWgt, static_cast<uint32_t>(wbase + q_lo * per_slice),
                    r_w.elem(static_cast<uint64_t>(ob0 * g.kk * g.cb + q_lo * per_slice)), 1,
                    static_cast<uint32_t>(n_w), static_cast<uint32_t>(n_w));
        }
        // The input blocks whose first slice is in this run: window rows
        // [lo, hi) of each, with the padding rows that fall inside; on the
        // first tile's first run, one token per part of output rows.
        const int64_t x_stride = g.skip_rows ? g.sh * g.w : g.w;
        auto load_rows = [&](int64_t lo, int64_t hi) {
          const int64_t top = std::clamp<int64_t>(y0 - lo, 0, hi - lo);
          const int64_t d_lo = std::max(lo, y0), d_hi = std::min(hi, y0 + ysz);
          const int64_t bottom = std::max<int64_t>(0, hi - std::max(lo, y0 + ysz));
          const Pad pad{static_cast<uint8_t>(top), static_cast<uint8_t>(bottom), static_cast<uint8_t>(x0),
                        static_cast<uint8_t>(x1)};
          for (int64_t cb = ceil_div(q_lo, g.kh); cb * g.kh < q_hi; ++cb) {
            if (input_waits_for_start) {
              if (load_pop_pending) b.noop(Engine::kLoad);
              b.pop(Engine::kCompute, Engine::kLoad);
              input_waits_for_start = false;
            }
            b.load_2d(MemType::kInp, static_cast<uint32_t>(inp_base(t) + (cb * rows_in + lo) * cols_in),
                      r_in.elem(static_cast<uint64_t>(((n * g.cb + cb) * g.h + yi) * g.w + xi + (d_lo - y0) * x_stride)),
                      static_cast<uint32_t>(d_hi - d_lo), static_cast<uint32_t>(xsz), static_cast<uint32_t>(x_stride),
                      pad);
            load_pop_pending = false;
          }
          b.push(Engine::kLoad, Engine::kCompute);
        };
        int64_t done_rows = 0;
        for (const RowPart& part : row_parts(q_lo)) {
          load_rows(done_rows, part.window_rows);
          done_rows = part.window_rows;
        }
      }
      wu.text = desc + ": input load";
      note(wu);

      // COMPUTE: the reset needs only ACC half t back from the STORE of
      // tile k - threads; the GEMM also needs the input.
      if (tile_idx >= threads) {
        b.pop(Engine::kStore, Engine::kCompute);
        ++s2c_popped;
      }
      const int64_t ab = acc_base(t);
      const std::vector<Uop> alu_k = alu_kernel(t);
      auto alu_uop = [](UopRange k, int64_t e) {
        return UopRange{k.bgn + static_cast<uint32_t>(e), k.bgn + static_cast<uint32_t>(e) + 1};
      };
      UopRange ak = b.load_uops(alu_k);
      if (!fused) {
        b.gemm_reset(alu_uop(ak, kParBias), Loop{static_cast<uint32_t>(gn * pix), 1, 0, 0});
        cp.reset_uops += static_cast<uint64_t>(gn * pix);
      } else {
        emit_start(tp, t, gn);
      }
      // One GEMM per run of weight slices, each after its load.
      const std::vector<Uop> whole_k = gemm_kernel(tp, t, gn, wbase, 0, g.cb);
      const UopRange whole = b.load_uops(whole_k);
      const uint32_t per_slice = static_cast<uint32_t>(g.kw * gn);
      for (const auto& [q_lo, q_hi] : runs) {
        const UopRange gk{whole.bgn + static_cast<uint32_t>(q_lo) * per_slice,
                          whole.bgn + static_cast<uint32_t>(q_hi) * per_slice};
        const std::vector<Uop> run_k(whole_k.begin() + q_lo * per_slice, whole_k.begin() + q_hi * per_slice);
        for (const RowPart& part : row_parts(q_lo)) {
          b.pop(Engine::kLoad, Engine::kCompute);
          const UopRange pk = part.first == 0 ? gk : b.load_uops(rows_down(run_k, tp, part.first));
          b.gemm(pk,
                 Loop{static_cast<uint32_t>(part.end - part.first), static_cast<uint32_t>(cw),
                      static_cast<uint32_t>(g.in_row_step() * cols_in), 0},
                 Loop{static_cast<uint32_t>(cw), 1, static_cast<uint32_t>(g.sw), 0});
        }
        cp.gemm_uops += static_cast<uint64_t>(gk.size()) * static_cast<uint64_t>(pix);
      }
      b.push(Engine::kCompute, Engine::kLoad);  // INP half t free
      wu.text = desc + ": GEMM";
      note(wu);

      const Loop over_blocks{static_cast<uint32_t>(gn), static_cast<uint32_t>(pix), static_cast<uint32_t>(ps), 0};
      const Loop over_pixels{static_cast<uint32_t>(pix), 1, 0, 0};
      const Loop over_all{static_cast<uint32_t>(gn * pix), 1, 0, 0};
      // Zero-point corrections of the border pixels (the fused program's
      // start values already hold them).
      std::vector<Uop> corr_k;
      for (int64_t y = 0; y < rr && !fused; ++y)
        for (int64_t x = 0; x < cw; ++x) {
          const int cls = bd.of(r0 + y, c0 + x);
          if (cls >= 0) corr_k.push_back(Uop{u16(ab + y * cw + x), u16(kParFixed + cls), 0});
        }
      if (!corr_k.empty()) {
        const UopRange ck = b.load_uops(corr_k);
        b.alu_reg(AluOp::kAdd, ck, over_blocks);
        cp.alu_uops += static_cast<uint64_t>(ck.size() * gn);
      }
      if (tfl != nullptr) {
        // TFLite requantization: the bias, then the program on the
        // accumulators and this tile's temporaries.
        b.alu_reg(AluOp::kAdd, b.load_uops({Uop{u16(ab), u16(kParBias), 0}}), over_blocks, over_pixels);
        RqPlacement at;
        at.acc = static_cast<uint32_t>(ab);
        for (int k = 0; k < tfl->temps; ++k) at.temps.push_back(static_cast<uint32_t>(ab + (1 + k) * gn * pix));
        at.vectors = static_cast<uint32_t>(kParFixed + bd.count);
        at.outer = over_blocks;
        at.inner = over_pixels;
        cp.alu_uops += static_cast<uint64_t>(gn * pix) + emit_tflite_requant(b, *tfl, at);
      } else {
        // The program's last tile goes block by block, each block stored
        // while the next one requantizes: one block's store is left exposed.
        const bool split = split_store;
        const UopRange parts_k = split ? b.load_uops(split_kernel(tp, t, gn)) : UopRange{};
        for (int64_t part = 0; part < (split ? gn : 1); ++part) {
          ak = split ? UopRange{parts_k.bgn + static_cast<uint32_t>(part * kParFixed),
                                parts_k.bgn + static_cast<uint32_t>((part + 1) * kParFixed)}
                     : b.load_uops(alu_k);
          const Loop outer = split ? over_pixels : over_blocks, inner = split ? Loop{} : over_pixels;
          const Loop all = split ? over_pixels : over_all;
          int alu_n = 0;
          auto reg = [&](AluOp op, int64_t entry) {
            b.alu_reg(op, alu_uop(ak, entry), outer, inner);
            ++alu_n;
          };
          auto imm = [&](AluOp op, int32_t v) {
            b.alu_imm(op, v, alu_uop(ak, kParBias), all);
            ++alu_n;
          };
          if (!fused) reg(AluOp::kAdd, kParBias);
          if (any_pre) reg(AluOp::kShr, kParPre);
          reg(AluOp::kMul, kParMul);
          if (fused && any_offset) reg(AluOp::kAdd, kParOffset);
          if (any_post) reg(AluOp::kShr, kParPost);
          if (!fused || !fused->fold_zero_point) {
            if (same_zp) imm(AluOp::kAdd, plans[0].zero_point); else reg(AluOp::kAdd, kParZp);
          }
          if (same_max) imm(AluOp::kMin, plans[0].act_max); else reg(AluOp::kMin, kParMax);
          if (same_min) imm(AluOp::kMax, plans[0].act_min); else reg(AluOp::kMax, kParMin);
          cp.alu_uops += static_cast<uint64_t>(alu_n * (split ? 1 : gn) * pix);
          if (split) b.push(Engine::kCompute, Engine::kStore);
        }
      }
      if (!split_store) b.push(Engine::kCompute, Engine::kStore);
      wu.text = desc + ": requantization";
      note(wu);

      // STORE: one 2-D store per output block; a tile of whole output rows
      // is one contiguous run per block, so a single store (one row per
      // block) writes them all: fewer instructions to fetch.
      if (!split_store) b.pop(Engine::kCompute, Engine::kStore);
      const bool one_store = !split_store && cw == g.ow && rr * cw <= 0xffff && g.oh * g.ow <= 0xffff;
      if (one_store) {
        b.store_2d(static_cast<uint32_t>(ab), r_out.elem(static_cast<uint64_t>(((n * g.ob + ob0) * g.oh + r0) * g.ow)),
                   static_cast<uint32_t>(gn), static_cast<uint32_t>(rr * cw), static_cast<uint32_t>(g.oh * g.ow));
        WorkUnit su = wu;
        su.c0 = ob0 * kBlock;
        su.c1 = std::min(g.o, (ob0 + gn) * kBlock);
        su.stores_output = su.c0 < g.o;
        su.text = desc + ": store oc " + range_str(su.c0, su.c1);
        note(su);
      }
      for (int64_t ob = 0; ob < (one_store ? 0 : gn); ++ob) {
        if (split_store) b.pop(Engine::kCompute, Engine::kStore);
        b.store_2d(static_cast<uint32_t>(ab + ob * pix),
                   r_out.elem(static_cast<uint64_t>(((n * g.ob + ob0 + ob) * g.oh + r0) * g.ow + c0)),
                   static_cast<uint32_t>(rr), static_cast<uint32_t>(cw), static_cast<uint32_t>(g.ow));
        WorkUnit su = wu;
        su.stores_output = true;
        su.c0 = (ob0 + ob) * kBlock;
        su.c1 = std::min(g.o, (ob0 + ob + 1) * kBlock);
        su.text = desc + ": store oc " + range_str(su.c0, su.c1);
        if (su.c0 >= g.o) su.stores_output = false;  // a padding-only block
        note(su);
      }
      b.push(Engine::kStore, Engine::kCompute);
      wu.text = desc + ": store";
      note(wu);
      ++tile_idx;
    }
  }

  // Drain the tokens left in the queues, then FINISH.
  load_pop_until(tile_idx);
  if (load_pop_pending) b.noop(Engine::kLoad);
  const BuiltProgram bp = close_program(b, cp, layout, tile_idx - s2c_popped, opt.dram_limit, "VTA conv2d compiler");
  if (!opt.input_addr) {
    const std::vector<uint8_t> xin = pack_activations(input);
    write_region(cp.dram, r_in, xin.data(), xin.size());
  }
  const std::vector<uint8_t> xw = group_weights(pack_weights(filter), g, nob);
  write_region(cp.dram, r_w, xw.data(), xw.size());
  if (trim_params) {
    std::vector<int32_t> kept;
    for (int64_t ob = 0; ob < g.ob; ++ob)
      kept.insert(kept.end(), par.begin() + (ob * ps) * kBlock, par.begin() + (ob * ps + dram_ps) * kBlock);
    par = std::move(kept);
  }
  write_int32_region(cp.dram, r_p, par);
  adopt_program(cp, bp, opt.dram_base);

  cp.output.kind = OutputLayout::Kind::kBlockedNhwc;
  cp.output.byte_addr = r_out.byte_addr;
  cp.output.bytes = r_out.bytes();
  cp.output.shape = {g.n, g.oh, g.ow, g.o};
  cp.tiles = static_cast<uint64_t>(tile_idx);
  cp.macs = useful_macs(g, bd);
  std::ostringstream os;
  os << "oc groups " << tl.groups << " x " << tl.oc_blocks_per_group << " blocks"
     << (tl.wgt_double_buffered ? " (WGT halves)" : "") << ", tiles " << tl.row_tiles << "x"
     << tl.col_tiles << " of " << tl.tile_rows << "x" << tl.tile_cols << " outputs, " << threads << " thread(s), "
     << tl.border_classes << " border classes";
  if (tfl != nullptr)
    os << ", TFLite " << (tfl->rounding == quant::Rounding::kDouble ? "double" : "single") << " rounding ("
       << tfl->steps.size() << " ALU steps, " << tfl->temps << " temporaries)";
  cp.tiling = os.str();
  return cp;
}

}  // namespace

CompiledProgram compile_conv2d(const Tensor& input, const Tensor& filter, const Tensor& bias,
                               const ops::ConvParams& p, const std::vector<quant::VtaRequantPlan>& plans,
                               const CompileOptions& opt) {
  return compile_impl(input, filter, bias, p, plans, nullptr, opt);
}

CompiledProgram compile_conv2d(const Tensor& input, const Tensor& filter, const Tensor& bias,
                               const ops::ConvParams& p, const TfliteRequantProgram& requant,
                               const CompileOptions& opt) {
  // The 16-bit vectors are still written (harmless zeros); only the bias is read.
  const int64_t channels = filter.rank() == 4 ? filter.dim(0) : 0;
  return compile_impl(input, filter, bias, p, std::vector<quant::VtaRequantPlan>(static_cast<std::size_t>(channels)),
                      &requant, opt);
}

}  // namespace cosim::vta
