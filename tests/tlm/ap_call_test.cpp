// The operator `call` (cosim/ap_call_op.hpp) on vitisdut, the build's
// instance of the Vitis template (C = A + B over int32): a call described by
// its scenario alone. The inputs and the expected C are written here as .npy
// files, C computed here (wrapping int32 sums), as a user's reference would.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>

#include "cosim/ap_call_op.hpp"
#include "cosim/divergence.hpp"
#include "cosim/scoring.hpp"
#include "scenario/scenario.hpp"
#include "support/cosim_cli.hpp"
#include "tensor/tensor.hpp"
#include "trace/trace.hpp"

namespace {

using cosim::DType;
using cosim::Tensor;

// A register of a generated table (dut/<name>_regs.hpp kRegisters), as the op reads one.
struct Reg {
  const char* name;
  uint32_t offset;
  const char* access;
};

class ApCall : public cosim::test::CosimCli {
 public:
  static constexpr int kN = 1024;

  // a.npy, b.npy and c.npy (= a + b, or with element `wrong` off by one).
  static void write_vectors(int wrong = -1) {
    Tensor a(DType::kInt32, {kN}), b(DType::kInt32, {kN}), c(DType::kInt32, {kN});
    std::mt19937 rng(7);
    for (int i = 0; i < kN; ++i) {
      const auto x = static_cast<uint32_t>(rng()), y = static_cast<uint32_t>(rng());
      a.data<int32_t>()[i] = static_cast<int32_t>(x);
      b.data<int32_t>()[i] = static_cast<int32_t>(y);
      c.data<int32_t>()[i] = static_cast<int32_t>(x + y + (i == wrong ? 1u : 0u));
    }
    save(a, b, c);
  }

  // The same as uint32 ('<u4' files, sums modulo 2^32), element 9 of A and B
  // chosen so that C's is above 2^31 (off by one when `wrong`).
  static void write_unsigned_vectors(bool wrong) {
    Tensor a(DType::kUint32, {kN}), b(DType::kUint32, {kN}), c(DType::kUint32, {kN});
    std::mt19937 rng(11);
    for (int i = 0; i < kN; ++i) {
      const uint32_t x = i == 9 ? 0xfffffff0u : static_cast<uint32_t>(rng());
      const uint32_t y = i == 9 ? 5u : static_cast<uint32_t>(rng());
      a.data<uint32_t>()[i] = x;
      b.data<uint32_t>()[i] = y;
      c.data<uint32_t>()[i] = x + y + (wrong && i == 9 ? 1u : 0u);
    }
    save(a, b, c);
  }

  static void save(const Tensor& a, const Tensor& b, const Tensor& c) {
    cosim::write_npy(work() + "/a.npy", a);
    cosim::write_npy(work() + "/b.npy", b);
    cosim::write_npy(work() + "/c.npy", c);
  }

  // The scenario: `args` and `wait` as given, the three buffers.
  static std::string scenario(const std::string& name, const std::string& args, const std::string& wait = "poll",
                              const std::string& dtype = "int32") {
    return write_file(name + ".yaml",
                      "target: vitisdut\n"
                      "op: call\n"
                      "args: " + args + "\n"
                      "buffers:\n"
                      "  - {name: a, at: 0x1000, dtype: " + dtype + ", shape: [1024], data: {npy: a.npy}}\n"
                      "  - {name: b, at: 0x80000, dtype: " + dtype + ", shape: [1024], data: {npy: b.npy}}\n"
                      "  - {name: c, at: 0x100000, dtype: " + dtype + ", shape: [1024], expect: {npy: c.npy}}\n"
                      "wait: " + wait + "\n");
  }
  static constexpr const char* kArgs = "{A_LO: a, A_HI: a.hi, B_LO: b, B_HI: b.hi, C_LO: c, C_HI: c.hi, LENGTH: 4096}";

  // The steps the op compiles the scenario `yaml` (target k) to: each op with its address, a register
  // write's or check's value folded in (addr * 0x100 + value).
  using S = std::vector<std::pair<cosim::trace::Op, uint64_t>>;
  // The trace the op compiles the scenario (target k) to.
  static cosim::trace::Trace trace_of(const std::unique_ptr<cosim::tb::Operator>& op, const std::string& yaml,
                                      const std::vector<std::string>& overrides) {
    const std::vector<cosim::scenario::TargetSchema> targets = {
        {"k", {"call"}, [&](const std::string&) { return op->schema(); }}};
    const cosim::scenario::Scenario sc = cosim::scenario::load_scenario(yaml, targets, overrides);
    const cosim::tb::Workload w = op->prepare(sc);
    return op->compile(sc, w);
  }

  // The one-line error compiling the scenario gives, or "no error".
  static std::string error_of(const std::unique_ptr<cosim::tb::Operator>& op, const std::string& yaml,
                              const std::vector<std::string>& overrides) {
    try {
      trace_of(op, yaml, overrides);
    } catch (const cosim::InputError& e) {
      return e.what();
    }
    return "no error";
  }

