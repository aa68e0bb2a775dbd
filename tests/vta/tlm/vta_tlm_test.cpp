// The VTA core in the TLM testbench, end to end: scenario -> workload ->
// compiled program -> trace -> HostPlayer -> VtaWrapper (Verilated core,
// TimedAxiSlave, TLM memory bridge, DRAM target) -> scoreboard -> report.
// SystemC elaborates once per process, so every simulation runs in a forked
// child (tests/support/child.hpp) which returns the exit status and report.json.
//
// VTA_TLM_CASES=n changes the number of random shapes (default 240; 2000 in
// the regress build), VTA_TLM_FIRST_CASE the first; VTA_TLM_TFLITE_CASES=n the
// number of TFLite-requantization cases (default 40; 3000 in the regress build).
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include "common/error.hpp"
#include "dut/vta_regs.hpp"
#include "cosim/runner.hpp"
#include "support/child.hpp"
#include "support/cosim_cli.hpp"
#include "support/scratch_dir.hpp"
#include "support/text_file.hpp"
#include "tlm/dram_timing.hpp"
#include "trace/trace.hpp"
#include "vta/core/bare_driver.hpp"
#include "vta/core/trace_program.hpp"

#ifndef VTA_TLM_DEFAULT_CASES
#define VTA_TLM_DEFAULT_CASES 240
#endif
#ifndef VTA_TLM_SUITE
#define VTA_TLM_SUITE VtaTlm
#endif

namespace cosim::backends {
std::unique_ptr<tb::TargetBackend> make_vta();
}

namespace {

namespace fs = std::filesystem;
using cosim::test::in_child;
using nlohmann::json;

// The test process's scratch folder (support/scratch_dir.hpp).
std::string work() { return cosim::test::scratch_dir("vta_tlm_test"); }

std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = work() + "/" + name;
  cosim::test::write_text(path, text);
  return path;
}

// <out>/report.json, or null when the run wrote none (bad input): read in the
// child, so no test failure of its own (cosim::test::read_report records one).
json report_if_written(const std::string& out) {
  std::ifstream f(out + "/report.json");
  if (!f) return json();
  return json::parse(f);
}

// `cosim run` / `cosim replay` as library calls in a child: exit status
// (0 / 1 returned, 2 InputError, 3 TimeoutError), the error text, the
// console and report.json.
json run_child(const std::string& yaml, const std::string& out, const std::vector<std::string>& sets = {},
               bool replay = false, cosim::tb::RunOptions opt = {}) {
  return in_child([&] {
    spdlog::set_level(spdlog::level::warn);
    cosim::tb::BackendRegistry reg;
    reg.add(cosim::backends::make_vta());
    opt.out_dir = out;
    std::ostringstream console;
    json j;
    int rc = 0;
    try {
      rc = replay ? cosim::tb::replay_trace(reg, yaml, opt, console)
                  : cosim::tb::run_scenario(reg, yaml, sets, std::nullopt, opt, console);
    } catch (const cosim::InputError& e) {
      rc = 2;
      j["what"] = e.what();
    } catch (const cosim::TimeoutError& e) {
      rc = 3;
      j["what"] = e.what();
    }
    j["rc"] = rc;
    j["console"] = console.str();
    j["report"] = report_if_written(out);
    return j;
  });
}

std::string str(const json& j) { return j.dump(1).substr(0, 3000); }

// ---------------------------------------------------------------------------
// Random workloads
// ---------------------------------------------------------------------------

struct ConvCase {
  int64_t h, w, c, o, k, stride;
  bool valid;
};

// Useful MACs written straight from the definition: every output pixel,
// every kernel tap that lands inside the input, every input x output channel.
uint64_t conv_macs(const ConvCase& cc) {
  int64_t oh, ow, ph = 0, pw = 0;
  if (cc.valid) {
    oh = (cc.h - cc.k) / cc.stride + 1;
    ow = (cc.w - cc.k) / cc.stride + 1;
  } else {
    oh = (cc.h + cc.stride - 1) / cc.stride;
    ow = (cc.w + cc.stride - 1) / cc.stride;
    ph = std::max<int64_t>((oh - 1) * cc.stride + cc.k - cc.h, 0) / 2;
    pw = std::max<int64_t>((ow - 1) * cc.stride + cc.k - cc.w, 0) / 2;
  }
  uint64_t taps = 0;
  for (int64_t y = 0; y < oh; ++y) {
    for (int64_t x = 0; x < ow; ++x) {
      for (int64_t ky = 0; ky < cc.k; ++ky) {
        for (int64_t kx = 0; kx < cc.k; ++kx) {
          const int64_t iy = y * cc.stride - ph + ky, ix = x * cc.stride - pw + kx;
          if (iy >= 0 && iy < cc.h && ix >= 0 && ix < cc.w) ++taps;
        }
      }
    }
  }
  return taps * static_cast<uint64_t>(cc.c * cc.o);
}

std::string testbench_yaml(std::mt19937_64& rng) {
  const int bpc[] = {2, 4, 8, 16, 32};
  const double stall[] = {0.0, 0.05, 0.2, 0.5};
  std::ostringstream y;
  y << "testbench: {dram_latency: " << rng() % 41 << ", bytes_per_cycle: " << bpc[rng() % 5]
    << ", stall_probability: " << stall[rng() % 4] << ", timeout_cycles: 3000000}\n";
  return y.str();
}

