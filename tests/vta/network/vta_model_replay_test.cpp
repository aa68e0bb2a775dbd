// `op: model` of the vta target (issue 9, replay part), through the cosim
// command line: every CONV_2D and ADD of ResNet-8 replays bit-exact on the
// VTA RTL in one simulation, `ops: all` leaves DS-CNN's DEPTHWISE layers out
// and names them, listing one is exit 2, per-layer distances / cycles are
// reported, bad op indices exit 2 and a missing model skips. Layer lists and
// shapes below are hand-copied from the models (tflite_dump); the
// TFLite-double distances are recomputed here from the importer's golden
// chain and the dumped VTA outputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cosim/backend.hpp"
#include "support/cosim_cli.hpp"
#include "support/models.hpp"
#include "tensor/tensor.hpp"
#include "tflite/model.hpp"
#include "tflite/reference.hpp"
#include "trace/trace.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kResnet = cosim::test::model_path("resnet8_int8.tflite");
const std::string kKws = cosim::test::model_path("kws_dscnn_int8.tflite");
const std::string kAd01 = cosim::test::model_path("ad01_int8.tflite");
const std::string kVww = cosim::test::model_path("vww_96_int8.tflite");

using Cmd = cosim::test::CliResult;

class VtaModelReplay : public cosim::test::CosimCli {};

// `t`'s bytes under another shape of as many elements.
cosim::Tensor as_shape(const cosim::Tensor& t, std::vector<int64_t> shape) {
  cosim::Tensor r(t.dtype(), std::move(shape));
  EXPECT_EQ(r.numel(), t.numel());
  std::copy_n(t.bytes().begin(), std::min(r.nbytes(), t.nbytes()), r.bytes().begin());
  return r;
}

TEST_F(VtaModelReplay, Resnet8AllConvAndAddBitExactInOneRun) {
  COSIM_REQUIRE_MODEL(kResnet);
  const std::string out = work() + "/resnet8";
  const Cmd c = cosim("run " + scenario("resnet8") + " --dump --out " + out);
  ASSERT_EQ(c.code, 0) << c.out;
  EXPECT_NE(c.out.find("PASS bit-exact (13 checks"), std::string::npos) << c.out;
  const json j = report(out);
  EXPECT_EQ(j["status"], "pass");
  EXPECT_EQ(j["op"], "model");
  EXPECT_TRUE(j["bit_exact"].get<bool>());

  // From tflite_dump: ops 0..11, ADD at 3, 7, 11, and the FULLY_CONNECTED at
  // 14 (checked in its 1x1 CONV_2D view); output shapes per op.
  struct Expect {
    std::size_t op;
    const char* type;
    const char* check;
    std::vector<int64_t> out;
  };
  const std::vector<Expect> want = {
      {0, "CONV_2D", "op00_conv2d", {1, 32, 32, 16}}, {1, "CONV_2D", "op01_conv2d", {1, 32, 32, 16}},
      {2, "CONV_2D", "op02_conv2d", {1, 32, 32, 16}}, {3, "ADD", "op03_add", {1, 32, 32, 16}},
      {4, "CONV_2D", "op04_conv2d", {1, 16, 16, 32}}, {5, "CONV_2D", "op05_conv2d", {1, 16, 16, 32}},
      {6, "CONV_2D", "op06_conv2d", {1, 16, 16, 32}}, {7, "ADD", "op07_add", {1, 16, 16, 32}},
      {8, "CONV_2D", "op08_conv2d", {1, 8, 8, 64}},   {9, "CONV_2D", "op09_conv2d", {1, 8, 8, 64}},
      {10, "CONV_2D", "op10_conv2d", {1, 8, 8, 64}},  {11, "ADD", "op11_add", {1, 8, 8, 64}},
      {14, "FULLY_CONNECTED", "op14_fully_connected", {1, 1, 1, 10}},
  };
  const json& layers = j["layers"];
  ASSERT_EQ(layers.size(), want.size());
  const json& checks = j["mismatch"]["checks"];
  ASSERT_EQ(checks.size(), want.size());

  // The TFLite golden chain (double rounding) of the same seeded input.
  const cosim::tflite::Model model = cosim::tflite::load_model(kResnet);
  const auto golden = cosim::tflite::run_reference(model, cosim::tflite::random_input(model, 1),
                                                   cosim::quant::Rounding::kDouble);
  uint64_t cycle_sum = 0, conv_gemm_uops = 0;
  int conv = 0, add = 0, fc = 0;
  for (std::size_t k = 0; k < want.size(); ++k) {
    const json& l = layers[k];
    SCOPED_TRACE(want[k].check);
    EXPECT_EQ(l["op_index"].get<std::size_t>(), want[k].op);
    EXPECT_EQ(l["type"], want[k].type);
    EXPECT_EQ(l["check"], want[k].check);
    EXPECT_EQ(l["status"], "vta");
    EXPECT_TRUE(l["bit_exact"].get<bool>());
    EXPECT_EQ(checks[k]["name"], want[k].check);
    EXPECT_EQ(checks[k]["mismatches"].get<int64_t>(), 0);
    EXPECT_EQ(checks[k]["shape"].get<std::vector<int64_t>>(), want[k].out);
    const std::string type = want[k].type;
    (type == "ADD" ? add : type == "CONV_2D" ? conv : fc) += 1;
    // Per-layer cycles from the CYCLES register of each run.
    ASSERT_TRUE(l["cycles"].is_number()) << l.dump();
    const uint64_t cyc = l["cycles"].get<uint64_t>();
    EXPECT_GT(cyc, 0u);
    cycle_sum += cyc;
    if (type != "ADD") {  // CONV_2D and FULLY_CONNECTED run their MACs on the GEMM core
      conv_gemm_uops += l["gemm_uops"].get<uint64_t>();
      EXPECT_NEAR(l["utilization"].get<double>(),
                  static_cast<double>(l["gemm_uops"].get<uint64_t>()) / static_cast<double>(cyc), 1e-12);
      EXPECT_GT(l["utilization"].get<double>(), 0.0);
      EXPECT_LE(l["utilization"].get<double>(), 1.0);
    }
    // Both distances present; the double one equals a recount against the
    // golden chain's tensor of that operator's output.
    for (const char* sem : {"tflite_double", "tflite_single"}) {
      ASSERT_TRUE(l["distance"].contains(sem)) << l.dump();
      const double pct = l["distance"][sem]["exact_pct"].get<double>();
      EXPECT_GE(pct, 0.0);
      EXPECT_LE(pct, 100.0);
      EXPECT_GE(l["distance"][sem]["max_abs_diff"].get<double>(), 0.0);
      EXPECT_EQ(j["metrics"][std::string(want[k].check) + "." + sem + ".exact_pct"].get<double>(), pct);
    }
    const int32_t out_tensor = model.subgraphs[0].operators[want[k].op].outputs[0];
    const cosim::Tensor& ref = golden.at(out_tensor);
    const cosim::Tensor actual = cosim::read_npy(out + "/" + want[k].check + "_actual.npy");
    const cosim::Tensor expected = cosim::read_npy(out + "/" + want[k].check + "_expected.npy");
    ASSERT_EQ(actual.numel(), ref.numel());
    EXPECT_EQ(actual.bytes(), expected.bytes());
    int64_t exact = 0;
    int max_diff = 0;
    for (int64_t i = 0; i < ref.numel(); ++i) {
      const int d = std::abs(int{actual.data<int8_t>()[i]} - int{ref.data<int8_t>()[i]});
      exact += d == 0;
      max_diff = std::max(max_diff, d);
    }
    EXPECT_NEAR(l["distance"]["tflite_double"]["exact_pct"].get<double>(), 100.0 * exact / ref.numel(), 1e-9);
    EXPECT_EQ(l["distance"]["tflite_double"]["max_abs_diff"].get<double>(), max_diff);
  }
  EXPECT_EQ(conv, 9);
  EXPECT_EQ(add, 3);
  EXPECT_EQ(fc, 1);
  EXPECT_EQ(j["metrics"]["layers_bit_exact"].get<double>(), 13.0);
  EXPECT_EQ(j["metrics"]["layers_on_vta"].get<double>(), 13.0);
  // ops: all left out ops 12, 13, 15: AVERAGE_POOL_2D, RESHAPE, SOFTMAX.
  EXPECT_EQ(j["metrics"]["ops_not_supported"].get<double>(), 3.0);
  ASSERT_EQ(j["not_supported"].size(), 3u);
  EXPECT_EQ(j["not_supported"][2]["op_index"].get<std::size_t>(), 15u);
  EXPECT_EQ(j["not_supported"][2]["type"], "SOFTMAX");
  EXPECT_EQ(j["not_supported"][2]["shapes"], "1x10 -> 1x10");  // a CPU row of the layer table has its shapes
  // One simulation: the runs' cycles add up to the DUT's total minus the
  // host's register accesses between runs.
  const uint64_t total = j["cycles"].get<uint64_t>();
  EXPECT_LT(cycle_sum, total);
  EXPECT_GT(cycle_sum + 200 * want.size(), total);
  // Network utilization: the CONV_2D layers' GEMM uops (an ADD's GEMMs only
  // move operands) over every layer's cycles.
  EXPECT_NEAR(j["utilization"].get<double>(), static_cast<double>(conv_gemm_uops) / static_cast<double>(cycle_sum),
              1e-12);
  // The console table lists every layer.
  EXPECT_NE(c.out.find("layers"), std::string::npos);
  for (const char* row : {"ADD ", "CONV_2D "}) EXPECT_NE(c.out.find(row), std::string::npos) << c.out;
  // The trace replays (12 runs, 12 checks) without the scenario.
  const Cmd r = cosim("replay " + out + "/trace --out " + work() + "/resnet8_replay");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("PASS bit-exact (13 checks"), std::string::npos) << r.out;

  // One wrong expected byte in op07's check (the mem_check line's blob):
  // exit 1, exactly that layer's check mismatches, once.
  const fs::path bad = fs::path(work()) / "resnet8_tampered";
  fs::remove_all(bad);
  fs::copy(out + "/trace", bad, fs::copy_options::recursive);
  std::ifstream txt(bad / "trace.txt");
  std::string line, blob;
  while (std::getline(txt, line)) {
    if (line.rfind("mem_check ", 0) == 0 && line.find(" op07_add") != std::string::npos) {
      const auto b = line.find("blobs/");
      blob = line.substr(b, line.find(' ', b) - b);
    }
  }
  ASSERT_FALSE(blob.empty());
  {
    std::fstream f(bad / blob, std::ios::in | std::ios::out | std::ios::binary);
    char ch = 0;
    f.read(&ch, 1);
    ch = static_cast<char>(ch ^ 0x01);
    f.seekp(0);
    f.write(&ch, 1);
  }
  const std::string tout = work() + "/resnet8_tampered_out";
  const Cmd t = cosim("replay " + bad.string() + " --out " + tout);
  EXPECT_EQ(t.code, 1) << t.out;
  const json tj = report(tout);
  EXPECT_EQ(tj["status"], "mismatch");
  EXPECT_EQ(tj["mismatch"]["count"].get<int64_t>(), 1);
  for (const json& ck : tj["mismatch"]["checks"]) {
    EXPECT_EQ(ck["mismatches"].get<int64_t>(), ck["name"] == "op07_add" ? 1 : 0) << ck["name"];
  }
}