  static S steps_of(const std::unique_ptr<cosim::tb::Operator>& op, const std::string& yaml,
                    const std::vector<std::string>& overrides) {
    namespace trace = cosim::trace;
    S steps;
    for (const trace::Step& st : trace_of(op, yaml, overrides).steps) {
      uint64_t folded = st.addr;
      if (st.op == trace::Op::kRegWrite) folded = st.addr * 0x100 + st.value;
      if (st.op == trace::Op::kRegCheck) folded = st.addr * 0x100 + st.expected;
      steps.emplace_back(st.op, folded);
    }
    return steps;
  }
};

TEST_F(ApCall, AKernelCalledFromItsScenarioAloneIsBitExact) {
  write_vectors();
  for (const char* wait : {"poll", "irq"}) {
    SCOPED_TRACE(wait);
    const std::string out = work() + "/call_" + wait;
    const auto r = cosim("run " + scenario(std::string("call_") + wait, kArgs, wait) + " --out " + out);
    ASSERT_EQ(r.code, 0) << r.out;
    const auto rep = report(out);
    EXPECT_EQ(rep["status"], "pass");
    EXPECT_TRUE(rep["bit_exact"].get<bool>());
    EXPECT_EQ(rep["perf_counters"]["gmem0.write_beats"], kN * 4 / 16);
  }
}

TEST_F(ApCall, AWrongExpectedElementFailsNamingIt) {
  write_vectors(517);
  const std::string out = work() + "/wrong";
  const auto r = cosim("run " + scenario("wrong", kArgs) + " --out " + out);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("c[i0=517]"), std::string::npos) << r.out;
  write_vectors();
}

TEST_F(ApCall, AnArgumentLeftOutFailsTheCheck) {
  write_vectors();
  // No LENGTH: the kernel adds nothing and finishes; C keeps zeros, the check fails.
  const std::string out = work() + "/nolength";
  const auto r = cosim("run " + scenario("nolength", "{A_LO: a, B_LO: b, C_LO: c}") + " --out " + out);
  EXPECT_EQ(r.code, 1) << r.out;
}

// Unsigned element types: the same bits as the signed view, read from '<u4'
// files, and a mismatch shows the unsigned value.
TEST_F(ApCall, UnsignedBuffersAreCheckedAsSuch) {
  write_unsigned_vectors(false);
  const auto r = cosim("run " + scenario("u32", kArgs, "poll", "uint32") + " --out " + work() + "/u32");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(report(work() + "/u32")["bit_exact"].get<bool>());
  write_unsigned_vectors(true);
  const auto w = cosim("run " + scenario("u32_wrong", kArgs, "poll", "uint32") + " --out " + work() + "/u32_wrong");
  EXPECT_EQ(w.code, 1) << w.out;
  EXPECT_NE(w.out.find("c[i0=9]"), std::string::npos) << w.out;
  EXPECT_NE(w.out.find("4294967286"), std::string::npos) << w.out;  // 0xfffffff6 expected
  // A signed file where uint32 is declared is one line.
  write_vectors();
  const auto bad = cosim("run " + scenario("u32_signed", kArgs, "poll", "uint32") + " --out " + work() + "/u32_signed");
  EXPECT_EQ(bad.code, 2) << bad.out;
  EXPECT_NE(bad.out.find("a.npy holds int32, expected uint32"), std::string::npos) << bad.out;
}

TEST_F(ApCall, BadArgumentsAreOneLineErrors) {
  write_vectors();
  const auto bad = [&](const std::string& name, const std::string& args, const std::string& what) {
    const auto r = cosim("run " + scenario(name, args) + " --out " + work() + "/" + name);
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_NE(r.out.find(what), std::string::npos) << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  };
  bad("unknown_reg", "{A_LO: a, SIZE: 4}", "SIZE");
  bad("unknown_buffer", "{A_LO: d}", "expected a number or a buffer's name (a, b, c), optionally with .hi, got 'd'");
  bad("ctrl", "{CTRL: 1}", "CTRL");
}