double uniform(std::mt19937_64& rng, double lo, double hi) {
  return lo + (hi - lo) * static_cast<double>(rng() >> 11) / 9007199254740992.0;
}

std::string conv_yaml(uint64_t seed, ConvCase* out) {
  std::mt19937_64 rng(seed * 7919 + 17);
  ConvCase cc;
  // Mostly small; one in eight larger, so layers take several tiles / groups.
  const bool big = rng() % 8 == 0;
  cc.h = 1 + rng() % (big ? 24 : 12);
  cc.w = 1 + rng() % (big ? 24 : 12);
  // Channel counts around and between the 16-lane blocks.
  const int64_t chans[] = {1, 3, 8, 15, 16, 17, 24, 31, 32, 33, 40, 48, 65, 80};
  cc.c = chans[rng() % (big ? 14 : 11)];
  cc.o = chans[rng() % (big ? 14 : 11)];
  const int64_t ks[] = {1, 3, 5};
  cc.k = ks[rng() % 3];
  cc.stride = 1 + rng() % 2;
  cc.valid = rng() % 3 == 0 && cc.k <= cc.h && cc.k <= cc.w;
  *out = cc;
  const double s_in = uniform(rng, 0.01, 0.1);
  const int zp_in = static_cast<int>(rng() % 256) - 128;
  // Output scale: about three standard deviations of the real output in int8.
  const double sd = 0.005 * s_in * std::sqrt(static_cast<double>(cc.k * cc.k * cc.c)) * 73.0 *
                    std::max(74.0, std::abs(zp_in) * 1.0);
  const double s_out = 3.0 * sd / 128.0 * uniform(rng, 0.5, 2.0);
  std::ostringstream y;
  y << "target: vta\nop: conv2d\nseed: " << seed << "\n" << testbench_yaml(rng);
  y << "shapes: {input: [1, " << cc.h << ", " << cc.w << ", " << cc.c << "], ";
  if (rng() % 2) {
    y << "filter: [" << cc.o << ", " << cc.k << ", " << cc.k << ", " << cc.c << "]}\n";
  } else {
    y << "kernel: " << cc.k << ", out_channels: " << cc.o << "}\n";
  }
  y << "params: {stride: " << cc.stride << ", padding: " << (cc.valid ? "valid" : "same")
    << ", activation: " << (rng() % 3 == 0 ? "relu" : "none") << "}\n";
  y << "quant: {input: {scale: " << s_in << ", zero_point: " << zp_in << "}, output: {scale: " << s_out
    << ", zero_point: " << static_cast<int>(rng() % 41) - 20 << "}, filter_scales: random}\n";
  const char* bias[] = {"none", "{random: {min: -4096, max: 4096}}", "{random: {min: -100000, max: 100000}}"};
  y << "data: {bias: " << bias[rng() % 3] << "}\n";
  y << "compile: {threads: " << 1 + rng() % 2;
  if (rng() % 4 == 0) {  // forced small tiles: the multi-tile paths on small layers
    const int64_t oh = cc.valid ? (cc.h - cc.k) / cc.stride + 1 : (cc.h + cc.stride - 1) / cc.stride;
    y << ", tile_rows: " << 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(oh))
      << ", oc_blocks: " << 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>((cc.o + 15) / 16));
  }
  y << "}\n";
  return y.str();
}

std::string add_yaml(uint64_t seed, int64_t* elements) {
  std::mt19937_64 rng(seed * 104729 + 5);
  const std::size_t rank = 1 + rng() % 4;
  std::vector<int64_t> a(rank), b(rank);
  for (std::size_t d = 0; d < rank; ++d) {
    a[d] = 1 + static_cast<int64_t>(rng() % (rank <= 2 ? 40 : 9));
    b[d] = a[d];
  }
  // Broadcasting: some dims of one operand become 1, or it loses leading dims.
  const int mode = static_cast<int>(rng() % 4);
  if (mode == 1) {
    for (auto& d : b) d = rng() % 2 ? d : 1;
  } else if (mode == 2) {
    for (auto& d : a) d = rng() % 2 ? d : 1;
  } else if (mode == 3 && rank > 1) {
    b.erase(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(1 + rng() % (rank - 1)));
  }
  *elements = 1;
  for (std::size_t d = 0; d < rank; ++d) *elements *= std::max(a[d], d < rank - b.size() ? 1 : b[d - (rank - b.size())]);
  const auto list = [](const std::vector<int64_t>& s) {
    std::string t = "[";
    for (std::size_t i = 0; i < s.size(); ++i) t += (i ? ", " : "") + std::to_string(s[i]);
    return t + "]";
  };
  std::ostringstream y;
  y << "target: vta\nop: add\nseed: " << seed << "\n" << testbench_yaml(rng);
  y << "shapes: {input1: " << list(a) << ", input2: " << list(b) << "}\n";
  y << "quant:\n";
  for (const char* n : {"input1", "input2", "output"}) {
    y << "  " << n << ": {scale: " << uniform(rng, 0.01, 0.1) << ", zero_point: " << static_cast<int>(rng() % 61) - 30
      << "}\n";
  }
  y << "compile: {threads: " << 1 + rng() % 2 << "}\n";
  return y.str();
}

