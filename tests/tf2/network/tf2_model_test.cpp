// `cosim run scenarios/tf2_resnet8.yaml`: the float ResNet-8 chained on the
// TF2 engine (mode delegate): every CONV_2D on the RTL bit-exact against the
// golden chain, the ADDs fused, the tail on the host, per-layer SNR and the
// top-1 agreement. `mode: layers`: each CONV_2D alone; `ops: all` runs every
// CONV_2D and names the other operators, a listed operator TF2 cannot run is
// exit 2; a missing model skips (exit 0, status "skipped").
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "support/cosim_cli.hpp"
#include "support/models.hpp"
#include "tensor/tensor.hpp"

using nlohmann::json;

namespace {

const std::string kModel = cosim::test::model_path("resnet8_float.tflite");

using Result = cosim::test::CliResult;

class Tf2Model : public cosim::test::CosimCli {
 public:
  static std::string write_scenario(const std::string& name, const std::string& model, const std::string& ops,
                                    const std::string& mode = "layers", const std::string& extra = "") {
    return write_file(name + ".yaml", "name: " + name + "\ntarget: tf2\nop: model\nseed: 3\nmodel: " + model +
                                          "\nops: " + ops + "\nmode: " + mode + "\n" + extra);
  }
};

TEST_F(Tf2Model, Resnet8ChainBitExactWithSnrAndTop1) {
  COSIM_REQUIRE_MODEL(kModel);
  Result r;
  const json rep = run_passing(scenario("tf2_resnet8"), "resnet8", r);
  EXPECT_EQ(rep["status"], "pass");
  ASSERT_TRUE(rep["utilization"].is_number()) << rep.dump();
  EXPECT_GT(rep["utilization"].get<double>(), 0.0);
  EXPECT_LE(rep["utilization"].get<double>(), 1.0);
  // Every operator of ResNet-8 has a row: the nine CONV_2D on TF2 (bit-exact),
  // the three ADDs fused into the convolution before them, the tail on the host.
  // op 14, the dense layer, runs on TF2 as a 1x1 convolution.
  const std::set<int> conv{0, 1, 2, 4, 5, 6, 8, 9, 10, 14}, add{3, 7, 11}, host{12, 13, 15};
  std::set<int> seen;
  uint64_t layer_cycles = 0;  // per input, summed over the TF2 layers
  for (const json& l : rep["layers"]) {
    const int op = l["op_index"].get<int>();
    seen.insert(op);
    if (conv.count(op)) {
      ASSERT_TRUE(l["cycles_per_input"].is_number()) << l.dump();
      EXPECT_GT(l["cycles_per_input"].get<uint64_t>(), 0u);
      layer_cycles += l["cycles_per_input"].get<uint64_t>();
    }
    ASSERT_TRUE(l["network_snr_db"].is_number()) << l.dump();  // finite (inf is written as a string)
    if (conv.count(op)) {
      EXPECT_EQ(l["type"], op == 14 ? "FULLY_CONNECTED" : "CONV_2D");
      EXPECT_EQ(l["where"], "tf2");
      EXPECT_TRUE(l["bit_exact"].get<bool>()) << l.dump();
      ASSERT_TRUE(l["layer_snr_db"].is_number()) << l.dump();
      // Real weights through INQ and int8: not exact, far from noise.
      EXPECT_GT(l["layer_snr_db"].get<double>(), 5.0) << l.dump();
      EXPECT_LT(l["layer_snr_db"].get<double>(), 80.0) << l.dump();
    } else if (add.count(op)) {
      EXPECT_EQ(l["type"], "ADD");
      EXPECT_EQ(l["where"].get<std::string>().rfind("tf2:op", 0), 0u) << l.dump();
    } else {
      EXPECT_TRUE(host.count(op)) << l.dump();
      EXPECT_EQ(l["where"], "cpu");
      EXPECT_FALSE(l["reason"].get<std::string>().empty()) << l.dump();
    }
  }
  EXPECT_EQ(seen.size(), 16u);
  // The layers' cycles (the engine busy on each descriptor) make up the
  // engine's busy cycles over the 4 inputs, to the rounding of the per-input split.
  const uint64_t busy = rep["perf_counters"]["busy_cycles"].get<uint64_t>();
  EXPECT_LE(4 * layer_cycles, busy);
  EXPECT_GE(4 * layer_cycles + 4 * 10, busy);
  EXPECT_EQ(rep["metrics"]["layers_bit_exact"].get<double>(), 10.0);
  // Top-1 over the scenario's `inputs: 4`.
  ASSERT_TRUE(rep.contains("top1")) << rep.dump();
  EXPECT_EQ(rep["top1"]["inputs"].get<int>(), 4);
  const int agree = rep["top1"]["agree"].get<int>();
  EXPECT_GE(agree, 0);
  EXPECT_LE(agree, 4);
  ASSERT_EQ(rep["top1"]["float"].size(), 4u);
  ASSERT_EQ(rep["top1"]["tf2"].size(), 4u);
  int same = 0;
  for (int n = 0; n < 4; ++n) same += rep["top1"]["float"][n] == rep["top1"]["tf2"][n];
  EXPECT_EQ(same, agree);
  EXPECT_NE(r.out.find("top-1 agreement " + std::to_string(agree) + "/4"), std::string::npos) << r.out;
  // The final output's drift is the last operator's figure against the float model.
  ASSERT_TRUE(rep["network_output"]["float_max_abs_diff"].is_number()) << rep.dump();
  const json& softmax = rep["layers"].back();
  EXPECT_EQ(softmax["type"], "SOFTMAX");
  EXPECT_EQ(rep["network_output"]["float_max_abs_diff"], softmax["network_max_abs_err"]);
  EXPECT_NE(r.out.find("network output vs the float model over 4 input(s)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("32x32x3 -> 32x32x16"), std::string::npos) << r.out;  // the console table
}

TEST_F(Tf2Model, LayersModeReplaysEachConvBitExact) {
  COSIM_REQUIRE_MODEL(kModel);
  Result r;
  const json rep = run_passing(write_scenario("layers", kModel, "[0, 4, 10]"), "layers", r);
  std::set<int> got;
  for (const json& l : rep["layers"]) {
    got.insert(l["op_index"].get<int>());
    EXPECT_TRUE(l["bit_exact"].get<bool>()) << l.dump();
    EXPECT_GT(l["inq_snr_db"].get<double>(), 8.0) << l.dump();
    EXPECT_GT(l["int8_snr_db"].get<double>(), 8.0) << l.dump();
  }
  EXPECT_EQ(got, (std::set<int>{0, 4, 10}));
}

// `chain`, the mode's older name, is still the delegate mode.
TEST_F(Tf2Model, ChainWithAnOperatorListIsInputError) {
  COSIM_REQUIRE_MODEL(kModel);
  const Result r = cosim("run " + write_scenario("chainops", kModel, "[0, 1]", "chain") + " --out " + work() + "/co");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  EXPECT_NE(r.out.find("mode delegate runs the whole network"), std::string::npos) << r.out;
}

TEST_F(Tf2Model, ChainInputsOutOfRangeIsInputError) {
  COSIM_REQUIRE_MODEL(kModel);
  const Result r = cosim("run " + write_scenario("zero", kModel, "all", "delegate", "inputs: 0\n") + " --out " + work() + "/z");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("inputs"), std::string::npos) << r.out;
}

// `input` feeds mode: layers only; in a chain it would be ignored, so it is
// one error line instead.
TEST_F(Tf2Model, ChainRefusesThePerLayerInputKey) {
  COSIM_REQUIRE_MODEL(kModel);
  const Result r = cosim("run " + write_scenario("inkey", kModel, "all", "delegate", "input: random\n") + " --out " +
                         work() + "/inkey");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  EXPECT_NE(r.out.find("'input': applies to mode: layers"), std::string::npos) << r.out;
}

TEST_F(Tf2Model, ChainReadsImagesFromNpy) {
  COSIM_REQUIRE_MODEL(kModel);
  // 2 calibration + 1 input image: horizontal ramps of different slopes.
  cosim::Tensor t(cosim::DType::kFp32, {3, 32, 32, 3}, cosim::Layout::kNHWC);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = static_cast<float>((i / 3 % 32) * (i / 3072 + 1)) / 96.0f;
  const std::string npy = work() + "/images.npy";
  cosim::write_npy(npy, t);
  Result r;
  const json rep = run_passing(
      write_scenario("npy", kModel, "all", "delegate", "calibration: 2\ninputs: 1\nimages: {npy: " + npy + "}\n"), "npy",
      r);
  ASSERT_TRUE(rep.contains("top1")) << r.out;
  EXPECT_EQ(rep["top1"]["inputs"].get<int>(), 1);
  EXPECT_EQ(rep["metrics"]["layers_bit_exact"].get<double>(), 10.0);
  // An .npy that does not hold calibration + inputs images is exit 2 naming the key.
  const Result bad = cosim("run " +
                           write_scenario("npy4", kModel, "all", "delegate",
                                          "calibration: 2\ninputs: 2\nimages: {npy: " + npy + "}\n") +
                           " --out " + work() + "/npy4");
  EXPECT_EQ(bad.code, 2) << bad.out;
  EXPECT_NE(bad.out.find("expected [4,32,32,3]"), std::string::npos) << bad.out;
  EXPECT_NE(bad.out.find("'images.npy'"), std::string::npos) << bad.out;
  EXPECT_EQ(bad.out.find("'model'"), std::string::npos) << bad.out;  // one location
}

TEST_F(Tf2Model, AllOpsRunsEveryConvAndNamesTheOthers) {
  COSIM_REQUIRE_MODEL(kModel);
  Result r;
  const json rep = run_passing(write_scenario("all", kModel, "all"), "all", r);
  // `all` = every operator tf2 supports: the nine CONV_2D (ops 0-2, 4-6, 8-10).
  std::set<int> conv;
  for (const json& l : rep["layers"]) {
    EXPECT_EQ(l["type"], "CONV_2D");
    EXPECT_TRUE(l["bit_exact"].get<bool>()) << l.dump();
    conv.insert(l["op_index"].get<int>());
  }
  EXPECT_EQ(conv, (std::set<int>{0, 1, 2, 4, 5, 6, 8, 9, 10}));
  // The others are named, not run: 3 ADD, AVERAGE_POOL_2D, RESHAPE, FULLY_CONNECTED, SOFTMAX.
  std::multiset<std::string> other;
  for (const json& n : rep["not_supported"]) other.insert(n["type"].get<std::string>());
  EXPECT_EQ(other, (std::multiset<std::string>{"ADD", "ADD", "ADD", "AVERAGE_POOL_2D", "RESHAPE", "FULLY_CONNECTED",
                                               "SOFTMAX"}));
  EXPECT_EQ(rep["metrics"]["ops_not_supported"].get<double>(), 7.0);
  EXPECT_NE(r.out.find("not supported by tf2: ADD (ops 3, 7, 11)"), std::string::npos) << r.out;
}

TEST_F(Tf2Model, ListedOperatorTheTargetCannotRunIsInputError) {
  COSIM_REQUIRE_MODEL(kModel);
  // Op 3 is the first residual ADD of ResNet-8; TF2's model op runs CONV_2D only.
  const std::string yaml = write_scenario("add", kModel, "[0, 3]");
  const Result r = cosim("run " + yaml + " --out " + work() + "/add");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  EXPECT_NE(r.out.find("'ops': op 3 (ADD): not supported by target tf2 (supports CONV_2D [float32 weights])"),
            std::string::npos)
      << r.out;
}

TEST_F(Tf2Model, MissingModelSkips) {
  // A SKIP needs the scenario's models folder absent (a file missing from a
  // folder that exists is a typo: exit 2).
  const std::string out = work() + "/missing";
  const Result r = cosim("run " + write_scenario("missing", work() + "/no_such_models/no_such_model.tflite", "all") +
                         " --out " + out);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("skipped"), std::string::npos) << r.out;
  EXPECT_EQ(report(out)["status"], "skipped");
}

TEST_F(Tf2Model, NonExistentOperatorIndexIsInputError) {
  COSIM_REQUIRE_MODEL(kModel);
  const Result r = cosim("run " + write_scenario("badop", kModel, "[99]") + " --out " + work() + "/badop");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("ops"), std::string::npos) << r.out;
}

}  // namespace