// mode delegate with compile.stream (the default): the DUT operators between
// two host steps run as one instruction stream. By the rule (a CONV_2D joins
// the stream before it when its input is in DRAM, written by an earlier DUT
// operator, or came from the host before the stream's first operator ran;
// an ADD, whose inputs the host prepares from the outputs before it, stands
// alone), ResNet-8 runs
// [0 1 2] [3] [4 5 6] [7] [8 9 10] [11]: op 9 reads op 8's output in DRAM,
// op 10 reads op 7's, which the host had before op 8 ran. A streamed layer
// starts where the one before ends (its last output write) and the stream's
// layers add up to the run's CYCLES. compile.stream: false runs each alone.
TEST_F(VtaModelReplay, Resnet8DelegateStreamsTheLayersBetweenHostSteps) {
  COSIM_REQUIRE_MODEL(kResnet);
  // A passing run of resnet8.yaml with `options`, into work()/<dir>: its report.
  auto passing_run = [&](const std::string& options, const std::string& dir) {
    const Cmd c = cosim("run " + scenario("resnet8") + options + " --out " + work() + "/" + dir);
    EXPECT_EQ(c.code, 0) << c.out;
    return report(work() + "/" + dir);
  };
  const std::string out = work() + "/resnet8_streams";
  const json j = passing_run("", "resnet8_streams");
  const json& layers = j["layers"];
  const std::vector<uint64_t> runs = {0, 0, 0, 1, 2, 2, 2, 3, 4, 4, 4, 5, 6};  // 6: the FULLY_CONNECTED after the CPU's pool
  ASSERT_EQ(layers.size(), runs.size());
  std::map<uint64_t, uint64_t> run_sum;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const json& l = layers[k];
    SCOPED_TRACE(l["check"].get<std::string>());
    EXPECT_TRUE(l["bit_exact"].get<bool>());
    EXPECT_EQ(l["run"].get<uint64_t>(), runs[k]);
    const uint64_t start = l["start_cycle"].get<uint64_t>(), end = l["end_cycle"].get<uint64_t>();
    EXPECT_EQ(l["cycles"].get<uint64_t>(), end - start);
    run_sum[runs[k]] += end - start;
    if (k > 0 && runs[k] == runs[k - 1]) {
      EXPECT_EQ(start, layers[k - 1]["end_cycle"].get<uint64_t>());
    }
    const std::string pre = "run" + std::to_string(runs[k]) + "_";
    const bool last_of_run = k + 1 == runs.size() || runs[k + 1] != runs[k];
    if (last_of_run) {
      EXPECT_EQ(end, j["perf_counters"][pre + "end_cycle"].get<uint64_t>());
    }
    else EXPECT_LT(end, j["perf_counters"][pre + "end_cycle"].get<uint64_t>());
  }
  for (const auto& [r, sum] : run_sum)
    EXPECT_EQ(sum, j["perf_counters"]["run" + std::to_string(r) + "_vta_cycles"].get<uint64_t>()) << "run " << r;
  // Seven starts in the trace, one linked stream per run of several layers.
  std::ifstream txt(out + "/trace/trace.txt");
  std::string line;
  int waits = 0, streams = 0;
  while (std::getline(txt, line)) {
    waits += line.rfind("wait_done", 0) == 0;
    streams += line.rfind("mem_load", 0) == 0 && line.find("stream") != std::string::npos;
  }
  EXPECT_EQ(waits, 7);
  EXPECT_EQ(streams, 3);

  const json ja = passing_run(" --set compile.stream=false", "resnet8_no_streams");
  for (std::size_t k = 0; k < runs.size(); ++k) {
    EXPECT_EQ(ja["layers"][k]["run"].get<uint64_t>(), k);
    EXPECT_EQ(ja["layers"][k]["cycles"].get<uint64_t>(),
              ja["perf_counters"]["run" + std::to_string(k) + "_vta_cycles"].get<uint64_t>());
  }
}

