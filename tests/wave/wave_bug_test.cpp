// First-divergence reports on RTL with a deliberately injected bug
// (cosim_inject_bug: the DUTs' *_rtl_bug variants, each Verilated with one
// named mutant of rtl/<dut>/mutants.yaml applied):
//   TF2       tf2_wave_single_bit: output channel 5 of pixel (y 2, x 3) has
//             its LSB flipped;
//   tiny-dnn  tinydnn_wave_single_bit: output channel 3 at output position 7
//             (y 0, x 7 of a 10-wide map) has its lowest bf16 mantissa bit
//             flipped, in every sample;
//   VTA       vta_wave_single_bit: the first beat of a STORE from ACC index
//             344 has bit 0 flipped.
// The report must name that element and its unit of work, and the write
// cycle it gives must be the cycle at which the FST shows the DUT handing
// that element's bytes to memory (read back independently with fst2vcd).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>
#include <vector>

#include "support/text_file.hpp"
#include "wave_test_util.hpp"

namespace fs = std::filesystem;
using cosim::test::read_text;
using namespace wavetest;

namespace {

int cosim_bug(const std::string& scen, const std::string& dir, const std::string& args) {
  return wavetest::cosim_run(COSIM_BUG_BIN, scen, dir, args);
}

uint64_t hex_u64(const std::string& s) { return std::stoull(s, nullptr, 16); }

// Bits [lo, lo + n) of a VCD binary string (MSB first).
uint64_t field(const std::string& bin, int lo, int n) {
  uint64_t x = 0;
  const int w = static_cast<int>(bin.size());
  for (int b = lo + n - 1; b >= lo; --b) x = (x << 1) | ((b < w && bin[w - 1 - b] == '1') ? 1u : 0u);
  return x;
}

// The FST's unit is 1 ps and a cycle is 1 ns on GTKWave's ruler: 1000 units
// a cycle, the high half 500 after the low.
constexpr uint64_t kUnitsPerCycle = 1000;

// The dump around a mismatch at write cycle c holds cycles [c - around,
// c + around], the last one's high half included.
void expect_dumped_around(const wavetest::Vcd& v, uint64_t c, uint64_t around) {
  EXPECT_EQ(v.times.front(), kUnitsPerCycle * (c - around));
  EXPECT_EQ(v.times.back(), kUnitsPerCycle * (c + around) + kUnitsPerCycle / 2);
}

// VALID and READY both high at FST time t: the beat is handed over then.
void expect_handshake_at(const wavetest::Vcd& v, const std::string& valid, const std::string& ready, uint64_t t) {
  EXPECT_EQ(v.at(valid, t), "1") << valid;
  EXPECT_EQ(v.at(ready, t), "1") << ready;
}

// A .gtkw save file's marker at FST time t; the file's times are ps, as
// the FST's unit is.
std::string gtkw_marker(uint64_t t) {
  const std::string ps = std::to_string(t);
  return " " + ps + " " + ps + " -1";
}

}  // namespace