namespace {

// Runs `model` (in shared/models) as a TF2 chain with one input and returns
// the operators each side ran; the run must pass bit-exact.
struct Partition {
  std::set<int> tf2, cpu;
  json report;
};
Partition chain_partition(Tf2Model& t, const std::string& model, const std::string& name) {
  Result r;
  const json rep = t.run_passing(Tf2Model::write_scenario(name, cosim::test::model_path(model), "all", "delegate",
                                                          "calibration: 2\ninputs: 1\n"),
                                 name, r);
  Partition p;
  if (rep.empty()) return p;
  p.report = rep;
  EXPECT_EQ(rep["status"], "pass") << r.out;
  EXPECT_TRUE(rep["bit_exact"].get<bool>()) << r.out;
  for (const json& l : rep["layers"]) {
    const int op = l["op_index"].get<int>();
    if (l["where"] == "tf2") {
      p.tf2.insert(op);
      EXPECT_TRUE(l["bit_exact"].get<bool>()) << l.dump();
    } else {
      EXPECT_EQ(l["where"], "cpu") << l.dump();
      EXPECT_FALSE(l["reason"].get<std::string>().empty()) << l.dump();
      p.cpu.insert(op);
    }
  }
  return p;
}

}  // namespace

// The other three MLPerf Tiny float models chain on TF2 with the host
// between segments: every dense layer as a 1x1 convolution, every pointwise
// convolution (kws: dynamic-range int8 weights), depthwise on the host.
TEST_F(Tf2Model, AnomalyDetectionEveryDenseLayerOnTf2) {
  COSIM_REQUIRE_MODEL(cosim::test::model_path("ad01_fp32.tflite"));
  const Partition p = chain_partition(*this, "ad01_fp32.tflite", "ad01");
  EXPECT_EQ(p.tf2, (std::set<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
  EXPECT_TRUE(p.cpu.empty());
  // The model's own score, per input, from the chain and from the float model.
  ASSERT_TRUE(p.report.contains("anomaly_score")) << p.report.dump();
  const json& a = p.report["anomaly_score"];
  ASSERT_EQ(a["tf2"].size(), 1u);
  ASSERT_EQ(a["float"].size(), 1u);
  EXPECT_GT(a["float"][0].get<double>(), 0.0);
  EXPECT_GT(a["tf2"][0].get<double>(), 0.0);
}

TEST_F(Tf2Model, KeywordSpottingPointwiseAndDenseOnTf2) {
  COSIM_REQUIRE_MODEL(cosim::test::model_path("kws_dscnn_float.tflite"));
  const Partition p = chain_partition(*this, "kws_dscnn_float.tflite", "kws");
  EXPECT_EQ(p.tf2, (std::set<int>{2, 4, 6, 8, 11}));
  EXPECT_EQ(p.cpu, (std::set<int>{0, 1, 3, 5, 7, 9, 10, 12}));
  EXPECT_FALSE(p.report.contains("anomaly_score"));  // a classifier
}

TEST_F(Tf2Model, VisualWakeWordsPointwiseAndDenseOnTf2) {
  COSIM_REQUIRE_MODEL(cosim::test::model_path("vww_96_float.tflite"));
  const Partition p = chain_partition(*this, "vww_96_float.tflite", "vww");
  EXPECT_EQ(p.tf2, (std::set<int>{2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 29}));
  EXPECT_EQ(p.tf2.size() + p.cpu.size(), 31u);
}