// mode: delegate (the default): the network's output is what the CPU
// operator after the DUT's last one (op 15) makes of its output. Recomputed
// here from the dumped DUT output of op 14 with the TFLite golden operators, and
// compared with the report's network-output figures against TFLite run
// entirely on the CPU.
TEST_F(VtaModelReplay, Resnet8DelegateOutputFromTheDutsLastLayer) {
  COSIM_REQUIRE_MODEL(kResnet);
  const std::string out = work() + "/resnet8_delegate";
  const Cmd c = cosim("run " + scenario("resnet8") + " --dump --out " + out);
  ASSERT_EQ(c.code, 0) << c.out;
  EXPECT_NE(c.out.find("network output (delegate vs TFLite on the CPU)"), std::string::npos) << c.out;
  const json j = report(out);
  EXPECT_EQ(j["mode"], "delegate");
  ASSERT_TRUE(j.contains("network_output")) << j.dump();

  const cosim::tflite::Model model = cosim::tflite::load_model(kResnet);
  const auto& sg = model.subgraphs[0];
  const cosim::Tensor input = cosim::tflite::random_input(model, 1);
  const auto cpu_double = cosim::tflite::run_reference(model, input, cosim::quant::Rounding::kDouble);
  // The delegate's tail: op 15 on the CPU from op 14's DUT output (the
  // FULLY_CONNECTED, dumped in its 1x1 CONV_2D view: the same bytes).
  cosim::tflite::TensorMap tail;
  tail[sg.operators[14].outputs[0]] = as_shape(cosim::read_npy(out + "/op14_fully_connected_actual.npy"), {1, 10});
  const auto params = cosim::tflite::extract_layers(model, {}, cosim::quant::Rounding::kDouble);
  for (std::size_t o = 15; o < sg.operators.size(); ++o) {
    ASSERT_TRUE(cosim::tflite::run_operator(model, o, params, tail, cosim::quant::Rounding::kDouble)) << o;
  }
  const cosim::Tensor& mine = tail.at(sg.outputs[0]);
  const cosim::Tensor& cpu = cpu_double.at(sg.outputs[0]);
  auto argmax = [](const cosim::Tensor& t) {
    const int8_t* p = t.data<int8_t>();
    return static_cast<int64_t>(std::max_element(p, p + t.numel()) - p);
  };
  const json& n = j["network_output"];
  EXPECT_EQ(n["top1"]["delegate"].get<int64_t>(), argmax(mine));
  EXPECT_EQ(n["top1"]["tflite_double"].get<int64_t>(), argmax(cpu));
  int64_t exact = 0;
  for (int64_t i = 0; i < cpu.numel(); ++i) exact += mine.data<int8_t>()[i] == cpu.data<int8_t>()[i];
  EXPECT_NEAR(n["tflite_double"]["exact_pct"].get<double>(), 100.0 * exact / cpu.numel(), 1e-9);
  // The chain differs from the per-layer replay: op 1 reads op 0's DUT
  // output, not the TFLite chain's, so its input (and output) differ.
  const cosim::Tensor op0 = cosim::read_npy(out + "/op00_conv2d_actual.npy");
  EXPECT_NE(op0.bytes(), cpu_double.at(sg.operators[0].outputs[0]).bytes()) << "op 0 equals TFLite: nothing to chain";
  const Cmd l = cosim("run " + scenario("resnet8") + " --set mode=layers --out " + work() + "/resnet8_layers");
  ASSERT_EQ(l.code, 0) << l.out;
  const json lj = report(work() + "/resnet8_layers");
  EXPECT_FALSE(lj.contains("network_output"));
  EXPECT_NE(lj["layers"][1]["distance"]["tflite_double"]["exact_pct"].get<double>(),
            j["layers"][1]["distance"]["tflite_double"]["exact_pct"].get<double>());
}

// `requant: tflite_double` / `tflite_single` in mode delegate (issue 16):
// every CONV_2D and ADD runs TFLite's own requantization on the RTL and the
// CPU operators run in the same rounding, so the delegate's chain is TFLite's.
// Recomputed here with the TFLite int8 golden alone (run_reference, no VTA
// code): each layer's RTL output (dumped) equals the CPU chain's tensor of
// that operator, and the network output the CPU tail (op 15) makes of op
// 14's RTL output equals TFLite run entirely on the CPU, element by element.
// The default vta16 run fails the same comparisons (every layer, and the
// network output), so they discriminate.
struct DelegateVsCpu {
  std::vector<int64_t> layer_diffs;  // per DUT layer: RTL elements unlike the CPU chain's
  int64_t output_diffs = -1;         // network output elements unlike TFLite on the CPU
  int64_t output_elements = 0;
  json report;
  std::string console;
};

DelegateVsCpu run_delegate_against_cpu(const std::string& requant, cosim::quant::Rounding rounding) {
  using T = VtaModelReplay;
  DelegateVsCpu r;
  const std::string out = T::work() + "/resnet8_" + requant;
  const Cmd c = T::cosim("run " + T::scenario("resnet8") + " --set requant=" + requant + " --dump --out " + out);
  r.console = c.out;
  EXPECT_EQ(c.code, 0) << c.out;
  if (c.code != 0) return r;
  r.report = T::report(out);
  const cosim::tflite::Model model = cosim::tflite::load_model(kResnet);
  const auto& sg = model.subgraphs[0];
  const auto cpu = cosim::tflite::run_reference(model, cosim::tflite::random_input(model, 1), rounding);
  const auto differing = [](const cosim::Tensor& a, const cosim::Tensor& b) {
    EXPECT_EQ(a.numel(), b.numel());  // a FULLY_CONNECTED is dumped in its [1, 1, rows, units] view
    int64_t n = 0;
    for (int64_t i = 0; i < std::min(a.numel(), b.numel()); ++i) n += a.data<int8_t>()[i] != b.data<int8_t>()[i];
    return n;
  };
  for (const json& l : r.report["layers"]) {
    const std::string check = l["check"];
    const int32_t tensor = sg.operators[l["op_index"].get<std::size_t>()].outputs[0];
    r.layer_diffs.push_back(differing(cosim::read_npy(out + "/" + check + "_actual.npy"), cpu.at(tensor)));
  }
  cosim::tflite::TensorMap tail;
  tail[sg.operators[14].outputs[0]] = as_shape(cosim::read_npy(out + "/op14_fully_connected_actual.npy"), {1, 10});
  const auto params = cosim::tflite::extract_layers(model, {}, rounding);
  for (std::size_t o = 15; o < sg.operators.size(); ++o) {
    EXPECT_TRUE(cosim::tflite::run_operator(model, o, params, tail, rounding)) << o;
  }
  const cosim::Tensor& cpu_out = cpu.at(sg.outputs[0]);
  r.output_diffs = differing(tail.at(sg.outputs[0]), cpu_out);
  r.output_elements = cpu_out.numel();
  return r;
}