// The trace a call compiles to, by control protocol: the arguments, then
// ap_start and the poll for ap_done; ap_ctrl_chain releases the output with
// ap_continue after it; a kernel without the control map gets neither.
TEST_F(ApCall, TheControlProtocolShapesTheCall) {
  using cosim::tb::harness::ControlProtocol;
  namespace trace = cosim::trace;
  write_vectors();
  const std::array<Reg, 4> regs = {{{"CTRL", 0x00, "rw"}, {"ISR", 0x0c, "w1t"}, {"N", 0x10, "rw"}, {"DONE_CNT", 0x18, "ro"}}};
  const std::string yaml = write_file("proto.yaml",
                                      "target: k\nop: call\nargs: {N: 7}\n"
                                      "buffers: [{name: a, at: 0x1000, dtype: int32, shape: [1024], data: {npy: a.npy}}]\n");
  std::array<Reg, 4> isr_rc = regs;
  isr_rc[1].access = "rc";  // ISR clears on read (Vitis HLS 2022.1) instead of toggling on write
  const auto ops_of = [&](ControlProtocol control, const std::vector<std::string>& overrides, bool rc = false) {
    return steps_of(rc ? cosim::tb::make_ap_call_op(isr_rc, control) : cosim::tb::make_ap_call_op(regs, control), yaml,
                    overrides);
  };
  const S hs = {{trace::Op::kMemLoad, 0x1000}, {trace::Op::kRegWrite, 0x10 * 0x100 + 7},
                {trace::Op::kRegWrite, 0x00 * 0x100 + 1}, {trace::Op::kRegPoll, 0x00}};
  EXPECT_EQ(ops_of(ControlProtocol::kApCtrlHs, {}), hs);
  S chain = hs;
  chain.emplace_back(trace::Op::kRegWrite, 0x00 * 0x100 + 0x10);  // ap_continue
  EXPECT_EQ(ops_of(ControlProtocol::kApCtrlChain, {}), chain);
  const S none = {{trace::Op::kMemLoad, 0x1000}, {trace::Op::kRegWrite, 0x10 * 0x100 + 7}};
  EXPECT_EQ(ops_of(ControlProtocol::kNone, {}), none);
  EXPECT_THROW(ops_of(ControlProtocol::kNone, {"wait=poll"}), cosim::InputError);
  // By interrupt: GIE and IER, ap_start, the interrupt, then ISR cleared (a write of its bit, or a read).
  const S irq_head = {{trace::Op::kMemLoad, 0x1000}, {trace::Op::kRegWrite, 0x10 * 0x100 + 7},
                      {trace::Op::kRegWrite, 0x04 * 0x100 + 1}, {trace::Op::kRegWrite, 0x08 * 0x100 + 1},
                      {trace::Op::kRegWrite, 0x00 * 0x100 + 1}, {trace::Op::kWaitIrq, 0}};
  S tow = irq_head, cor = irq_head;
  tow.insert(tow.end(), {{trace::Op::kRegWrite, 0x0c * 0x100 + 1}, {trace::Op::kRegPoll, 0x00}});
  cor.insert(cor.end(), {{trace::Op::kRegPoll, 0x0c}, {trace::Op::kRegPoll, 0x00}});
  EXPECT_EQ(ops_of(ControlProtocol::kApCtrlHs, {"wait=irq"}), tow);
  EXPECT_EQ(ops_of(ControlProtocol::kApCtrlHs, {"wait=irq"}, true), cor);
  // calls: 3: the arguments once, then ap_start and the wait (and ap_continue) three times.
  S three = {{trace::Op::kMemLoad, 0x1000}, {trace::Op::kRegWrite, 0x10 * 0x100 + 7}};
  for (int i = 0; i < 3; ++i) three.insert(three.end(), {chain[2], chain[3], chain[4]});
  EXPECT_EQ(ops_of(ControlProtocol::kApCtrlChain, {"calls=3"}), three);
  EXPECT_THROW(ops_of(ControlProtocol::kNone, {"calls=2"}), cosim::InputError);
  EXPECT_THROW(ops_of(ControlProtocol::kApCtrlHs, {"calls=0"}), cosim::InputError);
  // DONE_CNT is read-only: not an argument, but a result, read after the wait.
  EXPECT_THROW(ops_of(ControlProtocol::kApCtrlHs, {"args.DONE_CNT=1"}), cosim::InputError);
  S checked = hs;
  checked.emplace_back(trace::Op::kRegCheck, 0x18 * 0x100 + 5);
  EXPECT_EQ(ops_of(ControlProtocol::kApCtrlHs, {"results.DONE_CNT=5"}), checked);
  EXPECT_THROW(ops_of(ControlProtocol::kApCtrlHs, {"results.NOPE=5"}), cosim::InputError);
  EXPECT_THROW(ops_of(ControlProtocol::kNone, {"results.N=5"}), cosim::InputError);
}

// From the binding's ports: a buffer named like an sram interface and without `at` lies at its
// base, and a kernel without an interrupt pin is refused wait: irq.
TEST_F(ApCall, SramBuffersLieAtTheirBaseAndIrqNeedsAPin) {
  namespace trace = cosim::trace;
  write_vectors();
  const cosim::tb::CallPorts ports{cosim::tb::harness::ControlProtocol::kApCtrlHs, false, {{"a", 0x2000}, {"c", 0x9000}}, {}};
  const auto op = cosim::tb::make_ap_call_op(std::array<Reg, 0>{}, ports);
  const auto yaml = [&](const std::string& name, const std::string& buffer) {
    return write_file(name + ".yaml", "target: k\nop: call\nbuffers: [" + buffer + "]\n");
  };
  const S at_base = {{trace::Op::kMemLoad, 0x2000}, {trace::Op::kRegWrite, 0x00 * 0x100 + 1}, {trace::Op::kRegPoll, 0x00}};
  EXPECT_EQ(steps_of(op, yaml("sram_a", "{name: a, dtype: int32, shape: [1024], data: {npy: a.npy}}"), {}), at_base);
  S elsewhere = at_base;  // a kernel that addresses the DRAM itself finds it where `at` puts it
  elsewhere[0].second = 0x1000;
  EXPECT_EQ(steps_of(op, yaml("sram_at", "{name: a, at: 0x1000, dtype: int32, shape: [1024], data: {npy: a.npy}}"), {}),
            elsewhere);
  const auto error = [&](const std::string& path, const std::vector<std::string>& overrides) {
    return error_of(op, path, overrides);
  };
  EXPECT_NE(error(yaml("no_at", "{name: b, dtype: int32, shape: [1024], data: {npy: b.npy}}"), {})
                .find("a buffer needs `at`, its DRAM address, or the name of an sram interface (a, c)"),
            std::string::npos);
  EXPECT_NE(error(yaml("irq", "{name: a, dtype: int32, shape: [1024], data: {npy: a.npy}}"), {"wait=irq"})
                .find("the kernel has no interrupt pin"),
            std::string::npos);
}