uint64_t env_or(const char* name, uint64_t def) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtoull(v, nullptr, 0) : def;
}

// At least 100 random CONV2D / ADD shapes through the whole TLM path under
// random DRAM latency, bandwidth and stalls: every one bit-exact (exit 0),
// with its MAC count and utilisation consistent with the definitions.
TEST(VTA_TLM_SUITE, RandomShapesAreBitExactThroughTheTlmPath) {
  const uint64_t n = env_or("VTA_TLM_CASES", VTA_TLM_DEFAULT_CASES);
  const uint64_t first = env_or("VTA_TLM_FIRST_CASE", 1);
  int failures = 0, convs = 0, adds = 0, non16 = 0, stride2 = 0, k5 = 0, stalled = 0;
  for (uint64_t i = first; i < first + n && failures < 5; ++i) {
    const bool is_conv = i % 3 != 0;
    ConvCase cc{};
    int64_t add_elems = 0;
    const std::string yaml = is_conv ? conv_yaml(i, &cc) : add_yaml(i, &add_elems);
    const std::string file = write_file("case" + std::to_string(i) + ".yaml", yaml);
    const std::string out = work() + "/case" + std::to_string(i);
    const json r = run_child(file, out);
    const json& rep = r["report"];
    const bool ok = r.value("rc", -1) == 0 && rep.value("bit_exact", false);
    if (!ok) {
      ++failures;
      ADD_FAILURE() << "case " << i << ":\n" << yaml << "\n" << str(r);
      continue;
    }
    if (yaml.find("stall_probability: 0,") == std::string::npos) ++stalled;
    if (is_conv) {
      ++convs;
      non16 += (cc.c % 16 != 0) || (cc.o % 16 != 0);
      stride2 += cc.stride == 2;
      k5 += cc.k == 5;
      EXPECT_EQ(rep["macs"].get<uint64_t>(), conv_macs(cc)) << "case " << i << "\n" << yaml;
      const double cycles = rep["perf_counters"]["vta_cycles"].get<double>();
      const double uops = rep["metrics"]["gemm_uops"].get<double>();
      EXPECT_NEAR(rep["utilization"].get<double>(), uops / cycles, 1e-12);
      EXPECT_GE(uops * 256.0, static_cast<double>(conv_macs(cc)));  // a uop is at most 256 useful MACs
      EXPECT_LE(rep["utilization"].get<double>(), 1.0);
    } else {
      ++adds;
      EXPECT_EQ(rep["mismatch"]["elements"].get<int64_t>(), add_elems) << "case " << i;
      EXPECT_TRUE(rep["utilization"].is_null());
    }
    fs::remove_all(out);
  }
  std::printf("%d conv2d + %d add cases bit-exact (%d with channels not a multiple of 16, %d stride 2, "
              "%d 5x5, %d with random stalls)\n",
              convs, adds, non16, stride2, k5, stalled);
  if (n >= 100) {
    EXPECT_GE(convs + adds, 100);
    EXPECT_GT(non16, 10);
    EXPECT_GT(stride2, 10);
    EXPECT_GT(k5, 10);
    EXPECT_GT(adds, 20);
  }
}

// ---------------------------------------------------------------------------
// TFLite requantization on the core (requant: tflite_double / tflite_single)
// ---------------------------------------------------------------------------

#ifndef VTA_TLM_TFLITE_DEFAULT_CASES
#define VTA_TLM_TFLITE_DEFAULT_CASES 40
#endif

// A real multiplier whose quantized form is one of the corners: shift > 0
// (up to 2^20), 2^-32 (M = 2^30, shift -31), just below a power of two
// (M = 2^31 - 1 after rounding), below 2^-32 (flushed to 0), a small power
// of two (rounding ties on ordinary accumulators), or ordinary.
double corner_scale(std::mt19937_64& rng) {
  switch (rng() % 7) {
    case 5: return std::ldexp(1.0, -1 - static_cast<int>(rng() % 10));
    case 0: return std::ldexp(uniform(rng, 1.0, 2.0), static_cast<int>(rng() % 21));
    case 1: return std::ldexp(1.0, -32);
    case 2: return std::ldexp(1.0 - 1e-10, -static_cast<int>(rng() % 31));
    case 3: return std::ldexp(1.0, -40);
    default: return std::ldexp(uniform(rng, 1.0, 2.0), -static_cast<int>(rng() % 31) - 1);
  }
}

