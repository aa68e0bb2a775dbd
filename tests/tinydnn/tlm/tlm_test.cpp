// The tiny-dnn accelerator through the whole TLM path: trace player ->
// register target -> DUT wrapper (own clock loop) -> DMA model -> memory
// bridge -> DRAM target, results checked in DRAM bit for bit against the
// golden model. Random layers per mode under random TVALID / TREADY and DRAM
// stalls; exact cycle counts (independent of DMI and the quantum); the
// protocol checker failing a run naming the cycle; hang diagnosis; the
// inline stream path (stream_send / stream_check); bad register accesses.
// SystemC elaborates once per process: every simulation runs in a child.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <utility>

#include "common/error.hpp"
#include "support/scratch_dir.hpp"
#include "support/sweep.hpp"
#include "scoreboard/scoreboard.hpp"
#include "support/child.hpp"
#include "support/same_cycle_configs.hpp"
#include "tinydnn/host_program.hpp"
#include "tinydnn/program.hpp"
#include "tinydnn/tinydnn_wrapper.hpp"
#include "tlm/simulation.hpp"
#include "tinydnn/bf16_gen.hpp"

class Vtinydnn_rtl;  // the variant these tests run (cosim_tinydnn_core_tinydnn_rtl)

namespace cosim::tb::tinydnn {
namespace {

using cosim::test::in_child;
using nlohmann::json;
using namespace cosim::tinydnn;
using namespace cosim::tinydnn::dma;

// TINYDNN_REGRESS (CTest label "regress") builds only the random-layer
// sweeps, with more and bigger layers, under its own suite name.
#ifdef TINYDNN_REGRESS
#define TLM_SUITE TinyDnnTlmRegress
constexpr int kDefaultLayersPerMode = 1000;
constexpr int kMaxC = 6, kMaxHW = 12, kMaxK = 5;
#else
#define TLM_SUITE TinyDnnTlm
constexpr int kDefaultLayersPerMode = 100;
constexpr int kMaxC = 3, kMaxHW = 6, kMaxK = 3;
#endif

// The TLM suite's mix: 75 % ordinary values up to 4, 15 % raw patterns.
class Gen : public cosim::tinydnn::testgen::Bf16Gen {
 public:
  explicit Gen(uint64_t seed) : Bf16Gen(seed, {75, 15, 4.0f, false}) {}
  double stall() {
    static const double p[] = {0.0, 0.3, 0.6, 0.9};
    return p[uni(0, 3)];
  }
  // A random job of `mode` that fits the hardware.
  LayerJob job(Mode mode) {
    LayerJob j;
    j.mode = mode;
    ConvShape& s = j.shape;
    s.in_h = uni(1, kMaxHW);
    s.in_w = uni(1, kMaxHW);
    s.k_h = uni(1, std::min(kMaxK, s.in_h));
    s.k_w = uni(1, std::min(kMaxK, s.in_w));
    s.in_c = mode == Mode::kBackward ? uni(1, kCores) : uni(1, kMaxC);
    s.out_c = mode == Mode::kBackward ? uni(1, kMaxC) : uni(1, kCores);
    j.batch = uni(1, mode == Mode::kWeightGrad ? 4 : 3);
    j.bias = mode != Mode::kWeightGrad && coin(0.5);
    if (mode != Mode::kWeightGrad) j.w = values(std::size_t(s.out_c) * s.in_c * s.k_h * s.k_w);
    if (j.bias) j.bias_v = values(std::size_t(mode == Mode::kBackward ? s.in_c : s.out_c));
    for (int k = 0; k < j.batch; ++k) {
      if (mode != Mode::kBackward) j.x.push_back(values(std::size_t(s.in_c) * s.in_h * s.in_w));
      if (mode != Mode::kForward) j.delta.push_back(values(std::size_t(s.out_c) * s.out_h() * s.out_w()));
    }
    return j;
  }