TEST(WaveBug, Tf2ReportNamesThePixelChannelAndWriteCycle) {
  const std::string d = wavetest::fresh_dir("bug_tf2");
  ASSERT_EQ(cosim_bug("tf2_conv3x3", d, "--trace " + d + "/full.fst --trace-around-mismatch 25"), 1)
      << read_text(d + ".log");
  const auto j = read_json(d + "/report.json");
  EXPECT_EQ(j["status"], "mismatch");
  EXPECT_EQ(j["mismatch"]["count"], 1);  // exactly the injected element
  const auto& fd = j["first_divergence"];
  EXPECT_EQ(fd["check"], "output_c0_15");  // channels 0..15 of the 32
  EXPECT_EQ(fd["index"], nlohmann::json({0, 2, 3, 5}));
  EXPECT_EQ(fd["coords"], "n=0,h=2,w=3,c=5");
  // An LSB flip of the int8 output.
  EXPECT_EQ(static_cast<int>(fd["actual"].get<double>()) & 0xFF,
            (static_cast<int>(fd["expected"].get<double>()) ^ 1) & 0xFF);
  EXPECT_EQ(fd["unit"]["fields"]["layer"], 0);
  EXPECT_EQ(fd["unit"]["fields"]["channel"], 5);
  EXPECT_EQ(fd["unit"]["fields"]["y"], 2);
  EXPECT_EQ(fd["unit"]["fields"]["x"], 3);
  const std::string console = read_text(d + ".log");
  EXPECT_NE(console.find("first diff  output_c0_15[n=0,h=2,w=3,c=5] written at cycle"), std::string::npos);
  EXPECT_NE(console.find("output channel 5, pixel (y 2, x 3)"), std::string::npos);

  const uint64_t c = fd["write_cycle"];
  const uint64_t addr = hex_u64(fd["address"]);
  // The re-run dumped exactly [c - 25, c + 25] ...
  const auto& a = j["wave_around_mismatch"];
  EXPECT_EQ(a["from_cycle"], c - 25);
  EXPECT_EQ(a["to_cycle"], c + 25);
  const auto v = read_fst(d + "/wave_mismatch.fst");
  expect_dumped_around(v, c, 25);
  // ... and at cycle c the AXI W channel hands over the beat holding the
  // element: valid and ready, its byte lane carrying the wrong value.
  const uint64_t t = kUnitsPerCycle * c;
  expect_handshake_at(v, "tf2.m_axi_wvalid_o", "tf2.m_axi_wready_i", t);
  const int lane = static_cast<int>(addr % 16);
  EXPECT_EQ(field(v.at("tf2.m_axi_wdata_o", t), 8 * lane, 8),
            static_cast<uint64_t>(static_cast<int>(fd["actual"].get<double>()) & 0xFF));
  EXPECT_EQ(field(v.at("tf2.m_axi_wstrb_o", t), lane, 1), 1u);
  // Both .gtkw files carry the marker at the write cycle.
  for (const std::string& g : {d + "/wave_mismatch.gtkw", d + "/full.gtkw"}) {
    const std::string text = read_text(g);
    EXPECT_NE(text.find(gtkw_marker(t)), std::string::npos) << g;
    EXPECT_NE(text.find("[markername] Afirst mismatch output_c0_15[n=0,h=2,w=3,c=5]"), std::string::npos) << g;
  }
  EXPECT_EQ(j["wave"]["marker_time"], t);
  // The replay in the child process found the same divergence.
  const auto r = read_json(d + "/around_mismatch/report.json");
  EXPECT_EQ(r["first_divergence"]["write_cycle"], c);
  fs::remove_all(d);
}

TEST(WaveBug, TinyDnnReportNamesSampleChannelPixelAndWriteCycle) {
  const std::string d = wavetest::fresh_dir("bug_td");
  ASSERT_EQ(cosim_bug("tinydnn_fwd", d, "--trace-around-mismatch 10"), 1) << read_text(d + ".log");
  const auto j = read_json(d + "/report.json");
  EXPECT_EQ(j["mismatch"]["count"], 2);  // the element in each of the 2 samples
  const auto& fd = j["first_divergence"];
  EXPECT_EQ(fd["check"], "y");
  // Output position 7 of a 10x10 map (12x12 input, 3x3 kernel): y 0, x 7.
  EXPECT_EQ(fd["index"], nlohmann::json({0, 3, 0, 7}));
  EXPECT_EQ(fd["unit"]["fields"]["sample"], 0);
  EXPECT_EQ(fd["unit"]["fields"]["channel"], 3);
  EXPECT_EQ(fd["unit"]["fields"]["y"], 0);
  EXPECT_EQ(fd["unit"]["fields"]["x"], 7);
  // Bit 16 of the fp32 word (lowest bf16 mantissa bit) differs.
  const float exp_f = static_cast<float>(fd["expected"].get<double>());
  const float act_f = static_cast<float>(fd["actual"].get<double>());
  uint32_t eb = 0, ab = 0;
  std::memcpy(&eb, &exp_f, 4);
  std::memcpy(&ab, &act_f, 4);
  EXPECT_EQ(eb ^ ab, 0x10000u);
  // The write cycle: the output stream beat carrying the element is taken
  // (TVALID && TREADY) at cycle c, the element in its half of TDATA.
  const uint64_t c = fd["write_cycle"];
  const uint64_t addr = hex_u64(fd["address"]);
  const auto v = read_fst(d + "/wave_mismatch.fst");
  expect_dumped_around(v, c, 10);
  const uint64_t t = kUnitsPerCycle * c;
  expect_handshake_at(v, "tinydnn.m_axis_tvalid_o", "tinydnn.m_axis_tready_i", t);
  EXPECT_EQ(field(v.at("tinydnn.m_axis_tdata_o", t), 8 * static_cast<int>(addr % 8), 32), ab);
  const std::string g = read_text(d + "/wave_mismatch.gtkw");
  EXPECT_NE(g.find(gtkw_marker(t)), std::string::npos) << g;
  EXPECT_NE(g.find("sample 0, channel 3, pixel (y 0, x 7)"), std::string::npos);
  fs::remove_all(d);
}

