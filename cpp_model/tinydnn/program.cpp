#include "tinydnn/program.hpp"

#include <string>

#include "common/error.hpp"

namespace cosim::tinydnn {

namespace {

void fits(const char* what, long long v, long long lo, long long hi) {
  if (v < lo || v > hi)
    throw InputError(std::string("tinydnn: ") + what + " = " + std::to_string(v) + ", the hardware takes " +
                     std::to_string(lo) + ".." + std::to_string(hi));
}

}  // namespace

void HwLayer::validate() const {
  fits("KW", kw, 1, kMaxDim);
  fits("KH", kh, 1, kMaxDim);
  fits("IW", iw, 1, kMaxDim);
  fits("IH", ih, 1, kMaxDim);
  fits("ID", id, 1, kMaxDim);
  fits("OW", ow, 1, kMaxDim);
  fits("OH", oh, 1, kMaxDim);
  fits("OD (output channels = cores)", od, 1, kCores);
  fits("weights per core", weights_per_core(), 1, kWeightBankDepth);
  fits("source elements per sample", src_elems(), 1, kSrcBankDepth);
  fits("results per sample", out_elems(), 1, kDstBankDepth);
  const bool bwd = op == Op::kBackward;
  fits("OH", oh, bwd ? ih + kh - 1 : ih - kh + 1, bwd ? ih + kh - 1 : ih - kh + 1);
  fits("OW", ow, bwd ? iw + kw - 1 : iw - kw + 1, bwd ? iw + kw - 1 : iw - kw + 1);
}

HwLayer map_layer(Op op, const ConvShape& s, bool bias) {
  s.validate();
  HwLayer l;
  l.op = op;
  l.bias = bias;
  switch (op) {
    case Op::kForward:
      l.kw = s.k_w; l.kh = s.k_h;
      l.iw = s.in_w; l.ih = s.in_h; l.id = s.in_c;
      l.ow = s.out_w(); l.oh = s.out_h(); l.od = s.out_c;
      break;
    case Op::kBackward:
      l.kw = s.k_w; l.kh = s.k_h;
      l.iw = s.out_w(); l.ih = s.out_h(); l.id = s.out_c;
      l.ow = s.in_w; l.oh = s.in_h; l.od = s.in_c;
      break;
    case Op::kWeightGrad:
      l.kw = s.out_w(); l.kh = s.out_h();
      l.iw = s.in_w; l.ih = s.in_h; l.id = s.in_c;
      l.ow = s.k_w; l.oh = s.k_h; l.od = s.out_c;
      break;
  }
  l.validate();
  return l;
}

uint32_t mode_bits(const HwLayer& l, bool last_sample) {
  uint32_t m = 0;
  if (l.bias) m |= kModeEnableBias;
  if (l.op == Op::kBackward) m |= kModeBackward;
  if (l.op == Op::kWeightGrad) m |= kModeWeightGrad;
  if (last_sample) m |= kModeLastSample;
  return m;
}

std::vector<std::pair<uint32_t, uint32_t>> config_writes(const HwLayer& l, int samples) {
  fits("samples", samples, 1, 0xFFFF);
  return {{kRegKw, uint32_t(l.kw)}, {kRegKh, uint32_t(l.kh)}, {kRegIw, uint32_t(l.iw)},
          {kRegIh, uint32_t(l.ih)}, {kRegId, uint32_t(l.id)}, {kRegOw, uint32_t(l.ow)},
          {kRegOh, uint32_t(l.oh)}, {kRegOd, uint32_t(l.od)}, {kRegSamples, uint32_t(samples)}};
}

std::vector<uint16_t> weight_elements(const HwLayer& l, const ConvShape& s, const std::vector<bf16>& w) {
  if (w.size() != std::size_t(s.out_c) * s.in_c * s.k_h * s.k_w)
    throw InputError("tinydnn: weights have " + std::to_string(w.size()) + " elements, expected out_c*in_c*k_h*k_w");
  std::vector<uint16_t> e;
  e.reserve(w.size());
  auto at = [&](int oc, int ic, int ky, int kx) {
    return w[((std::size_t(oc) * s.in_c + ic) * s.k_h + ky) * s.k_w + kx].bits;
  };
  if (l.op == Op::kForward) {
    for (const bf16& v : w) e.push_back(v.bits);  // OIHW is already core-major
  } else if (l.op == Op::kBackward) {
    for (int ic = 0; ic < s.in_c; ++ic)  // core = input channel
      for (int oc = 0; oc < s.out_c; ++oc)
        for (int ky = 0; ky < s.k_h; ++ky)
          for (int kx = 0; kx < s.k_w; ++kx) e.push_back(at(oc, ic, ky, kx));
  } else {
    throw InputError("tinydnn: dW takes no weights (delta streams with each sample)");
  }
  return e;
}

std::vector<uint16_t> bias_elements(const std::vector<bf16>& bias) {
  std::vector<uint16_t> e;
  for (const bf16& b : bias) e.push_back(b.bits);
  return e;
}

std::vector<uint16_t> sample_elements(const HwLayer& l, const std::vector<bf16>& src, const std::vector<bf16>* delta) {
  if (src.size() != std::size_t(l.src_elems()))
    throw InputError("tinydnn: sample has " + std::to_string(src.size()) + " source elements, expected " +
                     std::to_string(l.src_elems()));
  std::vector<uint16_t> e;
  for (const bf16& v : src) e.push_back(v.bits);
  if (l.op == Op::kWeightGrad) {
    if (!delta || delta->size() != std::size_t(l.od) * l.kh * l.kw)
      throw InputError("tinydnn: dW sample needs delta of OD*KH*KW = " + std::to_string(l.od * l.kh * l.kw) +
                       " elements");
    for (const bf16& v : *delta) e.push_back(v.bits);
  }
  return e;
}

std::vector<uint64_t> pack_bf16_beats(const std::vector<uint16_t>& elems) {
  std::vector<uint64_t> beats((elems.size() + 3) / 4, 0);
  for (std::size_t i = 0; i < elems.size(); ++i) beats[i / 4] |= uint64_t(elems[i]) << (16 * (i % 4));
  return beats;
}

std::vector<uint32_t> unpack_fp32_beats(const std::vector<uint64_t>& beats, std::size_t count) {
  if (beats.size() * 2 < count)
    throw InputError("tinydnn: result stream has " + std::to_string(beats.size()) + " beats, expected " +
                     std::to_string((count + 1) / 2));
  std::vector<uint32_t> out(count);
  for (std::size_t i = 0; i < count; ++i) out[i] = uint32_t(beats[i / 2] >> (32 * (i % 2)));
  return out;
}

}  // namespace cosim::tinydnn