// Streams numbered alike from 0 (an hls4ml array that Vivado HLS 2020 split into a stream an
// element) under one name with a '*': the file's last dimension is their count, stream k sends or
// is checked against element k of every row.
TEST_F(ApCall, StreamsNumberedAlikeTakeAFilesColumns) {
  namespace trace = cosim::trace;
  const cosim::tb::CallPorts ports{cosim::tb::harness::ControlProtocol::kApCtrlHs, false, {},
                                   {"in_v_data_0_v", "in_v_data_1_v", "in_v_data_2_v", "out_v_data_1_v",
                                    "out_v_data_0_v", "gap_0", "gap_2"}};
  const auto op = cosim::tb::make_ap_call_op(std::array<Reg, 0>{}, ports);
  Tensor x(DType::kInt16, {4, 3}), y(DType::kInt16, {4, 2});
  for (int r = 0; r < 4; ++r) {
    for (int k = 0; k < 3; ++k) x.data<int16_t>()[r * 3 + k] = static_cast<int16_t>(-100 * r - k);
    for (int k = 0; k < 2; ++k) y.data<int16_t>()[r * 2 + k] = static_cast<int16_t>(1000 + 10 * r + k);
  }
  cosim::write_npy(work() + "/sx.npy", x);
  cosim::write_npy(work() + "/sy.npy", y);
  const std::string yaml = write_file("split.yaml",
                                      "target: k\nop: call\ncalls: 4\nstreams:\n"
                                      "  - {name: in_v_data_*_v, dtype: int16, shape: [4, 3], data: {npy: sx.npy}}\n"
                                      "  - {name: out_v_data_*_v, dtype: int16, shape: [4, 2], expect: {npy: sy.npy}}\n");
  std::vector<std::pair<std::string, std::vector<int16_t>>> sent, checked;
  for (const trace::Step& st : trace_of(op, yaml, {}).steps) {
    if (st.op == trace::Op::kStreamSend) {
      std::vector<int16_t> v(st.data.size() / 2);
      std::memcpy(v.data(), st.data.data(), st.data.size());
      sent.emplace_back(st.stream, v);
    }
    if (st.op == trace::Op::kStreamCheck) {
      const Tensor t = trace::Trace::expected_tensor(st);
      checked.emplace_back(st.stream, std::vector<int16_t>(t.data<int16_t>(), t.data<int16_t>() + t.numel()));
    }
  }
  const std::vector<std::pair<std::string, std::vector<int16_t>>> want_sent = {
      {"in_v_data_0_v", {0, -100, -200, -300}}, {"in_v_data_1_v", {-1, -101, -201, -301}},
      {"in_v_data_2_v", {-2, -102, -202, -302}}};
  const std::vector<std::pair<std::string, std::vector<int16_t>>> want_checked = {
      {"out_v_data_0_v", {1000, 1010, 1020, 1030}}, {"out_v_data_1_v", {1001, 1011, 1021, 1031}}};
  EXPECT_EQ(sent, want_sent);
  EXPECT_EQ(checked, want_checked);
  const auto error = [&](const std::vector<std::string>& overrides) { return error_of(op, yaml, overrides); };
  cosim::write_npy(work() + "/sx4.npy", Tensor(DType::kInt16, {3, 4}));
  const std::vector<std::string> four = {"streams.0.shape=[3, 4]", "streams.0.data.npy=sx4.npy"};
  EXPECT_NE(error(four).find("its last dimension, 4, is the number of streams in_v_data_*_v names: 3 (in_v_data_0_v "
                             "to in_v_data_2_v)"),
            std::string::npos)
      << error(four);
  EXPECT_NE(error({"streams.0.name=gap_*"}).find("names no streams numbered from 0 (the kernel's streams: in_v_data_0_v"),
            std::string::npos)
      << error({"streams.0.name=gap_*"});
  EXPECT_NE(error({"streams.0.name=nope_*"}).find("names no streams numbered from 0"), std::string::npos);
}