// CONV2D with per-channel multipliers from the corners (input and output
// scale 1: the filter scale is the multiplier) and biases over all of int32,
// so accumulators wrap and reach INT32_MIN; or ADD with the output scale
// giving a corner output multiplier.
std::string tflite_yaml(uint64_t seed, bool conv, const char* requant) {
  std::mt19937_64 rng(seed * 6151 + 3);
  std::ostringstream y;
  y.precision(17);
  y << "target: vta\nop: " << (conv ? "conv2d" : "add") << "\nseed: " << seed << "\nrequant: " << requant << "\n"
    << testbench_yaml(rng);
  if (conv) {
    const int64_t chans[] = {1, 3, 16, 17, 33};
    const int64_t c = chans[rng() % 5], o = chans[rng() % 5], k = 1 + 2 * static_cast<int64_t>(rng() % 2);
    y << "shapes: {input: [1, " << 1 + rng() % 8 << ", " << 1 + rng() % 8 << ", " << c << "], filter: [" << o << ", "
      << k << ", " << k << ", " << c << "]}\n";
    const char* act[] = {"none", "relu", "relu6"};
    y << "params: {stride: " << 1 + rng() % 2 << ", padding: same, activation: " << act[rng() % 3] << "}\n";
    // One case in three: small data and power-of-two multipliers, so outputs
    // land inside int8 and rounding ties are frequent.
    const bool ties = rng() % 3 == 0;
    y << "quant: {input: {scale: 1, zero_point: " << (ties ? static_cast<int>(rng() % 5) - 2 : static_cast<int>(rng() % 256) - 128)
      << "}, output: {scale: 1, zero_point: " << (ties ? static_cast<int>(rng() % 5) - 2 : static_cast<int>(rng() % 256) - 128)
      << "}, filter_scales: [";
    for (int64_t j = 0; j < o; ++j) y << (j ? ", " : "") << (ties ? std::ldexp(1.0, -1 - static_cast<int>(rng() % 4)) : corner_scale(rng));
    y << "]}\n";
    const char* bias[] = {"{random: {min: -2147483648, max: 2147483647}}", "{random: {min: -2147483648, max: -2147400000}}",
                          "{random: {min: 2147400000, max: 2147483647}}", "{random: {min: -100000, max: 100000}}"};
    if (ties) {
      y << "data: {input: {random: {min: -4, max: 4}}, filter: {random: {min: -3, max: 3}}, bias: {random: {min: "
           "-60, max: 60}}}\n";
    } else {
      y << "data: {bias: " << bias[rng() % 4] << "}\n";
    }
  } else {
    const double s1 = uniform(rng, 0.01, 0.1), s2 = uniform(rng, 0.01, 0.1);
    // Output multiplier 2 max(s1, s2) / (2^20 s_out) = the corner.
    const double s_out = 2.0 * std::max(s1, s2) / std::ldexp(corner_scale(rng), 20);
    const uint64_t h = 1 + rng() % 9, w = 1 + rng() % 9, c = 1 + rng() % 40;
    y << "shapes: {input1: [1, " << h << ", " << w << ", " << c << "], input2: [1, " << (rng() % 2 ? h : 1) << ", "
      << w << ", " << c << "]}\n";
    y << "quant:\n  input1: {scale: " << s1 << ", zero_point: " << static_cast<int>(rng() % 256) - 128 << "}\n"
      << "  input2: {scale: " << s2 << ", zero_point: " << static_cast<int>(rng() % 256) - 128 << "}\n"
      << "  output: {scale: " << s_out << ", zero_point: " << static_cast<int>(rng() % 256) - 128 << "}\n";
  }
  y << "compile: {threads: " << 1 + rng() % 2 << "}\n";
  return y.str();
}

// Random multipliers and shifts through the RTL in both roundings: every
// case bit-exact against the TFLite golden (ops::conv2d / ops::add), so the
// report's distance to that rounding is 100 % exact.
TEST(VTA_TLM_SUITE, TfliteRequantSweepIsBitExactAgainstTheTfliteGolden) {
  const uint64_t n = env_or("VTA_TLM_TFLITE_CASES", VTA_TLM_TFLITE_DEFAULT_CASES);
  int failures = 0, passed = 0;
  for (uint64_t i = 1; i <= n && failures < 5; ++i) {
    const char* requant = i % 2 ? "tflite_double" : "tflite_single";
    const std::string yaml = tflite_yaml(i, i % 3 != 0, requant);
    const std::string file = write_file("tfl" + std::to_string(i) + ".yaml", yaml);
    const std::string out = work() + "/tfl" + std::to_string(i);
    const json r = run_child(file, out);
    const json& rep = r["report"];
    bool exact100 = false;
    if (rep.contains("mismatch")) {
      for (const json& d : rep["mismatch"]["checks"][0]["distance"]) {
        if (d["reference"] == requant) exact100 = d["exact_pct"].get<double>() == 100.0;
      }
    }
    if (r.value("rc", -1) != 0 || !rep.value("bit_exact", false) || !exact100) {
      ++failures;
      ADD_FAILURE() << "case " << i << ":\n" << yaml << "\n" << str(r);
      continue;
    }
    ++passed;
    fs::remove_all(out);
  }
  std::printf("%d TFLite-requantization cases (conv2d and add, double and single rounding) bit-exact\n", passed);
}

// ---------------------------------------------------------------------------
// Reports, replays, hangs
// ---------------------------------------------------------------------------

const char* kSmallConv = R"(name: small_conv
target: vta
op: conv2d
seed: 4
testbench: {dram_latency: 12, bytes_per_cycle: 8, stall_probability: 0.1, timeout_cycles: 2000000}
shapes: {input: [1, 9, 7, 20], filter: [24, 3, 3, 20]}
params: {stride: 1, padding: same}
quant: {input: {scale: 0.04, zero_point: -7}, output: {scale: 0.6, zero_point: 2}, filter_scales: random}
)";

