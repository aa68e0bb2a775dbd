#include "tinydnn/host_program.hpp"

#include <cstring>
#include <stdexcept>

#include "common/error.hpp"
#include "tinydnn/dma_regs.hpp"
#include "tinydnn/program.hpp"

namespace cosim::tinydnn {

using namespace dma;

const char* mode_name(Mode m) {
  switch (m) {
    case Mode::kForward: return "fwd";
    case Mode::kBackward: return "bwd";
    case Mode::kWeightGrad: return "dw";
    case Mode::kTrainStep: return "train_step";
  }
  return "?";
}

namespace {

bool uses_forward(Mode m) { return m == Mode::kForward || m == Mode::kTrainStep; }
bool uses_backward(Mode m) { return m == Mode::kBackward || m == Mode::kTrainStep; }
bool uses_dw(Mode m) { return m == Mode::kWeightGrad || m == Mode::kTrainStep; }
bool needs_x(Mode m) { return m != Mode::kBackward; }
bool needs_delta(Mode m) { return m != Mode::kForward; }
bool needs_w(Mode m) { return m != Mode::kWeightGrad; }

void expect_size(const char* what, std::size_t got, std::size_t want) {
  if (got != want)
    throw InputError(std::string("tinydnn job: ") + what + " has " + std::to_string(got) + " elements, expected " +
                     std::to_string(want));
}

Tensor fp32_tensor(const std::vector<int64_t>& shape, Layout layout, const std::vector<uint32_t>& bits) {
  Tensor t(DType::kFp32, shape, layout);
  std::memcpy(t.bytes().data(), bits.data(), bits.size() * 4);
  return t;
}

Tensor fp32_tensor(const std::vector<int64_t>& shape, Layout layout, const std::vector<float>& v) {
  Tensor t(DType::kFp32, shape, layout);
  std::memcpy(t.bytes().data(), v.data(), v.size() * 4);
  return t;
}

// y / dx: one output over all samples, or one per sample when a sample's
// packet is an odd number of floats (its last beat is padded).
void add_per_sample(Golden& g, const std::string& kind, const std::vector<int64_t>& chw,
                    const std::vector<std::vector<uint32_t>>& bits, const std::vector<std::vector<float>>& ref) {
  const int batch = static_cast<int>(bits.size());
  const int64_t per = chw[0] * chw[1] * chw[2];
  std::vector<uint32_t> all_bits;
  std::vector<float> all_ref;
  for (int k = 0; k < batch; ++k) all_bits.insert(all_bits.end(), bits[k].begin(), bits[k].end());
  for (const auto& r : ref) all_ref.insert(all_ref.end(), r.begin(), r.end());  // none: WithReference::kNone
  const bool has_ref = !all_ref.empty();  // empty: WithReference::kNone
  if (has_ref) g.error[kind] = relative_error(all_bits, all_ref);
  if (per % 2 == 0 || batch == 1) {
    const std::vector<int64_t> shape{batch, chw[0], chw[1], chw[2]};
    g.outputs.push_back(Output{kind, kind, fp32_tensor(shape, Layout::kNCHW, all_bits),
                               has_ref ? fp32_tensor(shape, Layout::kNCHW, all_ref) : Tensor(), batch});
    return;
  }
  const std::vector<int64_t> shape{1, chw[0], chw[1], chw[2]};
  for (int k = 0; k < batch; ++k)
    g.outputs.push_back(Output{kind + "_s" + std::to_string(k), kind, fp32_tensor(shape, Layout::kNCHW, bits[k]),
                               has_ref ? fp32_tensor(shape, Layout::kNCHW, ref[k]) : Tensor(), 1});
}

// Bump allocation of DRAM for packets and result buffers.
class Region {
 public:
  Region(uint64_t& next, uint64_t limit, const char* what) : next_(next), limit_(limit), what_(what) {}
  uint64_t take(uint64_t bytes) {
    const uint64_t a = next_;
    if (a + bytes > limit_)
      throw InputError(std::string("tinydnn: the ") + what_ + " need more than the region up to " +
                       std::to_string(limit_) + " bytes (" + std::to_string(a + bytes) + ")");
    next_ = (a + bytes + 63) & ~uint64_t(63);  // 64-byte aligned packets
    return a;
  }