 private:
};

TbConfig config(uint64_t seed = 7, double dram_stall = 0.1) {
  TbConfig c;
  c.seed = seed;
  c.dram_latency = 20;
  c.stall_probability = dram_stall;
  return c;
}

// Plays a trace on the tiny-dnn wrapper in a child; returns what it saw.
json play(const trace::Trace& t, const TbConfig& cfg) {
  const std::string out_dir = cosim::test::scratch_dir("tinydnn_tlm_test");  // where mem_dump steps write
  return in_child([&] {
    WriteLog log;
    const SimOutcome out = simulate(
        t, cfg, [](const char* name, const TbConfig& c) { return std::make_unique<TinyDnnWrapper>(
            name, c, tb::tinydnn::TinyDnnBuilds{&tb::tinydnn::TinyDnnCoreOver<Vtinydnn_rtl>::build(), nullptr}); },
        out_dir, &log);
    json j;
    j["cycles"] = out.cycles;
    j["perf"] = out.perf;
    j["errors"] = out.dut_errors;
    j["dmi"] = out.memory.dmi_accesses;
    j["delay"] = out.memory_wait_cycles;
    int64_t mism = 0;
    json checks = json::array();
    for (const auto& c : out.play.checks) {
      CompareOptions o;
      o.name = c.desc.name;
      o.base_addr = c.base_addr;
      o.log = &log;
      const Comparison cmp = compare(c.expected, c.actual, o);
      mism += cmp.mismatches;
      json jc = {{"name", cmp.name}, {"elements", cmp.elements}, {"mismatches", cmp.mismatches}};
      if (!cmp.first.empty()) {
        const Mismatch& m = cmp.first[0];
        jc["first"] = cmp.name + "[" + m.coords + "] expected " + std::to_string(m.expected) + " got " +
                      std::to_string(m.actual);
        jc["first_write_cycle"] = m.cycle ? json(*m.cycle) : json(nullptr);
      }
      jc["stream_cycles"] = c.stream_cycles;
      checks.push_back(jc);
    }
    j["checks"] = checks;
    j["mismatches"] = mism;
    return j;
  });
}

std::string describe(const LayerJob& j) {
  std::ostringstream o;
  const ConvShape& s = j.shape;
  o << mode_name(j.mode) << " in " << s.in_c << "x" << s.in_h << "x" << s.in_w << ", k " << s.k_h << "x" << s.k_w
    << ", out_c " << s.out_c << ", batch " << j.batch << (j.bias ? ", bias" : "");
  return o.str();
}

// kLayersPerMode random jobs of one mode in one trace, each with its own
// stream stalls, under DRAM stalls; every output bit-exact, no protocol
// error, and the hardware's MAC count equal to the layers' MAC count.
void random_layers(Mode mode, uint64_t fixed_seed) {
  // COSIM_SWEEP_COUNT / COSIM_SWEEP_SEED (tests/support/sweep.hpp) pick a CI slice.
  const int kLayersPerMode = cosim::testing::sweep_count(kDefaultLayersPerMode);
  const uint64_t seed = cosim::testing::sweep_seed(fixed_seed);
  Gen g(seed);
  trace::Trace t;
  t.target = "tinydnn";
  ProgramOptions opt;
  opt.timeout_cycles = 2'000'000;
  std::size_t outputs = 0;
  uint64_t macs = 0;
  std::vector<std::string> what;
  for (int n = 0; n < kLayersPerMode; ++n) {
    const LayerJob j = g.job(mode);
    opt.in_stall = g.stall();
    opt.out_stall = g.stall();
    const Golden gold = golden(j);
    emit_program(t, j, gold, opt);
    outputs += gold.outputs.size();
    macs += count_macs(j);
    for (std::size_t k = 0; k < gold.outputs.size(); ++k) what.push_back("layer " + std::to_string(n) + ": " + describe(j));
  }
  const json r = play(t, config(seed));
  ASSERT_FALSE(r.contains("exception")) << r.dump();
  ASSERT_FALSE(r.contains("child_error")) << r.dump();
  EXPECT_TRUE(r["errors"].empty()) << r["errors"].dump(1);
  ASSERT_EQ(r["checks"].size(), outputs);
  for (std::size_t i = 0; i < outputs; ++i)
    EXPECT_EQ(r["checks"][i]["mismatches"], 0) << what[i] << ": " << r["checks"][i].dump();
  EXPECT_EQ(r["perf"]["mac_ops"].get<uint64_t>(), macs);
  std::printf("%s: %d layers, %zu checks, %llu cycles, %llu MACs\n", mode_name(mode), kLayersPerMode, outputs,
              (unsigned long long)r["cycles"].get<uint64_t>(), (unsigned long long)macs);
}

TEST(TLM_SUITE, ForwardRandomLayersBitExact) { random_layers(Mode::kForward, 11); }
TEST(TLM_SUITE, BackwardRandomLayersBitExact) { random_layers(Mode::kBackward, 12); }
TEST(TLM_SUITE, WeightGradRandomMiniBatchesBitExact) { random_layers(Mode::kWeightGrad, 13); }
TEST(TLM_SUITE, TrainStepRandomLayersBitExact) { random_layers(Mode::kTrainStep, 14); }

#ifndef TINYDNN_REGRESS

// A fixed train step used by the timing tests.
trace::Trace train_trace(double in_stall, double out_stall, uint32_t fault = 0, bool start = true) {
  Gen g(99);
  LayerJob j;
  j.mode = Mode::kTrainStep;
  j.shape = ConvShape{3, 7, 7, 5, 3, 3};
  j.batch = 3;
  j.bias = true;
  j.w = g.values(5 * 3 * 9);
  j.bias_v = g.values(5);
  for (int k = 0; k < 3; ++k) {
    j.x.push_back(g.values(3 * 49));
    j.delta.push_back(g.values(5 * 25));
  }
  trace::Trace t;
  t.target = "tinydnn";
  ProgramOptions opt;
  opt.in_stall = in_stall;
  opt.out_stall = out_stall;
  opt.fault = fault;
  opt.start = start;
  opt.timeout_cycles = 200'000;
  emit_program(t, j, golden(j), opt);
  return t;
}

TEST(TinyDnnTlm, CyclesDoNotDependOnDmiOrQuantumAndRepeat) {
  const trace::Trace t = train_trace(0.3, 0.3);
  const TbConfig a = config(3, 0.2);
  const auto [b, c] = cosim::test::same_cycle_configs(a);
  const json ra = play(t, a), rb = play(t, b), rc = play(t, c), rd = play(t, a);
  for (const json* r : {&ra, &rb, &rc, &rd}) {
    ASSERT_FALSE(r->contains("exception")) << r->dump();
    EXPECT_EQ((*r)["mismatches"], 0);
    EXPECT_TRUE((*r)["errors"].empty());
  }
  EXPECT_GT(ra["dmi"].get<uint64_t>(), 0u);
  EXPECT_EQ(rb["dmi"], 0);
  EXPECT_EQ(ra["cycles"], rb["cycles"]);
  EXPECT_EQ(ra["cycles"], rc["cycles"]);
  EXPECT_EQ(ra["cycles"], rd["cycles"]);  // same seed, same cycles
}

TEST(TinyDnnTlm, StallsAndDramLatencyCostCyclesNotBits) {
  const json base = play(train_trace(0.0, 0.0), config(3, 0.0));
  const json stalled = play(train_trace(0.6, 0.6), config(3, 0.0));
  TbConfig slow = config(3, 0.0);
  slow.dram_latency = 200;
  const json latent = play(train_trace(0.0, 0.0), slow);
  for (const json* r : {&base, &stalled, &latent}) {
    ASSERT_FALSE(r->contains("exception")) << r->dump();
    EXPECT_EQ((*r)["mismatches"], 0);
    EXPECT_TRUE((*r)["errors"].empty()) << (*r)["errors"].dump();
    EXPECT_EQ((*r)["perf"]["mac_ops"], base["perf"]["mac_ops"]);
  }
  EXPECT_GT(stalled["cycles"].get<uint64_t>(), base["cycles"].get<uint64_t>());
  EXPECT_GT(stalled["perf"]["in_starved_cycles"].get<uint64_t>(), base["perf"]["in_starved_cycles"].get<uint64_t>());
  EXPECT_GT(stalled["perf"]["out_backpressure_cycles"].get<uint64_t>(), 0u);
  // Every non-sequential DRAM access pays the latency: 180 more per such access.
  EXPECT_GT(latent["cycles"].get<uint64_t>(), base["cycles"].get<uint64_t>() + 180);
  EXPECT_GT(latent["delay"].get<uint64_t>(), base["delay"].get<uint64_t>());
}

// The cycle a protocol error names, from "cycle N:".
uint64_t named_cycle(const std::string& e) {
  std::smatch m;
  if (!std::regex_search(e, m, std::regex("cycle ([0-9]+):"))) return UINT64_MAX;
  return std::stoull(m[1]);
}

// The run ended normally with a first error that holds every fragment and
// names a cycle inside the run.
void expect_first_error_names(const json& r, std::initializer_list<const char*> fragments) {
  ASSERT_FALSE(r.contains("exception")) << r.dump();
  ASSERT_FALSE(r["errors"].empty());
  const std::string e = r["errors"][0];
  for (const char* f : fragments) EXPECT_NE(e.find(f), std::string::npos) << e;
  EXPECT_LT(named_cycle(e), r["cycles"].get<uint64_t>()) << e;
}

TEST(TinyDnnTlm, ProtocolCheckerFailsTheRunOnTdataChangeWhileStalled) {
  const json r = play(train_trace(0.3, 0.3, kFaultTdataChange), config());
  expect_first_error_names(r, {"tinydnn.s_axis", "TDATA changed while stalled"});
}

TEST(TinyDnnTlm, ProtocolCheckerFailsTheRunOnADuplicatedBeat) {
  const json r = play(train_trace(0.0, 0.0, kFaultDuplicateBeat), config());
  ASSERT_NO_FATAL_FAILURE(expect_first_error_names(r, {"duplicated"}));
  // The DUT swallowed one beat too many: its inputs shift and input is left over.
  EXPECT_GT(r["mismatches"].get<int64_t>(), 0);
  bool left_over = false;
  for (const auto& x : r["errors"]) left_over = left_over || x.get<std::string>().find("left input unread") != std::string::npos;
  EXPECT_TRUE(left_over) << r["errors"].dump(1);
}

TEST(TinyDnnTlm, TimeoutNamesTheControllerStates) {
  // Never started: the batch controller is idle and says so.
  const json idle = play(train_trace(0.0, 0.0, 0, false), config());
  ASSERT_TRUE(idle.contains("exception")) << idle.dump();
  const std::string w = idle["what"];
  EXPECT_NE(w.find("did not finish within 200000 cycles"), std::string::npos) << w;
  EXPECT_NE(w.find("batch controller StIdle"), std::string::npos) << w;
  EXPECT_NE(w.find("no command was started"), std::string::npos) << w;

  // A run of two samples with only one sample's packet: the receiver waits.
  const ConvShape s{1, 4, 4, 2, 3, 3};
  const HwLayer l = map_layer(Op::kForward, s, false);
  trace::Trace t;
  t.target = "tinydnn";
  for (const auto& [a, v] : config_writes(l, 2)) t.reg_write(a * 4, v);
  t.reg_write(kRegMode * 4, kModeRun | mode_bits(l, false));
  std::vector<uint8_t> packet(16 * 2, 0x3f);
  t.mem_load(0x1000, packet);
  t.reg_write(kDmaMm2sAddr, 0x1000);
  t.reg_write(kDmaMm2sLen, uint32_t(packet.size()));
  t.reg_write(kRegCtrl * 4, 1);
  t.wait_done(5000);
  const json r = play(t, config());
  ASSERT_TRUE(r.contains("exception")) << r.dump();
  const std::string d = r["what"];
  EXPECT_NE(d.find("batch controller StRun (received 1, computed 1, sent 1 samples; receiver busy"),
            std::string::npos) << d;
  EXPECT_NE(d.find("the receiver waits for input that no MM2S transfer provides"), std::string::npos) << d;
}

TEST(TinyDnnTlm, InlineStreamSendAndStreamCheckPath) {
  // The same forward layer pushed with stream_send and checked on the
  // output stream (no DMA buffers): the wrapper's stream interface.
  Gen g(21);
  const ConvShape s{2, 5, 5, 4, 3, 3};
  const HwLayer l = map_layer(Op::kForward, s, false);
  const auto w = g.values(4 * 2 * 9), x0 = g.values(50), x1 = g.values(50);
  auto bytes = [](const std::vector<uint16_t>& e) {
    std::vector<uint8_t> b;
    for (uint64_t beat : pack_bf16_beats(e))
      for (int i = 0; i < 8; ++i) b.push_back(uint8_t(beat >> (8 * i)));
    return b;
  };
  trace::Trace t;
  t.target = "tinydnn";
  t.reg_write(kDmaInStall, 400000);
  t.reg_write(kDmaOutStall, 400000);
  for (const auto& [a, v] : config_writes(l, 2)) t.reg_write(a * 4, v);
  t.reg_write(kRegMode * 4, kModeWriteWeights | mode_bits(l, false));
  t.stream_send("s_axis", bytes(weight_elements(l, s, w)));
  t.reg_write(kRegCtrl * 4, 1);
  t.wait_done(100000);
  t.reg_write(kRegMode * 4, kModeRun | mode_bits(l, false));
  t.stream_send("s_axis", bytes(sample_elements(l, x0)));
  t.stream_send("s_axis", bytes(sample_elements(l, x1)));
  t.reg_write(kRegCtrl * 4, 1);
  t.wait_done(100000);
  // Independent of the golden model's packing: 4 x 3 x 3 = 36 floats per
  // sample, an even count, so the two packets abut on the stream.
  Tensor y(DType::kFp32, {2, 4, 3, 3}, Layout::kNCHW);
  const auto y0 = forward(s, x0, w), y1 = forward(s, x1, w);
  std::copy(y0.begin(), y0.end(), reinterpret_cast<uint32_t*>(y.bytes().data()));
  std::copy(y1.begin(), y1.end(), reinterpret_cast<uint32_t*>(y.bytes().data()) + 36);
  t.stream_check("m_axis", y, "y");
  const json r = play(t, config());
  ASSERT_FALSE(r.contains("exception")) << r.dump();
  EXPECT_TRUE(r["errors"].empty()) << r["errors"].dump();
  ASSERT_EQ(r["checks"].size(), 1u);
  EXPECT_EQ(r["checks"][0]["mismatches"], 0) << r["checks"][0].dump();
  EXPECT_EQ(r["perf"]["out_beats"], 36);
  EXPECT_EQ(r["perf"]["commands"], 2);
  // Each checked byte carries the cycle its beat was handed over: eight
  // bytes a beat, 36 beats in cycle order, within the run.
  const std::vector<uint64_t> cycles = r["checks"][0]["stream_cycles"];
  ASSERT_EQ(cycles.size(), 2u * 36 * 4);
  for (std::size_t b = 0; b < 36; ++b) {
    for (std::size_t i = 1; i < 8; ++i) EXPECT_EQ(cycles[8 * b + i], cycles[8 * b]) << "beat " << b;
    if (b > 0) EXPECT_LT(cycles[8 * (b - 1)], cycles[8 * b]) << "beat " << b;
  }
  EXPECT_LT(cycles.back(), r["cycles"].get<uint64_t>());
}

TEST(TinyDnnTlm, BadRegisterAccessesAreInputErrors) {
  auto expect_input_error = [](trace::Trace t, const std::string& needle) {
    t.target = "tinydnn";
    t.wait_done(10);
    const json r = play(t, config());
    ASSERT_TRUE(r.contains("exception")) << r.dump();
    EXPECT_NE(r["what"].get<std::string>().find(needle), std::string::npos) << r["what"];
  };
  // A trace of register writes {offset, value}, in order.
  auto writes = [](std::initializer_list<std::pair<uint64_t, uint32_t>> regs) {
    trace::Trace t;
    for (const auto& [offset, value] : regs) t.reg_write(offset, value);
    return t;
  };
  expect_input_error(writes({{0x200, 1}}), "unmapped offset 0x200");
  expect_input_error(writes({{kDmaS2mmAddr, 0x1000}, {kDmaS2mmLen, 12}}), "S2MM length 12");
  expect_input_error(writes({{kDmaInStall, 950000}}), "at most 900000");
  expect_input_error(writes({{kDmaMm2sAddr, 0x3fffff8}, {kDmaMm2sLen, 64}}), "leaves DRAM");
  trace::Trace e;
  e.stream_send("input", {1, 2, 3});
  expect_input_error(e, "'s_axis'");
}

TEST(TinyDnnTlm, DebugPortDecodesAsTheRtlPacksIt) {
  // dbg_t, most significant field first: state(2) rx cmp tx ctl post
  // src_full(2) dst_full(2) rx_cnt(16) cmp_cnt(16) tx_cnt(16).
  const uint64_t dbg = (uint64_t(2) << 57) | (uint64_t(1) << 56) | (uint64_t(0) << 55) | (uint64_t(1) << 54) |
                       (uint64_t(1) << 53) | (uint64_t(0) << 52) | (uint64_t(2) << 50) | (uint64_t(1) << 48) |
                       (uint64_t(7) << 32) | (uint64_t(6) << 16) | uint64_t(5);
  const CtrlState s = CtrlState::decode(dbg);
  EXPECT_EQ(s.batch_state, 2u);
  EXPECT_TRUE(s.rx_busy);
  EXPECT_FALSE(s.cmp_busy);
  EXPECT_TRUE(s.tx_busy);
  EXPECT_TRUE(s.ctl_busy);
  EXPECT_FALSE(s.post_busy);
  EXPECT_EQ(s.src_full, 2u);
  EXPECT_EQ(s.dst_full, 1u);
  EXPECT_EQ(s.rx_cnt, 7u);
  EXPECT_EQ(s.cmp_cnt, 6u);
  EXPECT_EQ(s.tx_cnt, 5u);
}

TEST(TinyDnnTlm, MacCountFromTheLayerDefinition) {
  // Hand-counted: forward 1 sample, 2 in channels 4x4, 3 out, 3x3 kernel,
  // bias: 3 * 2*2 outputs * (18 + 1) = 228. Backward of the same layer
  // (dx 2 x 4x4): per dx element the taps that fall on the 2x2 delta, summed
  // over the 4x4 plane = 2x2 delta * 3x3 kernel = 36 per (oc, ic) pair: 36 * 3 * 2 = 216.
  // dW: 3 * 2 * 9 outputs * 4 delta elements = 216.
  LayerJob j;
  j.shape = ConvShape{2, 4, 4, 3, 3, 3};
  j.bias = true;
  j.mode = Mode::kForward;
  EXPECT_EQ(count_macs(j), 228u);
  j.mode = Mode::kBackward;
  j.bias = false;
  EXPECT_EQ(count_macs(j), 216u);
  j.mode = Mode::kWeightGrad;
  j.batch = 2;
  EXPECT_EQ(count_macs(j), 432u);
}

#endif  // TINYDNN_REGRESS

}  // namespace
}  // namespace cosim::tb::tinydnn