#ifdef COSIM_BUG_VTA
// VTA: the first W beat of a STORE whose ACC range starts at index 344 has
// bit 0 flipped (vta_wave_single_bit). The STOREs that start there are found
// here from the instruction stream itself (trace.txt's DRAM image, INSN_ADDR
// / INSN_COUNT register writes; opcode = bits 2:0, STORE = 1, sram_base =
// bits 25:10, dram_base = bits 57:26 in 16-byte OUT elements, y_size = bits
// 79:64, x_size = bits 95:80, spec/vta-isa.md), independently of the compiler.
TEST(WaveBug, VtaReportNamesTheStoreInstructionAndWriteCycle) {
  const std::string d = wavetest::fresh_dir("bug_vta");
  ASSERT_EQ(cosim_bug("conv2d", d, "--trace-around-mismatch 20"), 1) << read_text(d + ".log");
  // The stream, from the replayable trace.
  std::istringstream tr(read_text(d + "/trace/trace.txt"));
  std::string blob;
  uint64_t insn_addr = 0, insn_count = 0;
  for (std::string l; std::getline(tr, l);) {
    std::istringstream is(l);
    std::string op, a, b;
    is >> op >> a >> b;
    if (op == "mem_load" && std::stoull(a, nullptr, 16) == 0) blob = b;
    if (op == "reg_write" && std::stoull(a, nullptr, 16) == 0x8) insn_count = std::stoull(b, nullptr, 16);
    if (op == "reg_write" && std::stoull(a, nullptr, 16) == 0xc) insn_addr = std::stoull(b, nullptr, 16);
  }
  ASSERT_FALSE(blob.empty());
  const std::string image = read_text(d + "/trace/" + blob);
  ASSERT_GE(image.size(), insn_addr + 16 * insn_count);
  // The STOREs with a non-empty range from ACC index 344, in program order
  // (a STORE starts only after the previous one is done).
  std::vector<std::pair<int64_t, uint64_t>> faulty;  // (instruction, dram_base)
  for (uint64_t i = 0; i < insn_count; ++i) {
    uint64_t w0 = 0, w1 = 0;
    std::memcpy(&w0, image.data() + insn_addr + 16 * i, 8);
    std::memcpy(&w1, image.data() + insn_addr + 16 * i + 8, 8);
    const uint64_t sram_base = (w0 >> 10) & 0xFFFF, y_size = w1 & 0xFFFF, x_size = (w1 >> 16) & 0xFFFF;
    if ((w0 & 7) == 1 && sram_base == 344 && y_size * x_size > 0) {
      faulty.emplace_back(static_cast<int64_t>(i), (w0 >> 26) & 0xFFFFFFFFu);
    }
  }
  ASSERT_FALSE(faulty.empty());
  const auto [store, dram_base] = faulty.front();
  const auto j = read_json(d + "/report.json");
  EXPECT_EQ(j["mismatch"]["count"], faulty.size());
  const auto& fd = j["first_divergence"];
  EXPECT_EQ(fd["check"], "output");
  EXPECT_EQ(fd["unit"]["fields"]["instruction"], store);
  const std::string text = fd["unit"]["text"];
  EXPECT_EQ(text.rfind("instruction " + std::to_string(store) + ": STORE", 0), 0u) << text;
  EXPECT_EQ(hex_u64(fd["address"]), 16 * dram_base);  // byte 0 of the STORE's first beat
  EXPECT_EQ(static_cast<int>(fd["actual"].get<double>()) & 0xFF, (static_cast<int>(fd["expected"].get<double>()) ^ 1) & 0xFF);
  EXPECT_NE(read_text(d + ".log").find("by instruction " + std::to_string(store) + ": STORE"),
            std::string::npos);
  // At the write cycle the W channel hands over that beat.
  const uint64_t c = fd["write_cycle"];
  const auto v = read_fst(d + "/wave_mismatch.fst");
  expect_dumped_around(v, c, 20);
  const uint64_t t = kUnitsPerCycle * c;
  expect_handshake_at(v, "vta.m_axi_wvalid_o", "vta.m_axi_wready_i", t);
  EXPECT_EQ(field(v.at("vta.m_axi_wdata_o", t), 0, 8),
            static_cast<uint64_t>(static_cast<int>(fd["actual"].get<double>()) & 0xFF));
  // The VTA view: engines, token queues, AXI, GEMM / ALU activity.
  for (const char* s : {"vta.vta_top.c_op", "vta.vta_top.s_state", "vta.vta_top.u_compute.state_q",
                        "vta.vta_top.l2c_count", "vta.vta_top.s2c_pop", "vta.vta_top.c_gemm_busy",
                        "vta.vta_top.c_alu_busy", "vta.vta_top.cq_insn", "vta.m_axi_awaddr_o"}) {
    EXPECT_TRUE(v.has(s)) << s;
  }
  const std::string g = read_text(d + "/wave_mismatch.gtkw");
  EXPECT_NE(g.find(gtkw_marker(t)), std::string::npos) << g;
  EXPECT_NE(g.find("vta.vta_top.c_op[2:0]"), std::string::npos);
  EXPECT_EQ(read_text(d + "/wave_mismatch.vta_opcode.txt"), "0 LOAD\n1 STORE\n2 GEMM\n3 FINISH\n4 ALU\n");
  fs::remove_all(d);
}