fs::path output_blob(const std::string& trace_dir) {
  for (const auto& e : fs::directory_iterator(trace_dir + "/blobs")) {
    if (e.path().filename().string().find("output") != std::string::npos) return e.path();
  }
  return {};
}

// One corrupted expected element: exit 1, exactly one mismatch, named by its
// NHWC coordinates, at the address the VTA blocked layout puts it, with the
// cycle the DUT wrote it.
TEST(VTA_TLM_SUITE, CorruptedExpectedElementGivesExit1WithNhwcCoordinates) {
  const std::string file = write_file("small_conv.yaml", kSmallConv);
  const std::string out = work() + "/corrupt";
  const json first = run_child(file, out);
  ASSERT_EQ(first["rc"], 0) << str(first);
  const fs::path blob = output_blob(out + "/trace");
  ASSERT_FALSE(blob.empty());
  ASSERT_EQ(fs::file_size(blob), 9u * 7 * 24);  // the blob is the NHWC tensor
  // Element (n=0, h=6, w=2, c=19): NHWC byte (6*7 + 2)*24 + 19.
  const std::size_t at = (6 * 7 + 2) * 24 + 19;
  {
    std::fstream f(blob, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(static_cast<std::streamoff>(at));
    char c;
    f.get(c);
    f.seekp(static_cast<std::streamoff>(at));
    f.put(static_cast<char>(c ^ 0x21));
  }
  const json r = run_child(out + "/trace", work() + "/corrupt_replay", {}, true);
  ASSERT_EQ(r["rc"], 1) << str(r);
  const json& chk = r["report"]["mismatch"]["checks"][0];
  EXPECT_EQ(r["report"]["status"], "mismatch");
  EXPECT_EQ(chk["mismatches"], 1);
  ASSERT_EQ(chk["first_mismatches"].size(), 1u);
  const json& m = chk["first_mismatches"][0];
  EXPECT_EQ(m["coords"], "n=0,h=6,w=2,c=19");
  // VTA layout [C/16][H][W][16]: block 1, lane 3 -> ((1*9 + 6)*7 + 2)*16 + 3.
  const uint64_t base = std::stoull(chk["address"].get<std::string>(), nullptr, 16);
  EXPECT_EQ(std::stoull(m["address"].get<std::string>(), nullptr, 16), base + ((1 * 9 + 6) * 7 + 2) * 16 + 3);
  EXPECT_FALSE(m["write_cycle"].is_null());
  EXPECT_EQ((static_cast<int>(m["expected"].get<double>()) ^ static_cast<int>(m["actual"].get<double>())) & 0xff,
            0x21);
  EXPECT_NE(r["console"].get<std::string>().find("output[n=0,h=6,w=2,c=19]"), std::string::npos) << str(r);
}

// A replay of the written trace takes the same cycles and gives the same
// bits, also without DMI and with another quantum.
TEST(VTA_TLM_SUITE, ReplayOfTheTraceReproducesTheCycles) {
  const std::string file = write_file("small_conv_replay.yaml", kSmallConv);
  const std::string out = work() + "/replay_src";
  const json a = run_child(file, out);
  ASSERT_EQ(a["rc"], 0) << str(a);
  const json b = run_child(out + "/trace", work() + "/replay_dst", {}, true);
  ASSERT_EQ(b["rc"], 0) << str(b);
  EXPECT_EQ(a["report"]["cycles"], b["report"]["cycles"]);
  EXPECT_EQ(a["report"]["perf_counters"], b["report"]["perf_counters"]);
  cosim::tb::RunOptions o;
  o.dmi = false;
  o.quantum_cycles = 37;
  const json c = run_child(out + "/trace", work() + "/replay_nodmi", {}, true, o);
  ASSERT_EQ(c["rc"], 0) << str(c);
  EXPECT_EQ(a["report"]["cycles"], c["report"]["cycles"]);
  EXPECT_GT(c["report"]["memory"]["tlm_accesses"].get<uint64_t>(), 0u);
  // Another seed draws other stalls: other cycles, same bits.
  const json d = run_child(file, work() + "/replay_seed", {"seed=99"});
  ASSERT_EQ(d["rc"], 0) << str(d);
  EXPECT_NE(a["report"]["cycles"], d["report"]["cycles"]);
}

// A program whose FINISH never comes: exit 3 within the budget, with the
// diagnosis of the status vector (engines, token and instruction queues).
TEST(VTA_TLM_SUITE, ProgramWithoutFinishTimesOutWithDiagnosis) {
  const std::string file = write_file("small_conv_hang.yaml", kSmallConv);
  const json r = run_child(file, work() + "/nofinish", {"fault=no_finish", "testbench.timeout_cycles=30000"});
  ASSERT_EQ(r["rc"], 3) << str(r);
  const std::string what = r["what"];
  EXPECT_NE(what.find("within 30000 cycles"), std::string::npos) << what;
  EXPECT_NE(what.find("no engine holds an instruction"), std::string::npos) << what;
  EXPECT_NE(what.find("instruction queues: load 0, compute 0, store 0"), std::string::npos) << what;
  EXPECT_EQ(r["report"]["status"], "timeout");
  EXPECT_EQ(r["report"]["diagnosis"], what);

  // A LOAD waiting on a token nobody pushes: the diagnosis names it, and the
  // manifest's deadlock rule (vta.yaml: no engine busy, no queue moving for
  // 10000 cycles) stops the run long before the default 20 M-cycle budget.
  const json d = run_child(file, work() + "/deadlock", {"fault=deadlock"});
  ASSERT_EQ(d["rc"], 3) << str(d);
  const std::string dw = d["what"];
  EXPECT_NE(dw.find("VTA deadlocked (none of load_state, compute_state, store_state is EngBusy"), std::string::npos)
      << dw;
  const std::size_t run_at = dw.find(" cycles run)");
  ASSERT_NE(run_at, std::string::npos) << dw;
  const std::size_t num_at = dw.rfind(' ', run_at - 1);
  EXPECT_LT(std::stoull(dw.substr(num_at + 1, run_at - num_at - 1)), 30000u) << dw;
  // Memory slower than the rule's window is no deadlock: a read the testbench
  // owes the DUT counts as progress.
  const json slow = run_child(file, work() + "/slow_dram", {"testbench.dram_latency=30000"});
  EXPECT_EQ(slow["rc"], 0) << str(slow);
  EXPECT_NE(dw.find("LOAD holds LOAD waiting on token queue compute->load (pop_next_dep, 0 tokens)"),
            std::string::npos)
      << dw;
  EXPECT_NE(dw.find("instruction queues: load "), std::string::npos) << dw;
}

// The core's error flag is a DUT error (exit 1) naming the engine and the
// ERR_INFO code; a register offset beyond the 8-bit port is bad input.
TEST(VTA_TLM_SUITE, ErrorFlagAndBadRegisterOffset) {
  const std::string file = write_file("small_conv_err.yaml", kSmallConv);
  const std::string out = work() + "/err_src";
  ASSERT_EQ(run_child(file, out)["rc"], 0);
  const std::string text = cosim::test::read_text(out + "/trace/trace.txt");
  const std::size_t at = text.find("reg_write 0xc 0x");
  ASSERT_NE(at, std::string::npos) << text;
  const std::size_t end = text.find('\n', at);
  const uint64_t addr = std::stoull(text.substr(at + 14, end - at - 14), nullptr, 16);
  std::string misaligned = text;
  misaligned.replace(at, end - at, "reg_write 0xc " + std::to_string(addr + 8));
  std::ofstream(out + "/trace/trace.txt") << misaligned;
  const json r = run_child(out + "/trace", work() + "/err_replay", {}, true);
  ASSERT_EQ(r["rc"], 1) << str(r);
  EXPECT_EQ(r["report"]["status"], "mismatch");  // the output was never written
  ASSERT_FALSE(r["report"]["dut_errors"].empty()) << str(r);
  const std::string e = r["report"]["dut_errors"][0];
  EXPECT_NE(e.find("error flag set by FETCH: instruction address not 16-byte aligned (code 3)"), std::string::npos)
      << e;

  std::string bad_reg = text;
  bad_reg.replace(at, 0, "reg_write 0x100 0x1\n");
  std::ofstream(out + "/trace/trace.txt") << bad_reg;
  const json b = run_child(out + "/trace", work() + "/err_reg", {}, true);
  ASSERT_EQ(b["rc"], 2) << str(b);
  EXPECT_NE(b["what"].get<std::string>().find("beyond the core's 8-bit register port"), std::string::npos) << str(b);
}

// The same program, memory timing and seed on BareDriver (no SystemC) take
// exactly the cycles of the TLM run and write the same output: the TLM
// layer adds no cycles.
TEST(VTA_TLM_SUITE, BareDriverWithTheSameMemoryTimingTakesTheSameCycles) {
  const std::string file = write_file("small_conv_bare.yaml", kSmallConv);
  const std::string out = work() + "/bare";
  const json r = run_child(file, out);
  ASSERT_EQ(r["rc"], 0) << str(r);
  const cosim::trace::Trace tr = cosim::trace::read_trace(out + "/trace");
  auto [dram, insn_addr, insn_count, check] = cosim::tb::vta::program_of_trace(tr);
  ASSERT_NE(check, nullptr);
  const cosim::tb::TbConfig cfg = cosim::tb::TbConfig::from_map(tr.config);
  EXPECT_GT(cfg.stall_probability, 0.0);
  cosim::tb::DramTiming timing(cfg, 0);  // the DUT's timing stream at the DRAM target
  cosim::tb::vta::BareOptions opt;
  opt.access_cycles = [&timing](uint64_t a, std::size_t n, bool w) { return timing.access_cycles(a, n, w); };
  cosim::tb::vta::BareDriver drv(dram, opt);
  const cosim::tb::vta::RtlRunResult res = drv.run(insn_addr, insn_count, 2000000);
  ASSERT_EQ(res.status, cosim::tb::vta::RtlRunResult::Status::kDone) << res.diagnosis;
  EXPECT_EQ(res.cycles, r["report"]["perf_counters"]["vta_cycles"].get<uint64_t>());
  EXPECT_EQ(res.perf.gemm_busy, r["report"]["perf_counters"]["gemm_busy"].get<uint64_t>());
  // Output: gather NHWC from the blocked image by hand.
  const auto& sh = check->tensor.shape;  // 1,9,7,24
  int64_t bad = 0;
  for (int64_t h = 0; h < sh[1]; ++h) {
    for (int64_t w = 0; w < sh[2]; ++w) {
      for (int64_t c = 0; c < sh[3]; ++c) {
        const uint64_t addr = check->addr + static_cast<uint64_t>((((c / 16) * sh[1] + h) * sh[2] + w) * 16 + c % 16);
        bad += dram[addr] != check->data[static_cast<std::size_t>((h * sh[2] + w) * sh[3] + c)];
      }
    }
  }
  EXPECT_EQ(bad, 0);
}

// Impossible or malformed scenarios stop with one line naming file:line and
// the key: exit 2, no simulation.
TEST(VTA_TLM_SUITE, BadScenariosAreOneLineInputErrors) {
  const std::string file = write_file("bad_base.yaml", kSmallConv);
  struct Bad {
    std::vector<std::string> sets;
    std::string key;   // must appear quoted in the message
    std::string text;  // and this
  };
  const Bad bad[] = {
      {{"shapes.filter=[24,3,3,19]"}, "'shapes.filter'", "input channels"},
      {{"params.padding=valid", "shapes.filter=[24,11,3,20]"}, "'shapes'", "no larger than the input"},
      {{"requant=saturate"}, "'requant'", "expected vta16, tflite_double or tflite_single"},
      {{"requant=tflite_single", "quant.output.scale=1e-15"}, "'quant'", "too large"},
      {{"quant.filter_scales=[0.1,0.2]"}, "'quant.filter_scales'", "1 or 24 filter scales"},
      {{"params.stride=0"}, "'params.stride'", "expected"},
      {{"shapes.input=[1,9,7]"}, "'shapes.input'", "expected"},
      {{"params.strides=2"}, "'params.strides'", "unknown key"},
      {{"quant.output.scale=-1"}, "'quant.output.scale'", "expected"},
      // Larger than the 64 MiB DRAM: the compiler's limit, at the input shape.
      {{"shapes.input=[1,2048,2048,32]", "shapes.filter=[16,1,1,32]"}, "'shapes.input'", ""},
  };
  // Neither a filter nor kernel + out_channels.
  std::string text = kSmallConv;
  text.replace(text.find("filter: [24, 3, 3, 20]"), 22, "kernel: 3");
  const json nf = run_child(write_file("bad_nofilter.yaml", text), work() + "/bad");
  ASSERT_EQ(nf["rc"], 2) << str(nf);
  EXPECT_NE(nf["what"].get<std::string>().find("bad_nofilter.yaml:6: 'shapes': expected 'filter"), std::string::npos)
      << str(nf);
  for (const Bad& b : bad) {
    std::vector<std::string> sets = b.sets;
    const json r = run_child(file, work() + "/bad", sets);
    ASSERT_EQ(r["rc"], 2) << b.sets[0] << "\n" << str(r);
    const std::string what = r["what"];
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    EXPECT_NE(what.find(b.key), std::string::npos) << what;
    EXPECT_NE(what.find(b.text), std::string::npos) << what;
  }
}

// The trace form of the VTA output check: LAYOUT nchw16c round-trips through
// trace.txt, the memory offset of an element follows [N][C/16][H][W][16]
// (written out by hand here), and a blocked layout on a non-4-D shape or a
// stream check is a one-line trace error.
TEST(VTA_TLM_SUITE, BlockedLayoutInTheTrace) {
  cosim::Tensor t(cosim::DType::kInt8, {2, 3, 5, 20}, cosim::Layout::kNHWC);
  cosim::trace::Trace tr;
  tr.target = "vta";
  tr.mem_check(0x100, t, "output", 16);
  const std::string dir = work() + "/blocked_trace";
  cosim::trace::write_trace(tr, dir);
  const std::string text = cosim::test::read_text(dir + "/trace.txt");
  EXPECT_NE(text.find("int8 2,3,5,20 nchw16c output"), std::string::npos) << text;
  const cosim::trace::Trace back = cosim::trace::read_trace(dir);
  ASSERT_EQ(back.steps.size(), 1u);
  const cosim::trace::TensorDesc& d = back.steps[0].tensor;
  EXPECT_EQ(d.channel_block, 16);
  EXPECT_EQ(d.memory_bytes(), 2u * 2 * 3 * 5 * 16);  // 20 channels pad to two blocks
  // (n=1, h=2, w=4, c=17): block 1, lane 1 -> (((1*2 + 1)*3 + 2)*5 + 4)*16 + 1.
  const int64_t flat = ((1 * 3 + 2) * 5 + 4) * 20 + 17;
  EXPECT_EQ(d.memory_offset(flat), static_cast<uint64_t>((((1 * 2 + 1) * 3 + 2) * 5 + 4) * 16 + 1));
  EXPECT_EQ(d.memory_offset(0), 0u);

  std::string bad = text;
  bad.replace(bad.find("2,3,5,20"), 8, "2,15,20");
  std::ofstream(dir + "/trace.txt") << bad;
  try {
    cosim::trace::read_trace(dir);
    ADD_FAILURE() << "a 3-D blocked check was accepted";
  } catch (const cosim::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("needs a 4-D shape"), std::string::npos) << e.what();
  }
  bad = text;
  bad.replace(bad.find("nchw16c"), 7, "nchw0c");
  std::ofstream(dir + "/trace.txt") << bad;
  EXPECT_THROW(cosim::trace::read_trace(dir), cosim::InputError);
}