// packets: true sends a stream a packet a row of its file (TLAST on each's last beat): one
// stream_send a row, its bytes; on a checked stream, its check wants TLAST after each row's bytes.
TEST_F(ApCall, PacketsSendAStreamARowEach) {
  namespace trace = cosim::trace;
  const cosim::tb::CallPorts ports{cosim::tb::harness::ControlProtocol::kNone, false, {}, {"in", "out"}};
  const auto op = cosim::tb::make_ap_call_op(std::array<Reg, 0>{}, ports);
  Tensor m(DType::kUint8, {3, 5});
  for (int i = 0; i < 15; ++i) m.data<uint8_t>()[i] = static_cast<uint8_t>(10 + i);
  cosim::write_npy(work() + "/pk.npy", m);
  const std::string yaml = write_file("packets.yaml",
                                      "target: k\nop: call\nwait: none\nstreams:\n"
                                      "  - {name: in, dtype: uint8, shape: [3, 5], data: {npy: pk.npy}, packets: true}\n"
                                      "  - {name: out, dtype: uint8, shape: [3, 5], expect: {npy: pk.npy}}\n");
  std::vector<std::vector<uint8_t>> sent;
  for (const trace::Step& st : trace_of(op, yaml, {}).steps) {
    if (st.op == trace::Op::kStreamSend) sent.push_back(st.data);
  }
  EXPECT_EQ(sent, (std::vector<std::vector<uint8_t>>{{10, 11, 12, 13, 14}, {15, 16, 17, 18, 19}, {20, 21, 22, 23, 24}}));
  sent.clear();
  for (const trace::Step& st : trace_of(op, yaml, {"streams.0.packets=false"}).steps) {
    if (st.op == trace::Op::kStreamSend) sent.push_back(st.data);
  }
  ASSERT_EQ(sent.size(), 1u);  // one packet of all 15 bytes
  EXPECT_EQ(sent[0].size(), 15u);
  const auto packet_bytes = [&](const std::vector<std::string>& overrides) {
    for (const trace::Step& st : trace_of(op, yaml, overrides).steps) {
      if (st.op == trace::Op::kStreamCheck) return st.value;
    }
    return uint64_t{~0ull};
  };
  EXPECT_EQ(packet_bytes({}), 0u);  // the bytes compared whole, TLAST not looked at
  EXPECT_EQ(packet_bytes({"streams.1.packets=true"}), 5u);
}

// overlap: true: each ap_start once CTRL reads it back low (taken), its per-call arguments first,
// no wait for ap_done; after the last, a poll for ap_idle, then the checks. A register read a call
// is refused (there is no wait for a call's ap_done).
TEST_F(ApCall, OverlappingCallsStartOnceTheLastIsTaken) {
  namespace trace = cosim::trace;
  using cosim::tb::harness::ControlProtocol;
  write_vectors();
  const std::array<Reg, 3> regs = {{{"CTRL", 0x00, "rw"}, {"N", 0x10, "rw"}, {"DONE_CNT", 0x18, "ro"}}};
  Tensor n(DType::kUint32, {3});
  for (uint32_t i = 0; i < 3; ++i) n.data<uint32_t>()[i] = 5 + i;
  cosim::write_npy(work() + "/n.npy", n);
  const std::string yaml = write_file("overlap.yaml",
                                      "target: k\nop: call\ncalls: 3\noverlap: true\n"
                                      "args: {N: {npy: n.npy, per_call: true}}\n"
                                      "streams: [{name: in, dtype: int32, shape: [1024], data: {npy: a.npy}},\n"
                                      "          {name: out, dtype: int32, shape: [1024], expect: {npy: c.npy}}]\n");
  const auto op_for = [&](ControlProtocol control) {
    return cosim::tb::make_ap_call_op(regs, cosim::tb::CallPorts{control, true, {}, {"in", "out"}});
  };
  const auto hs = op_for(ControlProtocol::kApCtrlHs);
  S want = {{trace::Op::kStreamSend, 0}};
  for (uint32_t i = 0; i < 3; ++i) {
    want.insert(want.end(), {{trace::Op::kRegWrite, 0x10 * 0x100 + 5 + i}, {trace::Op::kRegWrite, 0x00 * 0x100 + 1},
                             {trace::Op::kRegPoll, 0x00}});
  }
  want.insert(want.end(), {{trace::Op::kRegPoll, 0x00}, {trace::Op::kStreamCheck, 0}});
  EXPECT_EQ(steps_of(hs, yaml, {}), want);
  // Each call's poll waits for ap_start (bit 0) to read 0; the last poll for ap_idle (bit 2) to read 1.
  const trace::Trace t = trace_of(hs, yaml, {});
  std::vector<std::pair<uint32_t, uint32_t>> polls;  // (mask, expected)
  for (const trace::Step& st : t.steps) {
    if (st.op == trace::Op::kRegPoll) polls.emplace_back(st.mask, st.expected);
  }
  EXPECT_EQ(polls, (std::vector<std::pair<uint32_t, uint32_t>>{{1, 0}, {1, 0}, {1, 0}, {4, 4}}));
  // A returned value is read after the poll for ap_idle.
  S with_result = want;
  with_result.insert(with_result.end() - 1, {trace::Op::kRegCheck, 0x18 * 0x100 + 3});
  EXPECT_EQ(steps_of(hs, yaml, {"results.DONE_CNT=3"}), with_result);
  const auto refused = [&](const std::unique_ptr<cosim::tb::Operator>& op, const std::vector<std::string>& overrides,
                           const std::string& what) {
    const std::string e = error_of(op, yaml, overrides);
    EXPECT_NE(e.find(what), std::string::npos) << e;
  };
  refused(op_for(ControlProtocol::kApCtrlChain), {}, "this kernel's control is ap_ctrl_chain");
  refused(op_for(ControlProtocol::kNone), {"wait=none", "calls=1", "args={N: 5}"}, "this kernel's control is none");
  refused(hs, {"wait=irq"}, "and for ap_idle at the end: wait: poll");
  refused(hs, {"results.DONE_CNT={npy: n.npy, per_call: true}"}, "per_call results are read after each call's ap_done");
}