TEST_F(VtaModelReplay, Resnet8DelegateWithTfliteRequantEqualsTfliteOnTheCpu) {
  COSIM_REQUIRE_MODEL(kResnet);
  for (const auto& [requant, rounding] :
       {std::pair{"tflite_double", cosim::quant::Rounding::kDouble},
        std::pair{"tflite_single", cosim::quant::Rounding::kSingle}}) {
    SCOPED_TRACE(requant);
    const DelegateVsCpu r = run_delegate_against_cpu(requant, rounding);
    ASSERT_EQ(r.layer_diffs.size(), 13u) << r.console;
    EXPECT_NE(r.console.find("PASS bit-exact (13 checks"), std::string::npos) << r.console;
    for (std::size_t k = 0; k < 13; ++k) {
      SCOPED_TRACE(r.report["layers"][k]["check"].get<std::string>());
      EXPECT_TRUE(r.report["layers"][k]["bit_exact"].get<bool>());
      EXPECT_EQ(r.layer_diffs[k], 0);
    }
    EXPECT_EQ(r.output_elements, 10);
    EXPECT_EQ(r.output_diffs, 0);
    const std::string sem = rounding == cosim::quant::Rounding::kDouble ? "double" : "single";
    EXPECT_NE(r.console.find("network output: bit-exact vs TFLite CPU (" + sem + " rounding), 10 of 10 elements"),
              std::string::npos)
        << r.console;
    const json& n = r.report["network_output"]["bit_exact_vs_tflite"];
    EXPECT_TRUE(n["bit_exact"].get<bool>()) << n.dump();
    EXPECT_EQ(n["rounding"], sem);
    EXPECT_EQ(r.report["metrics"]["network.bit_exact_inputs"].get<double>(), 1.0);
  }
  // The 16-bit scheme, on the same input and with the same comparisons
  // against the double-rounding CPU chain: every layer still matches its own
  // (VTA) golden on the RTL, but none equals TFLite, nor does the output.
  const DelegateVsCpu v = run_delegate_against_cpu("vta16", cosim::quant::Rounding::kDouble);
  ASSERT_EQ(v.layer_diffs.size(), 13u) << v.console;
  for (std::size_t k = 0; k < 13; ++k) {
    SCOPED_TRACE(v.report["layers"][k]["check"].get<std::string>());
    EXPECT_TRUE(v.report["layers"][k]["bit_exact"].get<bool>());
    EXPECT_GT(v.layer_diffs[k], 0) << "vta16 equals TFLite here: the comparison would not discriminate";
  }
  EXPECT_GT(v.output_diffs, 0);
  EXPECT_FALSE(v.report["network_output"].contains("bit_exact_vs_tflite"));
  EXPECT_EQ(v.console.find("network output: "), std::string::npos) << v.console;
}

// Issue 34: whole MLPerf Tiny models on VTA with TFLite's requantization in
// both roundings, recomputed here with the TFLite int8 golden alone
// (run_reference on the same seeded input, no VTA code): every DUT layer's
// RTL output equals the CPU chain's tensor, and the network output equals
// TFLite on the CPU. `set`: extra scenario keys; `on_vta`: the operators
// expected on VTA, in order of type name counts.
void expect_on_vta_equal_to_tflite(VtaModelReplay& t, const std::string& path, const std::string& name,
                                   const std::string& set, const std::map<std::string, int>& on_vta) {
  const cosim::tflite::Model model = cosim::tflite::load_model(path);
  const auto& sg = model.subgraphs[0];
  for (const auto& [requant, rounding] :
       {std::pair{"tflite_double", cosim::quant::Rounding::kDouble},
        std::pair{"tflite_single", cosim::quant::Rounding::kSingle}}) {
    SCOPED_TRACE(requant);
    const std::string out = t.work() + "/" + name + "_" + requant;
    const Cmd c = t.cosim("run " + t.scenario("resnet8") + " --set model=" + path + set + " --set requant=" + requant +
                          " --dump --out " + out);
    ASSERT_EQ(c.code, 0) << c.out;
    const json j = t.report(out);
    const auto cpu = cosim::tflite::run_reference(model, cosim::tflite::random_input(model, 1), rounding);
    std::map<std::string, int> types;
    for (const json& l : j["layers"]) {
      SCOPED_TRACE(l["check"].get<std::string>());
      ++types[l["type"].get<std::string>()];
      EXPECT_EQ(l["status"], "vta");
      EXPECT_TRUE(l["bit_exact"].get<bool>());
      EXPECT_GT(l["utilization"].get<double>(), 0.0);
      const cosim::Tensor& want = cpu.at(sg.operators[l["op_index"].get<std::size_t>()].outputs[0]);
      const cosim::Tensor got = as_shape(cosim::read_npy(out + "/" + l["check"].get<std::string>() + "_actual.npy"),
                                         want.shape());
      EXPECT_EQ(got.bytes(), want.bytes());
    }
    EXPECT_EQ(types, on_vta);
    const json& n = j["network_output"]["bit_exact_vs_tflite"];
    EXPECT_TRUE(n["bit_exact"].get<bool>()) << n.dump();
  }
}

// The anomaly-detection autoencoder: its ten FULLY_CONNECTED on the GEMM core.
TEST_F(VtaModelReplay, Ad01EveryFullyConnectedOnVtaEqualsTfliteOnTheCpu) {
  COSIM_REQUIRE_MODEL(kAd01);
  expect_on_vta_equal_to_tflite(*this, kAd01, "ad01", "", {{"FULLY_CONNECTED", 10}});
  // The autoencoder's own score, per input: with the output bit-exact against
  // TFLite (double rounding) the two scores are the same number; the score
  // itself is the MSE of the dequantized output against the input, here from
  // the run's own tensors (--dump) and the model's quantization.
  const std::string out = work() + "/ad01_score";
  const Cmd c = cosim("run " + scenario("resnet8") + " --set model=" + kAd01 + " --set requant=tflite_double --out " + out);
  ASSERT_EQ(c.code, 0) << c.out;
  const json a = report(out)["anomaly_score"];
  ASSERT_EQ(a["vta"].size(), 1u) << a.dump();
  EXPECT_EQ(a["vta"][0].get<double>(), a["tflite_double"][0].get<double>());
  EXPECT_EQ(a["max_relative_difference"].get<double>(), 0.0);
  const cosim::tflite::Model model = cosim::tflite::load_model(kAd01);
  const auto& sg = model.subgraphs[0];
  const cosim::Tensor x = cosim::tflite::random_input(model, 1);
  const cosim::Tensor y = cosim::tflite::run_reference(model, x, cosim::quant::Rounding::kDouble).at(sg.outputs[0]);
  const auto& qi = sg.tensors[static_cast<std::size_t>(sg.inputs[0])].quant;
  const auto& qo = sg.tensors[static_cast<std::size_t>(sg.outputs[0])].quant;
  double sum = 0;
  for (int64_t i = 0; i < x.numel(); ++i) {
    const double xi = static_cast<float>(x.data<int8_t>()[i] - qi.zero_point[0]) * qi.scale[0];
    const double yi = static_cast<float>(y.data<int8_t>()[i] - qo.zero_point[0]) * qo.scale[0];
    sum += (yi - xi) * (yi - xi);
  }
  EXPECT_NEAR(a["tflite_double"][0].get<double>(), sum / static_cast<double>(x.numel()), 1e-9 * sum);
  EXPECT_NE(c.out.find("anomaly score (reconstruction MSE) over 1 input(s): vta"), std::string::npos) << c.out;
}