 private:
  uint64_t& next_;
  uint64_t limit_;
  const char* what_;
};

std::vector<uint8_t> packet_bytes(const std::vector<uint16_t>& elems) {
  const std::vector<uint64_t> beats = pack_bf16_beats(elems);
  std::vector<uint8_t> b(beats.size() * 8);
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = uint8_t(beats[i / 8] >> (8 * (i % 8)));
  return b;
}

class Emitter {
 public:
  Emitter(trace::Trace& t, ProgramOptions& opt)
      : t_(t), opt_(opt), in_(opt.in_base, opt.in_limit, "input packets"),
        out_(opt.out_base, opt.out_limit, "result buffers") {}

  void reg(uint32_t word, uint32_t v) { t_.reg_write(uint64_t(word) * 4, v); }

  void send(const std::vector<uint16_t>& elems, const std::string& name) {
    std::vector<uint8_t> bytes = packet_bytes(elems);
    const uint64_t addr = in_.take(bytes.size());
    const uint32_t len = static_cast<uint32_t>(bytes.size());
    t_.mem_load(addr, std::move(bytes), name);
    t_.reg_write(kDmaMm2sAddr, static_cast<uint32_t>(addr));
    t_.reg_write(kDmaMm2sLen, len);
  }

  void receive(uint64_t addr, uint64_t bytes) {
    t_.reg_write(kDmaS2mmAddr, static_cast<uint32_t>(addr));
    t_.reg_write(kDmaS2mmLen, static_cast<uint32_t>(bytes));
  }

  void start_and_wait() {
    if (opt_.start || started_) reg(kRegCtrl, 1);
    started_ = true;  // only the first start is left out by the hang test
    t_.wait_done(opt_.timeout_cycles);
  }

  void configure(const HwLayer& l, int samples) {
    for (const auto& [a, v] : config_writes(l, samples)) reg(a, v);
  }

  // One run: a packet per sample in, a buffer per result packet out, the
  // buffers back to back. Returns the buffers' addresses.
  std::vector<uint64_t> run(const HwLayer& l, const std::vector<std::vector<uint16_t>>& samples, bool last,
                            int result_packets, const std::string& what) {
    reg(kRegMode, kModeRun | mode_bits(l, last));
    for (std::size_t k = 0; k < samples.size(); ++k) send(samples[k], what + "_s" + std::to_string(k));
    const uint64_t bytes = (uint64_t(l.out_elems()) + 1) / 2 * 8;
    const uint64_t base = out_.take(bytes * uint64_t(result_packets));
    std::vector<uint64_t> addrs;
    for (int k = 0; k < result_packets; ++k) {
      addrs.push_back(base + uint64_t(k) * bytes);
      receive(addrs.back(), bytes);
    }
    start_and_wait();
    return addrs;
  }

  void load(const HwLayer& l, uint32_t cmd, const std::vector<uint16_t>& elems, const std::string& name) {
    reg(kRegMode, cmd | mode_bits(l, false));
    send(elems, name);
    start_and_wait();
  }

  // mem_checks of the outputs of one kind, placed at the result buffers.
  void check(const Golden& g, const std::string& kind, const std::vector<uint64_t>& addrs) {
    std::size_t k = 0;
    for (const Output& o : g.outputs) {
      if (o.kind != kind) continue;
      // An output of several packets has an even element count per packet
      // (see add_per_sample), so its packets abut in the block of buffers.
      t_.mem_check(addrs.at(k), o.golden, o.name);
      k += std::size_t(o.packets);
    }
  }

