#include "tf2/compiler.hpp"

#include <algorithm>
#include <cstring>

#include "common/error.hpp"
#include "tf2/packing.hpp"

namespace cosim::tf2 {

namespace {
uint32_t align64(std::size_t v) { return static_cast<uint32_t>((v + 63) & ~std::size_t{63}); }

void put32(std::vector<uint8_t>& b, std::size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = static_cast<uint8_t>(v >> (8 * i));
}

// Byte offset of channel ch of pixel (y, x) in an HC16W map of `groups`
// channel groups and w columns.
std::size_t hc16w_index(int ch, int y, int x, int groups, int w) {
  return ((static_cast<std::size_t>(y) * groups + static_cast<std::size_t>(ch / 16)) * w + x) * 16 + ch % 16;
}

void check_fits(const ConvLayer& L, const DeviceConfig& cfg, const std::string& what) {
  L.validate(what);
  auto fail = [&](const std::string& m) { throw InputError(what + ": " + m); };
  if (L.stride > 255 || L.c_in > 65535 || L.c_out > 65535) fail("stride/channel count out of descriptor range");
  check_capacity(L.c_in, L.h_in, L.w_in, L.k, cfg, what);
  if (L.min_exp < -128 || L.min_exp > 127) fail("min_exp must fit int8");
}
}  // namespace

void check_capacity(int64_t c_in, int64_t h_in, int64_t w_in, int64_t k, const DeviceConfig& cfg,
                    const std::string& what) {
  auto fail = [&](const std::string& m) { throw InputError(what + ": " + m); };
  if (k > cfg.max_k) fail("k " + std::to_string(k) + " exceeds the device maximum " + std::to_string(cfg.max_k));
  if (h_in > cfg.max_dim || w_in > cfg.max_dim) fail("h_in/w_in exceed " + std::to_string(cfg.max_dim));
  const int64_t words = (c_in + 15) / 16 * h_in * w_in;
  if (words > cfg.feat_cache_words) {
    fail("input map needs " + std::to_string(words) + " feature-cache words (ceil(c_in/16)*h_in*w_in), device has " +
         std::to_string(cfg.feat_cache_words));
  }
  const int64_t nib = c_in * k * k;
  if (nib > cfg.filter_nibbles) {
    fail("filter of " + std::to_string(nib) + " codes (c_in*k*k) exceeds the per-PE filter cache of " +
         std::to_string(cfg.filter_nibbles));
  }
}

Tensor hc16w_group(const std::vector<uint8_t>& hc16w, int g, int h, int w) {
  Tensor t(DType::kInt8, {1, h, w, 16}, Layout::kNHWC);
  const std::size_t group_bytes = static_cast<std::size_t>(h) * w * 16;
  if (group_bytes == 0 || hc16w.size() % group_bytes != 0) {
    throw InputError("tf2 hc16w_group: map of " + std::to_string(hc16w.size()) +
                     " bytes is not a whole number of channel groups of h*w*16 = " + std::to_string(group_bytes) +
                     " bytes");
  }
  const int groups = static_cast<int>(hc16w.size() / group_bytes);
  if (g < 0 || g >= groups) {
    throw InputError("tf2 hc16w_group: map too small: no channel group " + std::to_string(g) + " in a map of " +
                     std::to_string(groups) + " groups");
  }
  // Row y of the group: w pixel words, contiguous in the map.
  const std::size_t row = static_cast<std::size_t>(w) * 16;
  for (int y = 0; y < h; ++y) {
    const auto from = hc16w.begin() + static_cast<std::ptrdiff_t>(hc16w_index(16 * g, y, 0, groups, w));
    std::copy(from, from + static_cast<std::ptrdiff_t>(row), t.bytes().begin() + static_cast<std::ptrdiff_t>(y * row));
  }
  return t;
}

std::vector<uint8_t> to_hc16w(const std::vector<int8_t>& chw, int c, int h, int w) {
  if (chw.size() != static_cast<std::size_t>(c) * h * w) throw InputError("tf2 to_hc16w: size mismatch");
  const int groups = (c + 15) / 16;
  std::vector<uint8_t> out(hc16w_bytes(c, h, w), 0);
  for (int ch = 0; ch < c; ++ch) {
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        out[hc16w_index(ch, y, x, groups, w)] =
            static_cast<uint8_t>(chw[(static_cast<std::size_t>(ch) * h + y) * w + x]);
      }
    }
  }
  return out;
}