// `inputs: 3` on the dense autoencoder: its ten FULLY_CONNECTED run once over
// the three inputs stacked as rows (`batch: auto`), so each layer's weights
// are read from DRAM once, not once per input. Every row equals what the
// same layer gives that input when the inputs run one by one (`batch: off`),
// and both runs' network outputs equal TFLite's.
TEST_F(VtaModelReplay, Ad01DenseLayersBatchedOverTheInputs) {
  COSIM_REQUIRE_MODEL(kAd01);
  const cosim::tflite::Model model = cosim::tflite::load_model(kAd01);
  const auto& sg = model.subgraphs[0];
  int64_t weight_bytes = 0;  // the int8 filters, from the model
  for (const auto& op : sg.operators) {
    int64_t n = 1;
    for (int32_t d : sg.tensors.at(static_cast<std::size_t>(op.inputs.at(1))).shape) n *= d;
    weight_bytes += n;
  }
  const std::string set = " --set model=" + kAd01 + " --set inputs=3 --set requant=tflite_double --dump";
  const std::string batched = work() + "/ad01_batched", each = work() + "/ad01_each";
  const Cmd b = cosim("run " + scenario("resnet8") + set + " --out " + batched);
  ASSERT_EQ(b.code, 0) << b.out;
  const Cmd e = cosim("run " + scenario("resnet8") + set + " --set batch=off --out " + each);
  ASSERT_EQ(e.code, 0) << e.out;
  const json jb = report(batched), je = report(each);
  ASSERT_EQ(jb["layers"].size(), 10u);
  ASSERT_EQ(je["layers"].size(), 30u);
  for (const json& l : jb["layers"]) {
    const std::string check = l["check"].get<std::string>();
    SCOPED_TRACE(check);
    EXPECT_TRUE(l["bit_exact"].get<bool>());
    const cosim::Tensor rows = cosim::read_npy(batched + "/" + check + "_actual.npy");
    std::vector<uint8_t> one_by_one;
    for (const char* in : {"", "_in1", "_in2"}) {
      const cosim::Tensor t = cosim::read_npy(each + "/" + check + in + "_actual.npy");
      one_by_one.insert(one_by_one.end(), t.bytes().begin(), t.bytes().end());
    }
    EXPECT_EQ(rows.bytes(), one_by_one);
  }
  EXPECT_EQ(jb["network_outputs"], je["network_outputs"]);
  for (const json& n : jb["network_outputs"]) EXPECT_TRUE(n["bit_exact_vs_tflite"]["bit_exact"].get<bool>()) << n.dump();
  // The weights once for the batch, against once per input.
  const auto read = [](const json& j) { return j["memory"]["dut_read_bytes"].get<int64_t>(); };
  EXPECT_LT(read(jb), weight_bytes * 3 / 2) << weight_bytes;
  EXPECT_GT(read(je), weight_bytes * 3);
  EXPECT_LT(jb["cycles"].get<uint64_t>(), je["cycles"].get<uint64_t>() / 2);
}

// Visual wake words with `depthwise: gemm`: its 13 DEPTHWISE_CONV_2D on the
// GEMM core as block-diagonal CONV_2D, with the 14 CONV_2D and the dense
// layer; the default leaves the depthwise layers to the CPU.
TEST_F(VtaModelReplay, VwwDepthwiseOnTheGemmEqualsTfliteOnTheCpu) {
  COSIM_REQUIRE_MODEL(kVww);
  expect_on_vta_equal_to_tflite(*this, kVww, "vww", " --set depthwise=gemm",
                                {{"CONV_2D", 14}, {"DEPTHWISE_CONV_2D", 13}, {"FULLY_CONNECTED", 1}});
  const std::string out = work() + "/vww_default";
  const Cmd c = cosim("run " + scenario("resnet8") + " --set model=" + kVww + " --out " + out);
  ASSERT_EQ(c.code, 0) << c.out;
  EXPECT_NE(c.out.find("not supported by vta: DEPTHWISE_CONV_2D (ops 1, 3,"), std::string::npos) << c.out;
}

// `inputs: 3`: the network on three seeded inputs in one simulation, every
// DUT layer checked per input, the top-1 agreement counted over them.
TEST_F(VtaModelReplay, DelegateOverSeveralInputs) {
  COSIM_REQUIRE_MODEL(kKws);
  const std::string out = work() + "/kws_inputs";
  const Cmd c = cosim("run " + scenario("kws") + " --set inputs=3 --out " + out);
  ASSERT_EQ(c.code, 0) << c.out;
  EXPECT_NE(c.out.find("PASS bit-exact (18 checks"), std::string::npos) << c.out;  // (5 CONV_2D + 1 FULLY_CONNECTED) x 3
  const json j = report(out);
  ASSERT_EQ(j["network_outputs"].size(), 3u);
  int agree = 0;
  for (const json& n : j["network_outputs"]) {
    agree += n["top1"]["delegate"] == n["top1"]["tflite_double"] ? 1 : 0;
  }
  EXPECT_EQ(j["top1_agreement"]["inputs"].get<int>(), 3);
  EXPECT_EQ(j["top1_agreement"]["tflite_double"].get<int>(), agree);
  bool in2 = false;
  for (const json& l : j["layers"]) in2 = in2 || l["check"] == "op08_conv2d_in2";
  EXPECT_TRUE(in2) << j["layers"].dump();
  // Input 0 is the scenario's own: the same network output as a one-input run.
  const Cmd one = cosim("run " + scenario("kws") + " --out " + work() + "/kws_one");
  ASSERT_EQ(one.code, 0) << one.out;
  EXPECT_EQ(report(work() + "/kws_one")["network_output"], j["network_outputs"][0]);
  // Several inputs are a delegate feature: in mode layers the key is refused.
  const Cmd bad = cosim("run " + scenario("kws") + " --set mode=layers --set inputs=2 --out " + work() + "/kws_bad");
  EXPECT_EQ(bad.code, 2) << bad.out;
  EXPECT_NE(bad.out.find("'inputs': applies to mode: delegate"), std::string::npos) << bad.out;
}

TEST_F(VtaModelReplay, KwsConvOnVtaDepthwiseNotSupported) {
  COSIM_REQUIRE_MODEL(kKws);
  const std::string out = work() + "/kws";
  const Cmd c = cosim("run " + scenario("kws") + " --out " + out);
  ASSERT_EQ(c.code, 0) << c.out;
  const json j = report(out);
  EXPECT_EQ(j["status"], "pass");
  // ops: all = the operators VTA supports: the CONV_2D at 0, 2, 4, 6, 8 and
  // the FULLY_CONNECTED at 11.
  const json& layers = j["layers"];
  ASSERT_EQ(layers.size(), 6u);
  EXPECT_EQ(layers[5]["op_index"].get<std::size_t>(), 11u);
  EXPECT_EQ(layers[5]["type"], "FULLY_CONNECTED");
  EXPECT_TRUE(layers[5]["bit_exact"].get<bool>());
  for (std::size_t k = 0; k < 5; ++k) {
    SCOPED_TRACE(k);
    EXPECT_EQ(layers[k]["op_index"].get<std::size_t>(), 2 * k);
    EXPECT_EQ(layers[k]["type"], "CONV_2D");
    EXPECT_EQ(layers[k]["status"], "vta");
    EXPECT_TRUE(layers[k]["bit_exact"].get<bool>());
    EXPECT_TRUE(layers[k]["distance"].contains("tflite_double"));
    EXPECT_TRUE(layers[k]["distance"].contains("tflite_single"));
    EXPECT_GT(layers[k]["cycles"].get<uint64_t>(), 0u);
  }
  EXPECT_EQ(j["mismatch"]["checks"].size(), 6u);
  // The DEPTHWISE_CONV_2D at 1, 3, 5, 7 are named, not run (and so are the
  // pool, reshape and softmax at 9, 10, 12).
  std::vector<std::size_t> depthwise;
  for (const json& n : j["not_supported"]) {
    if (n["type"] == "DEPTHWISE_CONV_2D") depthwise.push_back(n["op_index"].get<std::size_t>());
  }
  EXPECT_EQ(depthwise, (std::vector<std::size_t>{1, 3, 5, 7}));
  EXPECT_EQ(j["metrics"]["ops_not_supported"].get<double>(), 7.0);
  EXPECT_NE(c.out.find("not supported by vta: DEPTHWISE_CONV_2D (ops 1, 3, 5, 7)"), std::string::npos) << c.out;
}