 private:
  trace::Trace& t_;
  ProgramOptions& opt_;
  Region in_, out_;
  bool started_ = false;
};

}  // namespace

void check_hardware_fit(const LayerJob& j) {
  const ConvShape& s = j.shape;
  s.validate();
  if (j.batch < 1 || j.batch > 0xFFFF)
    throw InputError("tinydnn job: batch " + std::to_string(j.batch) + ", expected 1..65535");
  // The hardware's limits, per command the job issues (map_layer validates).
  if (uses_forward(j.mode)) map_layer(Op::kForward, s, j.bias);
  if (uses_backward(j.mode)) map_layer(Op::kBackward, s, j.mode == Mode::kBackward && j.bias);
  if (uses_dw(j.mode)) map_layer(Op::kWeightGrad, s, false);
}

void validate(const LayerJob& j) {
  check_hardware_fit(j);
  const ConvShape& s = j.shape;
  const std::size_t nx = std::size_t(s.in_c) * s.in_h * s.in_w;
  const std::size_t nd = std::size_t(s.out_c) * s.out_h() * s.out_w();
  if (needs_w(j.mode)) expect_size("w", j.w.size(), std::size_t(s.out_c) * s.in_c * s.k_h * s.k_w);
  if (j.bias && j.mode != Mode::kWeightGrad)
    expect_size("bias", j.bias_v.size(), std::size_t(j.mode == Mode::kBackward ? s.in_c : s.out_c));
  if (j.bias && j.mode == Mode::kWeightGrad) throw InputError("tinydnn job: dW takes no bias");
  if (needs_x(j.mode)) {
    expect_size("x (samples)", j.x.size(), std::size_t(j.batch));
    for (const auto& v : j.x) expect_size("x", v.size(), nx);
  }
  if (needs_delta(j.mode)) {
    expect_size("delta (samples)", j.delta.size(), std::size_t(j.batch));
    for (const auto& v : j.delta) expect_size("delta", v.size(), nd);
  }
}

Golden golden(const LayerJob& j, WithReference reference) {
  validate(j);
  if (reference == WithReference::kNone && j.mode != Mode::kForward)
    throw std::logic_error("tinydnn golden: WithReference::kNone is for forward jobs");
  const ConvShape& s = j.shape;
  Golden g;
  if (uses_forward(j.mode)) {
    const std::vector<bf16>* b = j.bias ? &j.bias_v : nullptr;
    std::vector<std::vector<uint32_t>> bits;
    std::vector<std::vector<float>> ref;
    for (int k = 0; k < j.batch; ++k) {
      bits.push_back(forward(s, j.x[k], j.w, b));
      if (reference == WithReference::kFloat32) ref.push_back(forward_ref(s, j.x[k], j.w, b));
    }
    add_per_sample(g, "y", {s.out_c, s.out_h(), s.out_w()}, bits, ref);
  }
  if (uses_backward(j.mode)) {
    const std::vector<bf16>* b = (j.mode == Mode::kBackward && j.bias) ? &j.bias_v : nullptr;
    std::vector<std::vector<uint32_t>> bits;
    std::vector<std::vector<float>> ref;
    for (int k = 0; k < j.batch; ++k) {
      bits.push_back(backward(s, j.delta[k], j.w, b));
      ref.push_back(backward_ref(s, j.delta[k], j.w, b));
    }
    add_per_sample(g, "dx", {s.in_c, s.in_h, s.in_w}, bits, ref);
  }
  if (uses_dw(j.mode)) {
    const std::vector<uint32_t> bits = weight_grad(s, j.x, j.delta);
    const std::vector<float> ref = weight_grad_ref(s, j.x, j.delta);
    const std::vector<int64_t> shape{s.out_c, s.in_c, s.k_h, s.k_w};
    g.error["dW"] = relative_error(bits, ref);
    g.outputs.push_back(Output{"dW", "dW", fp32_tensor(shape, Layout::kAny, bits),
                               fp32_tensor(shape, Layout::kAny, ref), 1});
  }
  g.macs = count_macs(j);
  return g;
}

uint64_t count_macs(const LayerJob& j) {
  const ConvShape& s = j.shape;
  const uint64_t B = uint64_t(j.batch);
  uint64_t macs = 0;
  if (uses_forward(j.mode)) {
    // Per output of each output channel: in_c*k_h*k_w products, plus the bias step.
    macs += B * s.out_c * s.out_h() * s.out_w() * (uint64_t(s.in_c) * s.k_h * s.k_w + (j.bias ? 1 : 0));
  }
  if (uses_backward(j.mode)) {
    // Full convolution: only taps that land inside delta are MAC steps.
    uint64_t taps = 0;
    for (int iy = 0; iy < s.in_h; ++iy)
      for (int ix = 0; ix < s.in_w; ++ix)
        for (int ky = 0; ky < s.k_h; ++ky)
          for (int kx = 0; kx < s.k_w; ++kx) {
            const int dy = iy - s.k_h + 1 + ky, dx = ix - s.k_w + 1 + kx;
            if (dy >= 0 && dy < s.out_h() && dx >= 0 && dx < s.out_w()) ++taps;
          }
    const bool b = j.mode == Mode::kBackward && j.bias;
    macs += B * s.in_c * (taps * s.out_c + (b ? uint64_t(s.in_h) * s.in_w : 0));
  }
  if (uses_dw(j.mode)) macs += B * s.out_c * s.in_c * s.k_h * s.k_w * uint64_t(s.out_h()) * s.out_w();
  return macs;
}

void emit_program(trace::Trace& t, const LayerJob& j, const Golden& g, ProgramOptions& opt) {
  validate(j);
  const ConvShape& s = j.shape;
  Emitter e(t, opt);
  // The DMA model's stream stalls (and fault injection) are part of the trace,
  // so a replay streams exactly the same way.
  t.reg_write(kDmaInStall, static_cast<uint32_t>(opt.in_stall * 1e6 + 0.5));
  t.reg_write(kDmaOutStall, static_cast<uint32_t>(opt.out_stall * 1e6 + 0.5));
  if (opt.fault != 0) t.reg_write(kDmaFault, opt.fault);

  if (uses_forward(j.mode)) {
    const HwLayer l = map_layer(Op::kForward, s, j.bias);
    e.configure(l, j.batch);
    e.load(l, kModeWriteWeights, weight_elements(l, s, j.w), "fwd_weights");
    if (j.bias) e.load(l, kModeWriteBias, bias_elements(j.bias_v), "fwd_bias");
    std::vector<std::vector<uint16_t>> samples;
    for (int k = 0; k < j.batch; ++k) samples.push_back(sample_elements(l, j.x[k]));
    e.check(g, "y", e.run(l, samples, false, j.batch, "fwd_x"));
  }
  if (uses_backward(j.mode)) {
    const bool bias = j.mode == Mode::kBackward && j.bias;
    const HwLayer l = map_layer(Op::kBackward, s, bias);
    e.configure(l, j.batch);
    e.load(l, kModeWriteWeights, weight_elements(l, s, j.w), "bwd_weights");
    if (bias) e.load(l, kModeWriteBias, bias_elements(j.bias_v), "bwd_bias");
    std::vector<std::vector<uint16_t>> samples;
    for (int k = 0; k < j.batch; ++k) samples.push_back(sample_elements(l, j.delta[k]));
    e.check(g, "dx", e.run(l, samples, false, j.batch, "bwd_delta"));
  }
  if (uses_dw(j.mode)) {
    const HwLayer l = map_layer(Op::kWeightGrad, s, false);
    e.configure(l, j.batch);
    std::vector<std::vector<uint16_t>> samples;
    for (int k = 0; k < j.batch; ++k) samples.push_back(sample_elements(l, j.x[k], &j.delta[k]));
    // The whole mini-batch in one run ending it: dW streams out once.
    e.check(g, "dW", e.run(l, samples, true, 1, "dw_x_delta"));
  }
}

}  // namespace cosim::tinydnn