std::vector<int8_t> from_hc16w(const uint8_t* bytes, int c, int h, int w) {
  const int groups = (c + 15) / 16;
  std::vector<int8_t> out(static_cast<std::size_t>(c) * h * w);
  for (int ch = 0; ch < c; ++ch) {
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        out[(static_cast<std::size_t>(ch) * h + y) * w + x] =
            static_cast<int8_t>(bytes[hc16w_index(ch, y, x, groups, w)]);
      }
    }
  }
  return out;
}

std::vector<uint8_t> encode_descriptor(const ConvLayer& L, const LayerRegions& r) {
  std::vector<uint8_t> d(kDescBytes, 0);
  put32(d, 0, kOpConv | (L.relu ? kDescRelu : 0u) | (L.batch_norm ? kDescBatchNorm : 0u) |
                   (L.residual_from != kNoResidual ? kDescResidual : 0u) | (L.wide_requant ? kDescWideRequant : 0u));
  put32(d, 4, static_cast<uint32_t>(L.c_in) | static_cast<uint32_t>(L.c_out) << 16);
  put32(d, 8, static_cast<uint32_t>(L.h_in) | static_cast<uint32_t>(L.w_in) << 16);
  put32(d, 12, static_cast<uint32_t>(L.h_out()) | static_cast<uint32_t>(L.w_out()) << 16);
  put32(d, 16, static_cast<uint32_t>(L.k) | static_cast<uint32_t>(L.stride) << 8 | static_cast<uint32_t>(L.pad) << 16);
  put32(d, 20, static_cast<uint32_t>(static_cast<uint8_t>(L.min_exp)));
  put32(d, 24, r.in_addr);
  put32(d, 28, r.weight_addr);
  put32(d, 36, r.out_addr);
  put32(d, 40, L.residual_from != kNoResidual ? r.res_addr : 0u);
  put32(d, 44, r.qin_addr);
  return d;
}