TEST_F(VtaModelReplay, ListedDepthwiseLayersAreOneInputErrorNamingThem) {
  COSIM_REQUIRE_MODEL(kKws);
  // Issue 13: this used to run nothing and print PASS with 0 checks.
  const std::string out = work() + "/kws_dw";
  const Cmd c = cosim("run " + scenario("kws") + " --set ops=[1,3] --out " + out);
  EXPECT_EQ(c.code, 2) << c.out;
  EXPECT_EQ(std::count(c.out.begin(), c.out.end(), '\n'), 1) << c.out;
  EXPECT_EQ(c.out.rfind("cosim: error: ", 0), 0u) << c.out;
  EXPECT_NE(c.out.find("'ops': ops 1 (DEPTHWISE_CONV_2D), 3 (DEPTHWISE_CONV_2D): not supported by target vta "
                       "(supports CONV_2D"),
            std::string::npos)
      << c.out;
  EXPECT_NE(c.out.find("], ADD ["), std::string::npos) << c.out;
  EXPECT_FALSE(fs::exists(out + "/trace")) << "nothing may run";
  // A supported layer next to them does not make the list acceptable.
  const Cmd d = cosim("run " + scenario("kws") + " --set ops=[0,1] --out " + work() + "/kws_dw2");
  EXPECT_EQ(d.code, 2) << d.out;
  EXPECT_NE(d.out.find("op 1 (DEPTHWISE_CONV_2D): not supported by target vta"), std::string::npos) << d.out;
}

TEST_F(VtaModelReplay, BadOperatorIndicesExit2) {
  COSIM_REQUIRE_MODEL(kResnet);
  // ResNet-8 has 16 operators; 15 is the SOFTMAX.
  const Cmd a = cosim("run " + scenario("resnet8") + " --set ops=[0,16] --out " + work() + "/bad_range");
  EXPECT_EQ(a.code, 2) << a.out;
  EXPECT_NE(a.out.find("'ops[1]'"), std::string::npos) << a.out;
  EXPECT_NE(a.out.find("16"), std::string::npos) << a.out;
  const Cmd b = cosim("run " + scenario("resnet8") + " --set ops=[15] --out " + work() + "/bad_op");
  EXPECT_EQ(b.code, 2) << b.out;
  EXPECT_NE(b.out.find("SOFTMAX"), std::string::npos) << b.out;
  const Cmd n = cosim("run " + scenario("resnet8") + " --set ops=[-1] --out " + work() + "/bad_neg");
  EXPECT_EQ(n.code, 2) << n.out;
}

TEST_F(VtaModelReplay, SelectedIndicesOnlyAndPathRelativeToTheScenarioFile) {
  COSIM_REQUIRE_MODEL(kResnet);
  // <work>/rel/scen/r.yaml names ../models/r8.tflite: resolved from <work>/rel/scen,
  // the scenario file's folder, like an npy: path.
  const fs::path base = fs::path(work()) / "rel";
  fs::create_directories(base / "scen");
  fs::create_directories(base / "models");
  std::error_code ec;
  fs::create_symlink(kResnet, base / "models" / "r8.tflite", ec);
  std::ofstream(base / "scen" / "r.yaml") << "target: vta\nop: model\nmodel: ../models/r8.tflite\nops: [7, 0]\n";
  const std::string out = work() + "/rel_out";
  const Cmd c = cosim("run " + (base / "scen" / "r.yaml").string() + " --out " + out);
  ASSERT_EQ(c.code, 0) << c.out;
  const json j = report(out);
  ASSERT_EQ(j["layers"].size(), 2u);
  EXPECT_EQ(j["layers"][0]["check"], "op00_conv2d");
  EXPECT_EQ(j["layers"][1]["check"], "op07_add");
  EXPECT_TRUE(j["bit_exact"].get<bool>());
  // A single run: its cycles are the CYCLES register's.
  EXPECT_GT(j["layers"][1]["cycles"].get<uint64_t>(), 0u);
}

// Issue 32 item 2: a replay of a model run is as rich as the run. The run
// keeps its resolved scenario beside the trace (trace/scenario.yaml), and the
// replay prepares the workload from it again: the same layer table, with
// the per-layer bands of the timeline, and the network's output. A byte
// changed in one layer's expected blob fails that layer alone and names the
// STORE instruction that wrote the element. Without scenario.yaml the replay
// reports the trace alone.
TEST_F(VtaModelReplay, AReplayKeepsTheLayerTableAndNamesTheStore) {
  COSIM_REQUIRE_MODEL(kResnet);
  const std::string run = work() + "/rich_run";
  ASSERT_EQ(cosim("run " + scenario("resnet8") + " --out " + run).code, 0);
  ASSERT_TRUE(fs::exists(run + "/trace/scenario.yaml"));
  const Cmd r = cosim("replay " + run + "/trace --out " + work() + "/rich_replay");
  ASSERT_EQ(r.code, 0) << r.out;
  const json a = report(run), b = report(work() + "/rich_replay");
  ASSERT_EQ(a["layers"].size(), 13u);
  EXPECT_EQ(b["layers"], a["layers"]);  // start_cycle / end_cycle: the timeline's bands
  EXPECT_EQ(b["network_output"], a["network_output"]);
  EXPECT_EQ(b["not_supported"], a["not_supported"]);
  EXPECT_NE(r.out.find("partition   13 of 16 operators on vta"), std::string::npos) << r.out;

  // Corrupt the first byte op01's check expects.
  std::ifstream t(run + "/trace/trace.txt");
  std::string line, blob;
  while (std::getline(t, line)) {
    if (line.rfind("mem_check ", 0) == 0 && line.size() > 12 && line.substr(line.size() - 12) == " op01_conv2d") {
      std::istringstream in(line);
      std::string kw, addr;
      in >> kw >> addr >> blob;
    }
  }
  ASSERT_FALSE(blob.empty());
  {
    std::fstream f(run + "/trace/" + blob, std::ios::in | std::ios::out | std::ios::binary);
    char ch = 0;
    f.read(&ch, 1);
    ch = static_cast<char>(ch ^ 0x40);
    f.seekp(0);
    f.write(&ch, 1);
  }
  const Cmd bad = cosim("replay " + run + "/trace --out " + work() + "/rich_bad");
  ASSERT_EQ(bad.code, 1) << bad.out;
  const json c = report(work() + "/rich_bad");
  EXPECT_TRUE(c["layers"][0]["bit_exact"].get<bool>());
  EXPECT_FALSE(c["layers"][1]["bit_exact"].get<bool>());
  EXPECT_TRUE(c["layers"][2]["bit_exact"].get<bool>());
  const std::string unit = c["first_divergence"]["unit"]["text"];
  EXPECT_EQ(unit.rfind("layer 1 (CONV_2D) instruction ", 0), 0u) << unit;
  EXPECT_NE(unit.find(": STORE OUT"), std::string::npos) << unit;

  fs::remove(run + "/trace/scenario.yaml");
  const Cmd alone = cosim("replay " + run + "/trace --out " + work() + "/rich_alone");
  EXPECT_EQ(alone.code, 1) << alone.out;
  EXPECT_FALSE(report(work() + "/rich_alone").contains("layers"));
}