// A port wider than 32 bits (KEY_0..KEY_2, OUT_LO / OUT_HI) given whole from a .npy file: its
// bytes in order, little-endian words, the last zero-padded; the same for results.
TEST_F(ApCall, AWidePortTakesItsWordsFromANpyFile) {
  namespace trace = cosim::trace;
  const std::array<Reg, 6> regs = {{{"CTRL", 0x00, "rw"}, {"KEY_0", 0x10, "rw"}, {"KEY_1", 0x14, "rw"},
                                    {"KEY_2", 0x18, "rw"}, {"OUT_LO", 0x20, "ro"}, {"OUT_HI", 0x24, "ro"}}};
  Tensor key(DType::kUint8, {10}), out(DType::kInt32, {2});
  for (int i = 0; i < 10; ++i) key.data<uint8_t>()[i] = static_cast<uint8_t>(0x11 * (i + 1));
  out.data<int32_t>()[0] = -2;
  out.data<int32_t>()[1] = 7;
  cosim::write_npy(work() + "/key.npy", key);
  cosim::write_npy(work() + "/out.npy", out);
  const std::string yaml = write_file("wide.yaml", "target: k\nop: call\nargs: {KEY: {npy: key.npy}}\n"
                                                   "results: {OUT: {npy: out.npy}}\n"
                                                   "buffers: [{name: a, at: 0x1000, dtype: int32, shape: [1024], data: random}]\n");
  const auto op = cosim::tb::make_ap_call_op(regs, cosim::tb::harness::ControlProtocol::kApCtrlHs);
  const S want = {{trace::Op::kMemLoad, 0x1000},
                  {trace::Op::kRegWrite, 0x10 * 0x100ull + 0x44332211u},
                  {trace::Op::kRegWrite, 0x14 * 0x100ull + 0x88776655u},
                  {trace::Op::kRegWrite, 0x18 * 0x100ull + 0x0000aa99u},
                  {trace::Op::kRegWrite, 0x00 * 0x100 + 1},
                  {trace::Op::kRegPoll, 0x00},
                  {trace::Op::kRegCheck, 0x20 * 0x100ull + 0xfffffffeu},
                  {trace::Op::kRegCheck, 0x24 * 0x100ull + 7}};
  EXPECT_EQ(steps_of(op, yaml, {}), want);
  // One word of the port given alone by a file counts too (not silently left out).
  cosim::write_npy(work() + "/lo.npy", Tensor(DType::kInt32, {1}));
  const std::string lo = write_file("wide_lo.yaml", "target: k\nop: call\nresults: {OUT_LO: {npy: lo.npy}}\n");
  const S want_lo = {{trace::Op::kRegWrite, 0x00 * 0x100 + 1}, {trace::Op::kRegPoll, 0x00}, {trace::Op::kRegCheck, 0x20 * 0x100ull}};
  EXPECT_EQ(steps_of(op, lo, {}), want_lo);
  // A word given twice (the whole port and one of its registers) is one line.
  const std::string twice = write_file("wide_twice.yaml", "target: k\nop: call\nargs: {KEY: {npy: key.npy}, KEY_1: 3}\n"
                                                          "buffers: [{name: a, at: 0x1000, dtype: int32, shape: [1024], data: random}]\n");
  EXPECT_THROW(steps_of(op, twice, {}), cosim::InputError);
  // More bytes than the port's registers hold is one line.
  cosim::write_npy(work() + "/key.npy", Tensor(DType::kUint8, {13}));
  EXPECT_THROW(steps_of(op, yaml, {}), cosim::InputError);
}