Program compile(const std::vector<ConvLayer>& layers, const std::vector<int8_t>& input, const DeviceConfig& cfg,
                uint32_t first_address) {
  if (layers.empty()) throw InputError("tf2 compile: no layers");
  if (first_address == 0) throw InputError("tf2 compile: first address 0 (address 0 stays unused)");
  validate_residuals(layers);
  Program p;
  std::size_t top = first_address;
  auto alloc = [&](std::size_t n) {
    const uint32_t a = align64(top);
    top = a + n;
    if (top > 0xFFFFFFFFull) throw InputError("tf2 compile: program exceeds the 32-bit address space");
    return a;
  };
  p.desc_addr = alloc(kDescBytes * layers.size());
  p.desc_count = static_cast<uint32_t>(layers.size());
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const ConvLayer& L = layers[i];
    const std::string what = "tf2 layer " + std::to_string(i);
    check_fits(L, cfg, what);
    LayerRegions r;
    r.desc_addr = p.desc_addr + static_cast<uint32_t>(i * kDescBytes);
    const int src = input_source(layers, i);
    if (src == kChainInput) {
      if (input.size() != static_cast<std::size_t>(L.c_in) * L.h_in * L.w_in) {
        throw InputError(what + ": input map has " + std::to_string(input.size()) + " values, expected c_in*h_in*w_in = " +
                         std::to_string(static_cast<std::size_t>(L.c_in) * L.h_in * L.w_in));
      }
      if (i == 0) {
        r.in_bytes = hc16w_bytes(L.c_in, L.h_in, L.w_in);
        r.in_addr = alloc(r.in_bytes);
      } else {
        if (L.input_q() != layers.front().input_q()) throw InputError(what + ": reads the chain input with other Qs than layer 0");
        r.in_addr = p.layers.front().in_addr;
        r.in_bytes = p.layers.front().in_bytes;
      }
    } else {
      const ConvLayer& P = layers[static_cast<std::size_t>(src)];
      if (P.c_out != L.c_in || P.h_out() != L.h_in || P.w_out() != L.w_in) {
        throw InputError(what + ": input shape does not match the output of layer " + std::to_string(src) + " it reads");
      }
      // A map has one Q per channel: the reader must use the writer's.
      for (int c = 0; c < L.c_in; ++c) {
        if (L.qi(c) != P.qo(c)) {
          throw InputError(what + ": input channel " + std::to_string(c) + " has Q " + std::to_string(L.qi(c)) +
                           ", layer " + std::to_string(src) + " wrote it with Q " + std::to_string(P.qo(c)));
        }
      }
      r.in_addr = p.layers[static_cast<std::size_t>(src)].out_addr;
      r.in_bytes = p.layers[static_cast<std::size_t>(src)].out_bytes;
    }
    r.weight_bytes = static_cast<uint32_t>(L.c_out) * record_bytes(L.c_in, L.k);
    r.weight_addr = alloc(r.weight_bytes);
    r.qin_addr = alloc(static_cast<std::size_t>((L.c_in + 15) / 16) * 16);
    r.out_bytes = hc16w_bytes(L.c_out, L.h_out(), L.w_out());
    r.out_addr = alloc(r.out_bytes);
    if (L.residual_from == kResidualFromInput) r.res_addr = i == 0 ? r.in_addr : p.layers.front().in_addr;
    if (L.residual_from >= 0) r.res_addr = p.layers[static_cast<std::size_t>(L.residual_from)].out_addr;
    p.layers.push_back(r);
  }
  p.dram.assign(align64(top), 0);
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const ConvLayer& L = layers[i];
    const LayerRegions& r = p.layers[i];
    const std::vector<uint8_t> d = encode_descriptor(L, r);
    std::memcpy(&p.dram[r.desc_addr], d.data(), d.size());
    if (i == 0) {
      const std::vector<uint8_t> in = to_hc16w(input, L.c_in, L.h_in, L.w_in);
      std::memcpy(&p.dram[r.in_addr], in.data(), in.size());
    }
    const std::size_t ckk = static_cast<std::size_t>(L.c_in) * L.k * L.k;
    for (int o = 0; o < L.c_out; ++o) {
      const uint32_t rec = r.weight_addr + static_cast<uint32_t>(o) * record_bytes(L.c_in, L.k);
      put32(p.dram, rec, static_cast<uint32_t>(L.bias[o]));
      put32(p.dram, rec + 4, static_cast<uint32_t>(L.alpha[o]));
      put32(p.dram, rec + 8, static_cast<uint32_t>(L.beta[o]));
      p.dram[rec + 12] = static_cast<uint8_t>(L.qo(o));
      const auto first = L.codes.begin() + static_cast<std::ptrdiff_t>(o * ckk);
      const std::vector<uint8_t> w = words_to_bytes(pack_codes(std::vector<uint8_t>(first, first + static_cast<std::ptrdiff_t>(ckk))));
      std::memcpy(&p.dram[rec + 16], w.data(), w.size());
    }
    for (int c = 0; c < L.c_in; ++c) p.dram[r.qin_addr + c] = static_cast<uint8_t>(L.qi(c));
    std::memset(&p.dram[r.out_addr], kOutputFill, r.out_bytes);
  }
  return p;
}

std::vector<std::vector<uint8_t>> expected_outputs(const std::vector<ConvLayer>& layers, const std::vector<int8_t>& input) {
  const std::vector<std::vector<int8_t>> maps = sac_chain(layers, input);
  std::vector<std::vector<uint8_t>> out;
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const ConvLayer& L = layers[i];
    out.push_back(to_hc16w(maps[i], L.c_out, L.h_out(), L.w_out()));
  }
  return out;
}

}  // namespace cosim::tf2