// ---------------------------------------------------------------------------
// The command line on the shipped scenarios (`make sim SCENARIO=x` runs
// exactly `cosim run scenarios/x.yaml --out out/x`).
// ---------------------------------------------------------------------------

#ifdef COSIM_BIN
using Cmd = cosim::test::CliResult;
using cosim::test::read_report;
using cosim::test::run_cosim;

// conv2d.yaml and add.yaml with requant tflite_double / tflite_single: PASS
// against that rounding's golden (100 % exact), vta16 a reference distance,
// and the ALU cost in the metrics above the 16-bit scheme's.
TEST(VTA_TLM_SUITE, ShippedScenariosRunTfliteRequantization) {
  for (const char* s : {"conv2d", "add"}) {
    const std::string base = work() + "/cli_rq_" + s;
    ASSERT_EQ(run_cosim("run " + cosim::test::scenario_file(s) + " --out " + base + "_vta16").code, 0);
    const double vta16_alu = read_report(base + "_vta16")["metrics"]["alu_uops_per_output_entry"].get<double>();
    for (const char* rq : {"tflite_double", "tflite_single"}) {
      const std::string out = base + "_" + rq;
      const Cmd c = run_cosim("run " + cosim::test::scenario_file(s) + " --set requant=" + rq + " --out " + out);
      ASSERT_EQ(c.code, 0) << s << " " << rq << "\n" << c.out;
      const json j = read_report(out);
      EXPECT_TRUE(j["bit_exact"].get<bool>());
      std::map<std::string, double> exact;
      for (const json& d : j["distance"]) exact[d["reference"].get<std::string>()] = d["exact_pct"].get<double>();
      EXPECT_EQ(exact.at(rq), 100.0) << c.out;
      EXPECT_LT(exact.at("vta16"), 100.0) << c.out;
      EXPECT_GT(j["metrics"]["alu_uops_per_output_entry"].get<double>(), 3 * vta16_alu) << c.out;
    }
  }
}