// per_call: a file with a row a call gives call i its arguments and its checks (a batch of samples
// through a kernel of register arguments, with no buffer); ports numbered alike (OUT_0_V, OUT_1_V)
// are one name, OUT_*_V, sharing a row's elements out in order.
TEST_F(ApCall, PerCallRowsGiveEachCallItsArgumentsAndChecks) {
  namespace trace = cosim::trace;
  const std::array<Reg, 7> regs = {{{"CTRL", 0x00, "rw"},
                                    {"X", 0x10, "rw"},
                                    {"OUT_0_V_LO", 0x14, "ro"},
                                    {"OUT_0_V_HI", 0x18, "ro"},
                                    {"OUT_1_V_LO", 0x1c, "ro"},
                                    {"OUT_1_V_HI", 0x20, "ro"},
                                    {"RET", 0x24, "ro"}}};
  Tensor x(DType::kInt32, {2}), y(DType::kInt32, {2, 4});
  x.data<int32_t>()[0] = 5;
  x.data<int32_t>()[1] = -1;
  for (int i = 0; i < 8; ++i) y.data<int32_t>()[i] = 100 + i;  // call r, port p, word w: 100 + 4r + 2p + w
  cosim::write_npy(work() + "/x.npy", x);
  cosim::write_npy(work() + "/y.npy", y);
  const std::string head = "target: k\nop: call\ncalls: 2\nargs: {X: {npy: x.npy, per_call: true}}\n";
  const std::string yaml = write_file("batch.yaml", head + "results: {'OUT_*_V': {npy: y.npy, per_call: true}, RET: 9}\n");
  const auto op = cosim::tb::make_ap_call_op(regs, cosim::tb::harness::ControlProtocol::kApCtrlHs);
  S want;
  for (uint64_t call = 0; call < 2; ++call) {
    want.emplace_back(trace::Op::kRegWrite, 0x10 * 0x100ull + (call == 0 ? 5u : 0xffffffffu));
    want.emplace_back(trace::Op::kRegWrite, 0x00 * 0x100 + 1);
    want.emplace_back(trace::Op::kRegPoll, 0x00);
    for (uint64_t r = 0; r < 4; ++r) want.emplace_back(trace::Op::kRegCheck, (0x14 + 4 * r) * 0x100 + 100 + 4 * call + r);
  }
  want.emplace_back(trace::Op::kRegCheck, 0x24 * 0x100ull + 9);
  EXPECT_EQ(steps_of(op, yaml, {}), want);
  // The same words as one int64 a port (an ap_fixed<64,...> output's natural file).
  Tensor y64(DType::kInt64, {2, 2});
  for (int i = 0; i < 4; ++i) y64.data<int64_t>()[i] = (int64_t{101 + 2 * i} << 32) | (100 + 2 * i);
  cosim::write_npy(work() + "/y64.npy", y64);
  const std::string yaml64 = write_file("batch64.yaml", head + "results: {'OUT_*_V': {npy: y64.npy, per_call: true}, RET: 9}\n");
  EXPECT_EQ(steps_of(op, yaml64, {}), want);

  // One line each: a file with another number of rows than calls; a row whose elements do not
  // share out evenly among the ports; a word given by two names; per-call arguments and no wait;
  // nothing to put in or check.
  const auto error_of = [&](const std::string& file, const std::vector<std::string>& overrides) -> std::string {
    try {
      steps_of(op, file, overrides);
    } catch (const cosim::InputError& e) {
      return e.what();
    }
    return "no error";
  };
  const auto has = [](const std::string& message, const std::string& what) {
    return message.find(what) != std::string::npos && message.find('\n') == std::string::npos;
  };
  std::string e = error_of(yaml, {"calls=3"});
  EXPECT_TRUE(has(e, "x.npy: per_call wants one row a call, a first dimension of 3 (calls), got shape [2]")) << e;
  cosim::write_npy(work() + "/y3.npy", Tensor(DType::kInt32, {2, 3}));
  e = error_of(write_file("uneven.yaml", head + "results: {'OUT_*_V': {npy: y3.npy, per_call: true}}\n"), {});
  EXPECT_TRUE(has(e, "3 elements of 32 bits a row for OUT_*_V, 2 ports of 64 bits each: a row's elements must share out evenly")) << e;
  e = error_of(write_file("twice.yaml", head + "results: {'OUT_*_V': {npy: y.npy, per_call: true}, OUT_1_V_HI: 3}\n"), {});
  EXPECT_TRUE(has(e, "OUT_*_V gives OUT_1_V_HI, which OUT_1_V_HI gives already")) << e;
  cosim::write_npy(work() + "/x1.npy", Tensor(DType::kInt32, {1}));
  e = error_of(write_file("no_wait.yaml", "target: k\nop: call\nwait: none\nargs: {X: {npy: x1.npy, per_call: true}}\n"
                                          "buffers: [{name: a, at: 0x1000, dtype: int32, shape: [4], data: random}]\n"), {"calls=1"});
  EXPECT_TRUE(has(e, "per-call arguments written before ap_start; with wait: none there is neither")) << e;
  e = error_of(write_file("empty.yaml", "target: k\nop: call\nargs: {X: 1}\n"), {});
  EXPECT_TRUE(has(e, "a call with no buffer, no stream and no results")) << e;
}