// A relative path typed on the command line is the shell's: from the current folder.
TEST_F(VtaModelReplay, SetModelPathIsRelativeToTheCurrentFolder) {
  COSIM_REQUIRE_MODEL(kResnet);
  const fs::path here = fs::path(work()) / "cwd";
  fs::create_directories(here / "m");
  std::error_code ec;
  fs::create_symlink(kResnet, here / "m" / "r8.tflite", ec);
  const std::string out = work() + "/cwd_out";
  const Cmd c = cosim::test::run_command("cd " + here.string() + " && " + cosim::test::cosim_binary() + " run " +
                                         scenario("resnet8") + " --set model=m/r8.tflite --set ops=[0] --out " + out);
  ASSERT_EQ(c.code, 0) << c.out;
  EXPECT_EQ(report(out)["model"], (here / "m" / "r8.tflite").string());
}

TEST_F(VtaModelReplay, MissingModelSkips) {
  // Runs without the models folder too.
  const fs::path dir = fs::path(work()) / "missing" / "scen";
  fs::create_directories(dir);
  std::ofstream(dir / "m.yaml") << "target: vta\nop: model\nmodel: ../../shared/models/absent_model.tflite\n";
  const std::string out = work() + "/missing_out";
  const Cmd c = cosim("run " + (dir / "m.yaml").string() + " --out " + out);
  EXPECT_EQ(c.code, 0) << c.out;
  EXPECT_NE(c.out.find("cosim: skipped: model ../../shared/models/absent_model.tflite not found"), std::string::npos)
      << c.out;
  const json j = report(out);
  EXPECT_EQ(j["status"], "skipped");
  EXPECT_EQ(j["op"], "model");
  EXPECT_FALSE(j.contains("bit_exact"));
}

TEST_F(VtaModelReplay, MalformedModelExits2) {
  const fs::path dir = fs::path(work()) / "malformed" / "scen";
  fs::create_directories(dir);
  std::ofstream(dir / "junk.tflite") << "not a flatbuffer";
  std::ofstream(dir / "m.yaml") << "target: vta\nop: model\nmodel: junk.tflite\n";
  const Cmd c = cosim("run " + (dir / "m.yaml").string() + " --out " + work() + "/malformed_out");
  EXPECT_EQ(c.code, 2) << c.out;
  EXPECT_NE(c.out.find("cosim: error:"), std::string::npos) << c.out;
}

// Issue 31, item 6 (CTest label `faults`): a model path the user gave that
// does not exist is bad input (exit 2, one line naming the path and the
// key); only the scenario file's own path into an absent folder is a SKIP.
class VtaModelReplayFaults : public VtaModelReplay {};

TEST_F(VtaModelReplayFaults, TypoInSetModelExits2NamingThePathAndTheKey) {
  fs::create_directories(work() + "/typo");
  for (const std::string& path : {work() + "/typo/resnet8_int8.tfltie",  // folder exists
                                  work() + "/no_such_folder/resnet8_int8.tflite"}) {
    const Cmd c = cosim("run " + scenario("resnet8") + " --set model=" + path + " --out " + work() + "/typo_out");
    EXPECT_EQ(c.code, 2) << c.out;
    EXPECT_EQ(c.out, "cosim: error: --set model=" + path + ": 'model': no such model file: " + path + "\n");
  }
}

TEST_F(VtaModelReplayFaults, MissingFileInAnExistingFolderExits2) {
  const fs::path base = fs::path(work()) / "typo_in_file";
  fs::create_directories(base / "scen");
  fs::create_directories(base / "models");
  std::ofstream(base / "scen" / "m.yaml") << "target: vta\nop: model\nmodel: ../models/resnet8_int8.tfltie\n";
  const Cmd c = cosim("run " + (base / "scen" / "m.yaml").string() + " --out " + work() + "/typo_in_file_out");
  EXPECT_EQ(c.code, 2) << c.out;
  EXPECT_EQ(c.out, "cosim: error: " + (base / "scen" / "m.yaml").string() +
                       ":3: 'model': no such model file: " + (base / "models" / "resnet8_int8.tfltie").string() +
                       "\n");
}

TEST_F(VtaModelReplayFaults, ShippedScenarioWithoutTheModelsFolderSkips) {
  // The shipped scenarios, copied where ../../shared/models does not exist.
  const fs::path base = fs::path(work()) / "no_models" / "repo";
  fs::remove_all(base.parent_path());
  fs::create_directories(base / "scenarios");
  for (const char* name : {"resnet8", "kws"}) {
    fs::copy_file(scenario(name), base / "scenarios" / (std::string(name) + ".yaml"));
    const std::string out = work() + "/no_models_" + name;
    const Cmd c = cosim("run " + (base / "scenarios" / (std::string(name) + ".yaml")).string() + " --out " + out);
    EXPECT_EQ(c.code, 0) << c.out;
    EXPECT_NE(c.out.find("cosim: skipped: model ../../shared/models/"), std::string::npos) << c.out;
    EXPECT_EQ(report(out)["status"], "skipped");
  }
}

}  // namespace

namespace cosim::backends {
std::unique_ptr<tb::TargetBackend> make_vta();
}