TEST(VTA_TLM_SUITE, ShippedScenariosAreBitExactFromTheCommandLine) {
  for (const char* s : {"add", "conv2d", "conv2d_stride2", "conv2d_1x1"}) {
    const std::string out = work() + "/cli_" + s;
    const Cmd c = run_cosim("run " + cosim::test::scenario_file(s) + " --out " + out);
    ASSERT_EQ(c.code, 0) << s << "\n" << c.out;
    EXPECT_NE(c.out.find("PASS bit-exact"), std::string::npos) << c.out;
    const json j = read_report(out);
    EXPECT_EQ(j["target"], "vta");
    EXPECT_TRUE(j["bit_exact"].get<bool>());
    EXPECT_EQ(j["distance"].size(), 2u);  // tflite_double, tflite_single
    if (std::string(s) != "add") {
      EXPECT_GT(j["utilization"].get<double>(), 0.0);
      EXPECT_GT(j["macs"].get<uint64_t>(), 0u);
    }
  }
  // conv2d: 28x28x64 -> 64, 3x3 SAME: 784 pixels x 64 x 64 x (taps inside the image).
  ConvCase cc{28, 28, 64, 64, 3, 1, false};
  EXPECT_EQ(read_report(work() + "/cli_conv2d")["macs"].get<uint64_t>(), conv_macs(cc));
  EXPECT_EQ(conv_macs(cc), (26u * 26 * 9 + 4 * 26 * 6 + 4 * 4) * 64 * 64);
}