// Issue 32 item 2: a replay is a run. Replaying the failing run's trace
// finds the same divergence and names the same STORE (decoded from the
// trace alone), reports the run's MACs and utilization, writes its own
// trace directory (which replays to the same result), and
// --trace-around-mismatch works on it, its marker on the write cycle.
TEST(WaveBug, AReplayOfAFailingRunIsAsRichAsTheRun) {
  const std::string d = wavetest::fresh_dir("bug_vta_replay");
  ASSERT_EQ(cosim_bug("conv2d", d + "/run", ""), 1) << read_text(d + "/run.log");
  const auto run = read_json(d + "/run/report.json");
  ASSERT_EQ(wavetest::run(std::string(COSIM_BUG_BIN) + " replay " + d + "/run/trace --out " + d +
                              "/replay --trace-around-mismatch 20",
                          d + "/replay.log"),
            1)
      << read_text(d + "/replay.log");
  const auto rep = read_json(d + "/replay/report.json");
  EXPECT_EQ(rep["first_divergence"]["write_cycle"], run["first_divergence"]["write_cycle"]);
  EXPECT_EQ(rep["first_divergence"]["address"], run["first_divergence"]["address"]);
  EXPECT_EQ(rep["first_divergence"]["unit"]["fields"]["instruction"], run["first_divergence"]["unit"]["fields"]["instruction"]);
  const std::string text = rep["first_divergence"]["unit"]["text"];
  EXPECT_EQ(text.rfind("instruction ", 0), 0u) << text;
  EXPECT_EQ(rep["macs"], run["macs"]);
  EXPECT_GT(rep["macs"].get<uint64_t>(), 0u);
  EXPECT_EQ(rep["utilization"], run["utilization"]);
  // Its own trace directory, and the waveform around the divergence.
  ASSERT_TRUE(fs::exists(d + "/replay/trace/trace.txt"));
  const uint64_t c = rep["first_divergence"]["write_cycle"];
  const auto v = read_fst(d + "/replay/wave_mismatch.fst");
  EXPECT_EQ(v.times.front(), kUnitsPerCycle * (c - 20));
  const std::string g = read_text(d + "/replay/wave_mismatch.gtkw");
  EXPECT_NE(g.find(gtkw_marker(kUnitsPerCycle * c)), std::string::npos) << g;
  ASSERT_EQ(wavetest::run(std::string(COSIM_BUG_BIN) + " replay " + d + "/replay/trace --out " + d + "/again",
                          d + "/again.log"),
            1);
  EXPECT_EQ(read_json(d + "/again/report.json")["first_divergence"], rep["first_divergence"]);
  fs::remove_all(d);
}