namespace {

// `input: {npy}` with `inputs: 2`: the rows of a [2, ...] batch are the two
// inputs. Row 1 is the seeded random input of seed 9, so the batch run's
// second network output equals a one-input run with seed 9. A batch whose
// first dimension is not `inputs` is exit 2 naming the expected shape.
TEST_F(VtaModelReplay, DelegateInputsFromAnNpyBatch) {
  COSIM_REQUIRE_MODEL(kKws);
  const cosim::tflite::Model model = cosim::tflite::load_model(kKws);
  const cosim::Tensor a = cosim::tflite::random_input(model, 5), b = cosim::tflite::random_input(model, 9);
  std::vector<int64_t> shape = a.shape();
  shape[0] = 2;
  cosim::Tensor batch(cosim::DType::kInt8, shape, cosim::Layout::kAny);
  std::copy(a.bytes().begin(), a.bytes().end(), batch.bytes().begin());
  std::copy(b.bytes().begin(), b.bytes().end(), batch.bytes().begin() + static_cast<std::ptrdiff_t>(a.bytes().size()));
  const std::string npy = work() + "/kws_batch.npy";
  cosim::write_npy(npy, batch);
  const std::string out = work() + "/kws_batch";
  const Cmd c = cosim("run " + scenario("kws") + " --set inputs=2 --set 'input={npy: " + npy + "}' --out " + out);
  ASSERT_EQ(c.code, 0) << c.out;
  const Cmd one = cosim("run " + scenario("kws") + " --seed 9 --out " + work() + "/kws_seed9");
  ASSERT_EQ(one.code, 0) << one.out;
  EXPECT_EQ(report(out)["network_outputs"][1], report(work() + "/kws_seed9")["network_output"]);
  EXPECT_NE(report(out)["network_outputs"][0], report(out)["network_outputs"][1]);
  const Cmd bad = cosim("run " + scenario("kws") + " --set inputs=3 --set 'input={npy: " + npy + "}' --out " +
                        work() + "/kws_batch_bad");
  EXPECT_EQ(bad.code, 2) << bad.out;
  EXPECT_NE(bad.out.find("has shape [2,49,10,1], expected [3,49,10,1]"), std::string::npos) << bad.out;
}

TEST_F(VtaModelReplay, MismatchIsTracedToTheLayersStore) {
  COSIM_REQUIRE_MODEL(kResnet);
  cosim::tb::BackendRegistry reg;
  reg.add(cosim::backends::make_vta());
  const auto sc = cosim::scenario::load_scenario(cosim::test::scenario_file("resnet8"), reg.schemas(), {"ops=[4,7]"});
  const cosim::tb::TargetBackend& b = reg.get("vta");
  const cosim::tb::Workload w = b.prepare(sc);
  const cosim::trace::Trace tr = b.compile(sc, w);
  // Two runs: two mem_load at 0, two wait_done, two checks named per layer, in
  // that order (each check before the next load).
  std::vector<std::string> seq;
  for (const auto& s : tr.steps) {
    if (s.op == cosim::trace::Op::kMemLoad) seq.push_back("load@" + std::to_string(s.addr));
    if (s.op == cosim::trace::Op::kWaitDone) seq.push_back("wait");
    if (s.op == cosim::trace::Op::kMemCheck) seq.push_back(s.tensor.name);
  }
  // Mode delegate: the second program's image follows the first one's (the
  // first's output stays in DRAM for later readers).
  ASSERT_EQ(seq.size(), 6u);
  EXPECT_EQ(seq[0], "load@0");
  EXPECT_EQ(std::vector<std::string>(seq.begin() + 1, seq.begin() + 3), (std::vector<std::string>{"wait", "op04_conv2d"}));
  EXPECT_NE(seq[3], "load@0");
  EXPECT_EQ(std::vector<std::string>(seq.begin() + 4, seq.end()), (std::vector<std::string>{"wait", "op07_add"}));
  // Element (0, 9, 3, 5) of op07's 1x16x16x32 output: written by a STORE of
  // layer 7's program.
  const auto u = b.work_unit(&w, tr, "op07_add", {0, 9, 3, 5}, std::nullopt);
  ASSERT_TRUE(u.has_value());
  EXPECT_EQ(u->fields.at("layer"), 7);
  EXPECT_NE(u->text.find("STORE"), std::string::npos) << u->text;
  const auto c = b.work_unit(&w, tr, "op04_conv2d", {0, 15, 15, 31}, std::nullopt);
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->fields.at("layer"), 4);
  EXPECT_FALSE(b.work_unit(&w, tr, "op05_conv2d", {0, 0, 0, 0}, std::nullopt).has_value());  // not selected
}

// Consecutive DUT operators keep their tensors in DRAM: a CONV_2D whose
// input an earlier DUT operator wrote in the blocked layout reads it in place
// (its image leaves the input out), so the DUT's own output feeds it. One
// byte of op 3's output (the ADD, 16 channels: flat is blocked) is corrupted
// after its run finishes (as a faulty DUT would leave it): the run fails at
// op 3, naming the element, ops 4 and 6 (which read it in DRAM, in the next
// run) fail after it, and ops 0..2 still pass.
TEST_F(VtaModelReplay, CorruptedOutputMidNetworkFailsAtThatLayer) {
  COSIM_REQUIRE_MODEL(kResnet);
  cosim::tb::BackendRegistry reg;
  reg.add(cosim::backends::make_vta());
  const auto sc = cosim::scenario::load_scenario(cosim::test::scenario_file("resnet8"), reg.schemas(), {});
  const cosim::tb::TargetBackend& b = reg.get("vta");
  const cosim::tb::Workload w = b.prepare(sc);
  cosim::trace::Trace tr = b.compile(sc, w);
  // Where op 3's output sits, and whether the later images leave that region to the DUT.
  auto check_step = [&](const std::string& name) {
    for (std::size_t i = 0; i < tr.steps.size(); ++i) {
      if (tr.steps[i].op == cosim::trace::Op::kMemCheck && tr.steps[i].tensor.name == name) return i;
    }
    ADD_FAILURE() << "no check " << name;
    return std::size_t{0};
  };
  const std::size_t c3 = check_step("op03_add");
  const cosim::trace::Step& chk = tr.steps[c3];
  const uint64_t out3 = chk.addr, out3_end = chk.addr + chk.tensor.memory_bytes();
  for (const auto& s : tr.steps) {
    if (s.op != cosim::trace::Op::kMemLoad) continue;
    const bool overlaps = s.addr < out3_end && s.addr + s.data.size() > out3;
    EXPECT_FALSE(overlaps && s.addr > out3) << "a later image reloads op 3's output at " << s.addr;
  }
  // Element (0, 4, 6, 7) of op 3's 1x32x32x16 output, flipped by 0x40 (even
  // coordinates: op 6's 1x1 stride-2 window samples it too).
  const std::vector<int64_t> shape = chk.tensor.shape;
  ASSERT_EQ(shape, (std::vector<int64_t>{1, 32, 32, 16}));
  const int64_t flat = ((0 * 32 + 4) * 32 + 6) * 16 + 7;
  const uint8_t good = chk.data.at(static_cast<std::size_t>(flat));
  cosim::trace::Step poke;
  poke.op = cosim::trace::Op::kMemLoad;
  poke.addr = out3 + chk.tensor.memory_offset(flat);
  poke.data = {static_cast<uint8_t>(good ^ 0x40)};
  tr.steps.insert(tr.steps.begin() + static_cast<std::ptrdiff_t>(c3), poke);  // after op 3's wait, before its check
  const std::string dir = work() + "/resnet8_corrupt_trace";
  cosim::trace::write_trace(tr, dir);
  const std::string out = work() + "/resnet8_corrupt";
  const Cmd c = cosim("replay " + dir + " --out " + out);
  ASSERT_EQ(c.code, 1) << c.out;
  const std::string elem = "op03_add[n=0,h=4,w=6,c=7]: expected " + std::to_string(static_cast<int8_t>(good)) +
                           ", got " + std::to_string(static_cast<int8_t>(good ^ 0x40));
  EXPECT_NE(c.out.find(elem), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("first diff  op03_add[n=0,h=4,w=6,c=7]"), std::string::npos) << c.out;
  const json j = report(out);
  std::map<std::string, int64_t> mism;
  for (const json& k : j["mismatch"]["checks"]) mism[k["name"].get<std::string>()] = k["mismatches"].get<int64_t>();
  for (const char* ok : {"op00_conv2d", "op01_conv2d", "op02_conv2d"}) EXPECT_EQ(mism.at(ok), 0) << ok;
  EXPECT_EQ(mism.at("op03_add"), 1);
  for (const char* reader : {"op04_conv2d", "op06_conv2d"})
    EXPECT_GT(mism.at(reader), 0) << reader << " reads op 3's output in DRAM: the corruption must reach it";
  EXPECT_EQ(j["first_divergence"]["check"], "op03_add") << j.dump();
}

}  // namespace