// bits: a file's elements as fields of that many bits (an HLS array of ap_fixed<18,6> reshaped into
// one port, or partitioned into 18-bit ports), packed from bit 0 in order; a negative element
// gives its two's-complement field, and results compare only the fields' bits (an 18-bit output
// reads zeros above them, its int32 file holds the sign).
TEST_F(ApCall, FieldsOfBitsPackElementsAndCheckOnlyTheirBits) {
  namespace trace = cosim::trace;
  const std::array<Reg, 5> regs = {{{"CTRL", 0x00, "rw"},
                                    {"IN_LO", 0x10, "rw"},
                                    {"IN_HI", 0x14, "rw"},
                                    {"OUT_0_V", 0x18, "ro"},
                                    {"OUT_1_V", 0x1c, "ro"}}};
  Tensor x(DType::kInt32, {1, 2}), y(DType::kInt32, {2});
  x.data<int32_t>()[0] = -5;
  x.data<int32_t>()[1] = 70000;
  y.data<int32_t>()[0] = -1;
  y.data<int32_t>()[1] = 5;
  cosim::write_npy(work() + "/fx.npy", x);
  cosim::write_npy(work() + "/fy.npy", y);
  const std::string yaml = write_file("fields.yaml", "target: k\nop: call\nargs: {IN: {npy: fx.npy, per_call: true, bits: 18}}\n"
                                                     "results: {'OUT_*_V': {npy: fy.npy, bits: 18}}\n");
  const auto op = cosim::tb::make_ap_call_op(regs, cosim::tb::harness::ControlProtocol::kApCtrlHs);
  // -5 in bits 17:0 (0x3fffb), 70000 (0x11170) in bits 35:18: its low 14 bits atop word 0, the rest word 1.
  const S want = {{trace::Op::kRegWrite, 0x10 * 0x100ull + 0x45c3fffbu},
                  {trace::Op::kRegWrite, 0x14 * 0x100ull + 0x4u},
                  {trace::Op::kRegWrite, 0x00 * 0x100 + 1},
                  {trace::Op::kRegPoll, 0x00},
                  {trace::Op::kRegCheck, 0x18 * 0x100ull + 0x3ffffu},
                  {trace::Op::kRegCheck, 0x1c * 0x100ull + 5}};
  EXPECT_EQ(steps_of(op, yaml, {}), want);
  const std::vector<cosim::scenario::TargetSchema> targets = {{"k", {"call"}, [&](const std::string&) { return op->schema(); }}};
  const cosim::scenario::Scenario sc = cosim::scenario::load_scenario(yaml, targets, {});
  for (const trace::Step& st : op->compile(sc, op->prepare(sc)).steps) {
    if (st.op == trace::Op::kRegCheck) EXPECT_EQ(st.mask, 0x3ffffu) << st.reg_name;
  }
  // An element its field cannot hold, either way, and a float file, are one line each.
  for (const int32_t bad : {300000, -200000}) {
    y.data<int32_t>()[1] = bad;
    cosim::write_npy(work() + "/fy.npy", y);
    try {
      steps_of(op, yaml, {});
      ADD_FAILURE() << bad << " was taken";
    } catch (const cosim::InputError& e) {
      EXPECT_NE(std::string(e.what()).find("fy.npy: element 1 does not fit 18 bits"), std::string::npos) << e.what();
    }
  }
  cosim::write_npy(work() + "/fy.npy", Tensor(DType::kFp32, {2}));
  EXPECT_THROW(steps_of(op, yaml, {}), cosim::InputError);
}

// A batch checks thousands of registers: the console prints the first max_report failing ones and
// counts the rest, report.json lists every check up to kRegisterChecksListed and beyond that only the
// failing ones, and the first failing read is where the run diverges (its cycle, for the waveform).
TEST(ApCallScores, ABatchListsItsFailingChecksAndOpensAtTheFirst) {
  using namespace cosim::tb;
  const auto play_of = [](int checks, int every) {
    PlayResult play;
    for (int i = 0; i < checks; ++i) {
      RegCheck r;
      r.name = "OUT.call" + std::to_string(i);
      r.offset = 0x18;
      r.expected = 7;
      r.value = i % every == every - 1 ? 6 : 7;  // every `every`-th read fails
      r.mask = 0xffffffffu;
      r.cycle = 100 + 16 * static_cast<uint64_t>(i);
      play.reg_checks.push_back(r);
    }
    return play;
  };
  const WriteLog log;
  const Scores big = score_checks(play_of(3000, 100), nullptr, 10, log);  // 30 failing
  EXPECT_EQ(big.register_count, 3000);
  EXPECT_EQ(big.register_failed, 30);
  EXPECT_FALSE(big.register_all_listed);
  EXPECT_EQ(big.register_checks.size(), 30u);
  ASSERT_EQ(big.register_lines.size(), 11u);
  EXPECT_EQ(big.register_lines[0].rfind("  register OUT.call99 (0x18): read 0x00000006, expected 0x00000007", 0), 0u)
      << big.register_lines[0];
  EXPECT_EQ(big.register_lines[10], "  ... 20 more failing register checks in report.json \"register_checks\"");
  ASSERT_TRUE(big.first_register_failure.has_value());
  const Divergence d = register_divergence(*big.first_register_failure);
  EXPECT_EQ(d.cycle, std::optional<uint64_t>(100 + 16 * 99));
  EXPECT_EQ(d.report["register"], "OUT.call99");
  EXPECT_EQ(d.report["cycle"], 100 + 16 * 99);
  EXPECT_EQ(d.line, "register OUT.call99 read at cycle 1684");

  const Scores small = score_checks(play_of(500, 100), nullptr, 10, log);  // all 500 listed, 5 failing
  EXPECT_TRUE(small.register_all_listed);
  EXPECT_EQ(small.register_checks.size(), 500u);
  EXPECT_EQ(small.register_lines.size(), 5u);
}

}  // namespace