// Issue 32 item 2: every command a report prints works, for a run and for a
// replay of it. GTKWave is a stand-in on PATH that records what it was asked
// to open and fails unless both files exist; the page's command (replay
// around the divergence, then GTKWave) and the console's gtkwave line are
// run as a person would paste them.
TEST(WaveBug, EveryCommandAReportPrintsWorks) {
  const std::string d = wavetest::fresh_dir("bug_vta_commands");
  const std::string bin = d + "/bin";
  fs::create_directories(bin);
  {
    std::ofstream stub(bin + "/gtkwave");
    stub << "#!/bin/sh\n# gtkwave -a VIEW DUMP\n[ \"$1\" = -a ] && [ -s \"$2\" ] && [ -s \"$3\" ] || exit 9\n"
         << "echo \"$2\" >> " << d << "/opened\n";
  }
  fs::permissions(bin + "/gtkwave", fs::perms::owner_all);
  ASSERT_EQ(cosim_bug("conv2d", d + "/run", ""), 1);
  ASSERT_EQ(wavetest::run(std::string(COSIM_BUG_BIN) + " replay " + d + "/run/trace --out " + d + "/replay --trace-around-mismatch 20",
                          d + "/replay.log"),
            1);
  int opened = 0;
  for (const std::string& out : {d + "/run", d + "/replay"}) {
    // The page's command, unescaped as a browser shows it.
    std::string page = read_text(out + "/report.html");
    const std::string tag = "<pre class=\"command\" id=\"gtkwave-command\">";
    const auto at = page.find(tag);
    ASSERT_NE(at, std::string::npos) << out;
    std::string cmd = page.substr(at + tag.size(), page.find("</pre>", at) - at - tag.size());
    for (const auto& [esc, ch] : std::vector<std::pair<std::string, std::string>>{
             {"&amp;", "&"}, {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&#39;", "'"}}) {
      for (auto p = cmd.find(esc); p != std::string::npos; p = cmd.find(esc, p + 1)) cmd.replace(p, esc.size(), ch);
    }
    const int rc = wavetest::run("PATH=" + bin + ":$PATH bash -c '" + cmd + "'", out + ".command.log");
    EXPECT_EQ(rc, 0) << out << ": " << cmd << "\n" << read_text(out + ".command.log");
    ++opened;
  }
  // The replay's console named its waveform around the mismatch.
  const std::string log = read_text(d + "/replay.log");
  const auto g = log.find("gtkwave -a ");
  ASSERT_NE(g, std::string::npos) << log;
  const std::string line = log.substr(g, log.find('\n', g) - g);
  EXPECT_EQ(wavetest::run("PATH=" + bin + ":$PATH " + line, d + "/console.command.log"), 0) << line;
  ++opened;
  std::istringstream seen(read_text(d + "/opened"));
  int n = 0;
  for (std::string l; std::getline(seen, l);) ++n;
  EXPECT_EQ(n, opened);
  fs::remove_all(d);
}
#endif

TEST(WaveBug, ProductBuildHasNoInjectedBug) {
  // The same scenarios pass on the product cosim (no mutant applied).
  const std::string d = wavetest::fresh_dir("bug_product");
  const std::string cosim = fs::path(COSIM_BUG_BIN).parent_path().parent_path().parent_path() / "tb/cosim/cosim";
  for (const char* s : {"tf2_conv3x3", "tinydnn_fwd", "conv2d"}) {
    EXPECT_EQ(run(cosim + " run " + scenario(s) + " --out " + d + "/" + s), 0) << s;
    EXPECT_TRUE(read_json(d + "/" + s + "/report.json")["first_divergence"].is_null());
  }
  fs::remove_all(d);
}
