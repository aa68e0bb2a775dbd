#include "vta/compiler/conv2d_geometry.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "common/error.hpp"
#include "common/text.hpp"
#include "vta/compiler/layout_transform.hpp"

namespace cosim::vta::conv2d {

void bad(const std::string& what) { throw InputError("VTA conv2d compiler: " + what); }

Geo make_geo(const std::vector<int64_t>& in, const std::vector<int64_t>& f, const ops::ConvParams& p) {
  if (in.size() != 4) bad("input must be rank 4 NHWC, got " + shape_str(in));
  if (f.size() != 4) bad("filter must be rank 4 OHWI, got " + shape_str(f));
  Geo g;
  g.n = in[0], g.h = in[1], g.w = in[2], g.c = in[3];
  g.o = f[0], g.kh = f[1], g.kw = f[2];
  if (f[3] != g.c) bad("filter " + shape_str(f) + " input channels do not match input " + shape_str(in));
  if (g.n < 1 || g.h < 1 || g.w < 1 || g.c < 1) bad("empty input " + shape_str(in));
  if (g.o < 1 || g.kh < 1 || g.kw < 1) bad("empty filter " + shape_str(f));
  if (p.dilation_h != 1 || p.dilation_w != 1)
    bad("dilation " + std::to_string(p.dilation_h) + "x" + std::to_string(p.dilation_w) + " is not supported (only 1)");
  if (p.stride_h < 1 || p.stride_w < 1) bad("strides must be >= 1");
  if (g.kh > 16 || g.kw > 16) bad("kernel " + std::to_string(g.kh) + "x" + std::to_string(g.kw) + " exceeds 16x16");
  g.sh = p.stride_h, g.sw = p.stride_w;
  const ops::PadAmount ph = ops::compute_padding(p.padding, static_cast<int>(g.h), static_cast<int>(g.kh), p.stride_h, 1);
  const ops::PadAmount pw = ops::compute_padding(p.padding, static_cast<int>(g.w), static_cast<int>(g.kw), p.stride_w, 1);
  g.oh = ph.out, g.ow = pw.out, g.pt = ph.before, g.pl = pw.before;
  if (g.oh < 1 || g.ow < 1) bad("VALID output is empty: input " + shape_str(in) + ", filter " + shape_str(f));
  if (ph.before > 15 || ph.after > 15 || pw.before > 15 || pw.after > 15)
    bad("padding exceeds the 15 elements a LOAD can pad");
  if (g.w > 0xffff || g.ow > 0xffff) bad("row width above 65535 elements does not fit a LOAD/STORE x_stride");
  g.cb = ceil_div(g.c, kBlock);
  g.ob = ceil_div(g.o, kBlock);
  g.kk = g.kh * g.kw;
  g.skip_rows = g.kh == 1 && g.sh > 1 && g.pt == 0 && g.sh * g.w <= 0xffff;
  return g;
}

AxisClasses axis_classes(int64_t out, int64_t in, int64_t k, int64_t stride, int64_t pad) {
  AxisClasses a;
  std::map<std::pair<int64_t, int64_t>, int> ids;
  for (int64_t i = 0; i < out; ++i) {
    const int64_t start = i * stride - pad;
    const std::pair<int64_t, int64_t> r{std::clamp<int64_t>(-start, 0, k), std::clamp<int64_t>(in - start, 0, k)};
    auto it = ids.find(r);
    if (it == ids.end()) {
      it = ids.emplace(r, static_cast<int>(a.ranges.size())).first;
      a.ranges.push_back(r);
      if (r.first == 0 && r.second == k) a.full = it->second;
    }
    a.of.push_back(it->second);
  }
  return a;
}

Borders make_borders(const Geo& g, int32_t zp_in) {
  Borders b;
  b.rows = axis_classes(g.oh, g.h, g.kh, g.sh, g.pt);
  b.cols = axis_classes(g.ow, g.w, g.kw, g.sw, g.pl);
  b.id.assign(b.rows.ranges.size() * b.cols.ranges.size(), -1);
  if (zp_in == 0) return b;
  for (std::size_t r = 0; r < b.rows.ranges.size(); ++r)
    for (std::size_t c = 0; c < b.cols.ranges.size(); ++c)
      if (!(static_cast<int>(r) == b.rows.full && static_cast<int>(c) == b.cols.full))
        b.id[r * b.cols.ranges.size() + c] = b.count++;
  return b;
}

void check_options(const CompileOptions& opt) {
  if (opt.threads != 1 && opt.threads != 2) bad("threads must be 1 or 2, got " + std::to_string(opt.threads));
  if (opt.inp_depth < 1 || opt.inp_depth > kInpDepth || opt.wgt_depth < 1 || opt.wgt_depth > kWgtDepth ||
      opt.acc_depth < 1 || opt.acc_depth > kAccDepth)
    bad("SRAM depth options must be within the hardware buffers (INP " + std::to_string(kInpDepth) + ", WGT " +
        std::to_string(kWgtDepth) + ", ACC " + std::to_string(kAccDepth) + ")");
}

int64_t tflite_vectors(const TfliteRequantProgram* rq) { return rq ? static_cast<int64_t>(rq->vectors.size()) : 0; }
int64_t tflite_pixel_entries(const TfliteRequantProgram* rq) { return rq ? 1 + rq->temps : 1; }

Conv2dTiling choose_tiling(const Geo& g, const Borders& bd, const CompileOptions& opt,
                           const TfliteRequantProgram* rq) {
  check_options(opt);
  Conv2dTiling t;
  t.border_classes = bd.count;
  t.param_entries = kParFixed + bd.count + tflite_vectors(rq);
  t.pixel_entries = tflite_pixel_entries(rq);
  const int64_t pe = t.pixel_entries;
  const int64_t ps = t.param_entries;
  const int64_t threads = opt.threads;
  const int64_t inp_half = opt.inp_depth / threads;
  const int64_t wper = g.kk * g.cb;
  if (wper > opt.wgt_depth)
    bad("WGT buffer: the weights of one output-channel block need KH*KW*ceil(C/16) = " + std::to_string(g.kh) + "*" +
        std::to_string(g.kw) + "*" + std::to_string(g.cb) + " = " + std::to_string(wper) +
        " entries, more than the WGT depth " + std::to_string(opt.wgt_depth));
  auto fits = [&](int64_t nob, int64_t r, int64_t cw) {
    const int64_t rows_in = g.in_rows(r), cols_in = (cw - 1) * g.sw + g.kw;
    if (g.cb * rows_in * cols_in > inp_half) return false;
    if (nob * ps + threads * nob * r * cw * pe > opt.acc_depth) return false;
    // loop factors are 11-bit fields
    if (g.in_row_step() * cols_in > 2047 || g.sw > 2047 || cw > 2047 || r * cw > 2047 || ps > 2047) return false;
    return true;
  };
  int64_t nob_max = std::min<int64_t>(g.ob, opt.wgt_depth / wper);
  if (opt.oc_blocks > 0) nob_max = std::min<int64_t>(nob_max, opt.oc_blocks);
  if (opt.wgt_double_buffer && ceil_div(g.ob, nob_max) > 1 && wper <= opt.wgt_depth / 2) {
    t.wgt_double_buffered = true;
    nob_max = std::min<int64_t>(nob_max, (opt.wgt_depth / 2) / wper);
  }
  const int64_t cmax = opt.tile_cols > 0 ? std::min<int64_t>(opt.tile_cols, g.ow) : g.ow;
  const int64_t rmax = opt.tile_rows > 0 ? std::min<int64_t>(opt.tile_rows, g.oh) : g.oh;
  for (int64_t nob = nob_max; nob >= 1; --nob) {
    const int64_t groups = ceil_div(g.ob, nob);
    const int64_t nb = ceil_div(g.ob, groups);  // balanced groups
    int64_t cw = cmax;
    while (cw >= 1 && !fits(nb, 1, cw)) --cw;
    if (cw < 1) continue;
    const int64_t ct = ceil_div(g.ow, cw);
    cw = ceil_div(g.ow, ct);
    int64_t r = rmax;
    while (r > 1 && !fits(nb, r, cw)) --r;
    if (rq == nullptr && opt.tile_rows == 0) {
      // Take the row count with the least fixed COMPUTE cost rather than the
      // largest that fits. Each half's accumulators are reset once (threads
      // used x tile entries) and its GEMM kernel preloaded (about two cycles
      // per uop); every tile costs a few dozen cycles of pipeline drains and
      // syncs; the first part of the first tile's input rows is loaded
      // before any GEMM, and the last tile's last block is stored after the
      // last ALU uop.
      // (Weights fitted on ResNet-8's layers and conv2d.yaml; measured
      // against forced row counts 1..8, the choice is the best on conv2d.yaml
      // and within 2.4 % of the best on every ResNet-8 layer.)
      constexpr int64_t kTileCycles = 40;
      auto cost = [&](int64_t rows) {
        const int64_t tiles = ceil_div(g.oh, rows) * ceil_div(g.ow, cw) * g.n * ceil_div(g.ob, nb);
        const int64_t halves = std::min(threads, tiles);
        const int64_t part = opt.first_part_rows < 1 ? rows : std::min<int64_t>(rows, opt.first_part_rows);
        const int64_t first_run = g.in_rows(part) * ((cw - 1) * g.sw + g.kw);
        const int64_t last_store = rows * cw;  // the last tile's last block, about a cycle a pixel
        return halves * (nb * rows * cw * pe + 2 * g.kk * g.cb * nb) + kTileCycles * tiles + first_run + last_store;
      };
      int64_t best = r;
      for (int64_t rows = r - 1; rows >= 1; --rows)
        if (cost(rows) < cost(best)) best = rows;
      r = best;
    }
    const int64_t rt = ceil_div(g.oh, r);
    r = ceil_div(g.oh, rt);
    t.oc_blocks_per_group = nb;
    t.groups = groups;
    t.tile_rows = r;
    t.tile_cols = cw;
    t.row_tiles = rt;
    t.col_tiles = ct;
    return t;
  }
  // Nothing fits: name the buffer that even a 1x1 output tile overflows.
  const int64_t pix_inp = g.cb * g.kh * g.kw;
  if (pix_inp > inp_half)
    bad("INP buffer: one output pixel needs KH*KW*ceil(C/16) = " + std::to_string(pix_inp) +
        " input entries, more than a thread's share " + std::to_string(inp_half) + " of the INP depth " +
        std::to_string(opt.inp_depth));
  if (ps + threads * pe > opt.acc_depth)
    bad("ACC buffer: one output block needs " + std::to_string(ps) + " parameter entries plus " +
        std::to_string(threads * pe) + " accumulator entries, more than the ACC depth " + std::to_string(opt.acc_depth));
  bad("no tile fits the SRAM buffers (loop factor fields of 11 bits exceeded: stride " + std::to_string(g.sh) +
      ", kernel " + std::to_string(g.kw) + ")");
}

uint64_t useful_macs(const Geo& g, const Borders& bd) {
  uint64_t rows_valid = 0, cols_valid = 0;
  for (int64_t y = 0; y < g.oh; ++y) {
    const auto& r = bd.rows.ranges[static_cast<std::size_t>(bd.rows.of[y])];
    rows_valid += static_cast<uint64_t>(r.second - r.first);
  }
  for (int64_t x = 0; x < g.ow; ++x) {
    const auto& r = bd.cols.ranges[static_cast<std::size_t>(bd.cols.of[x])];
    cols_valid += static_cast<uint64_t>(r.second - r.first);
  }
  return static_cast<uint64_t>(g.n * g.o * g.c) * rows_valid * cols_valid;
}

bool im2col_pays(const Geo& g, const CompileOptions& opt) {
  if (opt.input_addr || !opt.host_im2col) return false;
  const bool packs_lanes = g.kk > 1 && g.c < kBlock && ceil_div(g.kk * g.c, kBlock) < g.kk * g.cb;
  const bool subsamples = g.kk == 1 && (g.sh > 1 || g.sw > 1);
  return packs_lanes || subsamples;
}

Tensor im2col(const Tensor& input, const Geo& g, int32_t zp_in) {
  const int64_t row = g.kk * g.c;
  Tensor out(DType::kInt8, {g.n, g.oh, g.ow, row}, Layout::kNHWC);
  const int8_t* x = input.data<int8_t>();
  int8_t* y = out.data<int8_t>();
  for (int64_t n = 0; n < g.n; ++n)
    for (int64_t oy = 0; oy < g.oh; ++oy)
      for (int64_t ox = 0; ox < g.ow; ++ox)
        for (int64_t ky = 0; ky < g.kh; ++ky)
          for (int64_t kx = 0; kx < g.kw; ++kx) {
            const int64_t iy = oy * g.sh - g.pt + ky, ix = ox * g.sw - g.pl + kx;
            const bool inside = iy >= 0 && iy < g.h && ix >= 0 && ix < g.w;
            for (int64_t c = 0; c < g.c; ++c)
              *y++ = inside ? x[((n * g.h + iy) * g.w + ix) * g.c + c] : static_cast<int8_t>(zp_in);
          }
  return out;
}

std::vector<uint8_t> group_weights(const std::vector<uint8_t>& packed, const Geo& g, int64_t nob) {
  std::vector<uint8_t> out(packed.size());
  for (int64_t ob0 = 0; ob0 < g.ob; ob0 += nob) {
    const int64_t gn = std::min(nob, g.ob - ob0);
    for (int64_t cb = 0; cb < g.cb; ++cb)
      for (int64_t ky = 0; ky < g.kh; ++ky)
        for (int64_t ob = 0; ob < gn; ++ob)
          for (int64_t kx = 0; kx < g.kw; ++kx) {
            const int64_t from = ((ob0 + ob) * g.kk + ky * g.kw + kx) * g.cb + cb;
            const int64_t to = ob0 * g.kk * g.cb + ((cb * g.kh + ky) * gn + ob) * g.kw + kx;
            std::copy_n(packed.begin() + from * kWgtElemBytes, kWgtElemBytes, out.begin() + to * kWgtElemBytes);
          }
  }
  return out;
}

}  // namespace cosim::vta::conv2d