TEST(VTA_TLM_SUITE, HangFromATraceDirectoryExits3) {
  // A hand-made trace: the conv2d program without FINISH, replayed from disk.
  const std::string file = write_file("cli_hang.yaml", kSmallConv);
  const std::string out = work() + "/cli_hang_src";
  const Cmd a = run_cosim("run " + file + " --set fault=no_finish --set testbench.timeout_cycles=20000 --out " + out);
  ASSERT_EQ(a.code, 3) << a.out;
  EXPECT_NE(a.out.find("cosim: timeout:"), std::string::npos) << a.out;
  const Cmd b = run_cosim("replay " + out + "/trace --out " + work() + "/cli_hang_replay");
  ASSERT_EQ(b.code, 3) << b.out;
  // Nothing runs after the last STORE: the deadlock rule stops it before the 20000-cycle budget.
  EXPECT_NE(b.out.find("VTA deadlocked (none of"), std::string::npos) << b.out;
  EXPECT_NE(b.out.find("instruction queues:"), std::string::npos) << b.out;
  const Cmd c = run_cosim("run " + file + " --set shapes.filter=[24,3,3,3] --out " + work() + "/cli_bad");
  EXPECT_EQ(c.code, 2) << c.out;
  EXPECT_EQ(std::count(c.out.begin(), c.out.end(), '\n'), 1) << c.out;
}
#endif

}  // namespace
