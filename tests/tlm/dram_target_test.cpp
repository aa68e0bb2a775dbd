// DRAM target: latency / bandwidth annotation, DMI, address errors, byte
// enables, and seeded stalls (same seed = same timing). The memory bridge:
// the DMI path and the b_transport path take identical cycles.
#include <gtest/gtest.h>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <functional>

#include "common/error.hpp"
#include "support/child.hpp"
#include "tlm/dram_target.hpp"
#include "tlm/tlm_memory_port.hpp"

using cosim::test::in_child;
using cosim::tb::DramTarget;
using cosim::tb::TbConfig;
using nlohmann::json;

namespace {

// An initiator whose thread runs a test body.
struct Initiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Initiator> socket;
  std::function<void(Initiator&)> body;
  Initiator(sc_core::sc_module_name n, std::function<void(Initiator&)> b)
      : sc_core::sc_module(n), socket("socket"), body(std::move(b)) {
    SC_HAS_PROCESS(Initiator);
    SC_THREAD(run);
  }
  void run() { body(*this); }

  // b_transport of `len` bytes; returns the annotated delay in cycles (10 ns clock), -1 on error.
  int64_t access(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len, unsigned char* be = nullptr) {
    tlm::tlm_generic_payload p;
    p.set_command(cmd);
    p.set_address(addr);
    p.set_data_ptr(data);
    p.set_data_length(len);
    p.set_streaming_width(len);
    if (be != nullptr) {
      p.set_byte_enable_ptr(be);
      p.set_byte_enable_length(len);
    }
    p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(p, delay);
    if (p.is_response_error()) return -1;
    return static_cast<int64_t>(delay.to_seconds() * 1e9 / 10.0 + 0.5);
  }
};

json run_sim(const TbConfig& cfg, std::function<void(Initiator&, DramTarget&, json&)> body) {
  return in_child([&] {
    json out;
    DramTarget dram("dram", cfg);
    Initiator init("init", [&](Initiator& i) { body(i, dram, out); });
    init.socket.bind(dram.socket);
    sc_core::sc_start();
    return out;
  });
}

TbConfig base_cfg() {
  TbConfig c;
  c.dram_latency = 20;
  c.bytes_per_cycle = 8;
  c.clock_ns = 10;
  c.dram_size = 1 << 20;
  return c;
}

}  // namespace

TEST(DramTarget, LatencyAndBandwidthAreAnnotated) {
  json r = run_sim(base_cfg(), [](Initiator& i, DramTarget&, json& out) {
    uint8_t buf[64] = {};
    out["a"] = i.access(tlm::TLM_READ_COMMAND, 0x100, buf, 8);   // new access: 20 + 1
    out["b"] = i.access(tlm::TLM_READ_COMMAND, 0x108, buf, 8);   // sequential: 1
    out["c"] = i.access(tlm::TLM_READ_COMMAND, 0x200, buf, 64);  // new: 20 + 64/8
    out["d"] = i.access(tlm::TLM_WRITE_COMMAND, 0x210, buf, 8);  // writes have their own stream: 20 + 1
    out["e"] = i.access(tlm::TLM_WRITE_COMMAND, 0x218, buf, 3);  // sequential, ceil(3/8) = 1
    out["f"] = i.access(tlm::TLM_READ_COMMAND, 0x240, buf, 8);   // reads continue after 0x240: sequential
  });
  ASSERT_FALSE(r.contains("exception")) << r.dump();
  EXPECT_EQ(r["a"], 21);
  EXPECT_EQ(r["b"], 1);
  EXPECT_EQ(r["c"], 28);
  EXPECT_EQ(r["d"], 21);
  EXPECT_EQ(r["e"], 1);
  EXPECT_EQ(r["f"], 1);

  TbConfig narrow = base_cfg();
  narrow.bytes_per_cycle = 3;
  narrow.dram_latency = 0;
  json n = run_sim(narrow, [](Initiator& i, DramTarget&, json& out) {
    uint8_t buf[16] = {};
    out["a"] = i.access(tlm::TLM_READ_COMMAND, 0, buf, 8);   // ceil(8/3) = 3
    out["b"] = i.access(tlm::TLM_READ_COMMAND, 8, buf, 16);  // ceil(16/3) = 6
  });
  EXPECT_EQ(n["a"], 3);
  EXPECT_EQ(n["b"], 6);
}

TEST(DramTarget, DataAddressErrorsAndByteEnables) {
  json r = run_sim(base_cfg(), [](Initiator& i, DramTarget& d, json& out) {
    uint8_t w[4] = {1, 2, 3, 4};
    i.access(tlm::TLM_WRITE_COMMAND, 0x40, w, 4);
    uint8_t w2[4] = {9, 9, 9, 9};
    unsigned char be[4] = {TLM_BYTE_ENABLED, TLM_BYTE_DISABLED, TLM_BYTE_ENABLED, TLM_BYTE_DISABLED};
    i.access(tlm::TLM_WRITE_COMMAND, 0x40, w2, 4, be);
    uint8_t rd[4] = {};
    i.access(tlm::TLM_READ_COMMAND, 0x40, rd, 4);
    out["read"] = std::vector<int>(rd, rd + 4);
    out["backdoor"] = d.data()[0x41];
    uint8_t big[8] = {};
    out["oob"] = i.access(tlm::TLM_READ_COMMAND, (1 << 20) - 4, big, 8);
    out["oob_write"] = i.access(tlm::TLM_WRITE_COMMAND, 1 << 20, big, 1);
    out["errors"] = d.stats().errors;
  });
  EXPECT_EQ(r["read"], (std::vector<int>{9, 2, 9, 4}));
  EXPECT_EQ(r["backdoor"], 2);
  EXPECT_EQ(r["oob"], -1);
  EXPECT_EQ(r["oob_write"], -1);
  EXPECT_EQ(r["errors"], 2);
}

TEST(DramTarget, DmiGivesTheWholeImage) {
  json r = run_sim(base_cfg(), [](Initiator& i, DramTarget& d, json& out) {
    tlm::tlm_generic_payload p;
    p.set_command(tlm::TLM_READ_COMMAND);
    p.set_address(0x1234);
    tlm::tlm_dmi dmi;
    out["granted"] = i.socket->get_direct_mem_ptr(p, dmi);
    out["same_ptr"] = dmi.get_dmi_ptr() == d.data();
    out["start"] = dmi.get_start_address();
    out["end"] = dmi.get_end_address();
    out["rw"] = dmi.is_read_write_allowed();
    out["latency_ns"] = dmi.get_read_latency().to_seconds() * 1e9;
    dmi.get_dmi_ptr()[0x500] = 0x5a;  // a DMI write is what b_transport then reads
    uint8_t b = 0;
    i.access(tlm::TLM_READ_COMMAND, 0x500, &b, 1);
    out["read_back"] = b;
  });
  EXPECT_EQ(r["granted"], true);
  EXPECT_EQ(r["same_ptr"], true);
  EXPECT_EQ(r["start"], 0);
  EXPECT_EQ(r["end"], (1 << 20) - 1);
  EXPECT_EQ(r["rw"], true);
  EXPECT_DOUBLE_EQ(r["latency_ns"].get<double>(), 200.0);
  EXPECT_EQ(r["read_back"], 0x5a);

  TbConfig off = base_cfg();
  off.dmi = false;
  json n = run_sim(off, [](Initiator& i, DramTarget&, json& out) {
    tlm::tlm_generic_payload p;
    tlm::tlm_dmi dmi;
    out["granted"] = i.socket->get_direct_mem_ptr(p, dmi);
  });
  EXPECT_EQ(n["granted"], false);
}

namespace {
std::vector<int64_t> stall_run(uint64_t seed) {
  TbConfig c = base_cfg();
  c.stall_probability = 0.3;
  c.max_stall_cycles = 16;
  c.seed = seed;
  json r = run_sim(c, [](Initiator& i, DramTarget&, json& out) {
    std::vector<int64_t> d;
    uint8_t buf[8];
    for (int k = 0; k < 200; ++k) d.push_back(i.access(tlm::TLM_READ_COMMAND, 0x1000 + 8 * k, buf, 8));
    out["delays"] = d;
  });
  return r["delays"].get<std::vector<int64_t>>();
}
}  // namespace

TEST(DramTarget, StallsAreSeededAndDeterministic) {
  const auto a = stall_run(7);
  const auto b = stall_run(7);
  const auto c = stall_run(8);
  ASSERT_EQ(a.size(), 200u);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  // Sequential 8-byte reads cost 1 cycle (the first adds 20 latency); a stall adds 1..16.
  int stalls = 0;
  for (std::size_t k = 0; k < a.size(); ++k) {
    const int64_t base = k == 0 ? 21 : 1;
    ASSERT_GE(a[k], base);
    ASSERT_LE(a[k], base + 16);
    if (a[k] > base) ++stalls;
  }
  // p = 0.3 over 200 accesses: 60 expected; 30..90 is > 4 sigma either side.
  EXPECT_GT(stalls, 30);
  EXPECT_LT(stalls, 90);
}

namespace {
// Drives the memory bridge with a fixed access pattern.
json bridge_run(bool dmi) {
  TbConfig c = base_cfg();
  c.dmi = dmi;
  c.stall_probability = 0.2;
  c.seed = 3;
  return run_sim(c, [c](Initiator& i, DramTarget& d, json& out) {
    cosim::tb::TlmMemoryPort port(i.socket, c, 0, [] { return uint64_t{0}; });
    uint8_t buf[16];
    for (int k = 0; k < 16; ++k) buf[k] = static_cast<uint8_t>(k + 1);
    std::vector<uint64_t> per_access;
    for (int k = 0; k < 64; ++k) {
      const uint64_t addr = (k % 8 == 0) ? 0x8000 + 0x400 * k : 0x8000 + 0x400 * (k - k % 8) + 16 * (k % 8);
      if (k % 3 == 0) {
        const uint8_t strobe[16] = {1, 0, 1, 0, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1};
        port.write(addr, buf, 16, strobe);
      } else if (k % 3 == 1) {
        port.write(addr, buf, 16, nullptr);
      } else {
        port.read(addr, buf, 16);
      }
      per_access.push_back(port.take_delay_cycles());
    }
    out["per_access"] = per_access;
    out["total"] = port.total_delay_cycles();
    out["dmi_accesses"] = port.stats().dmi_accesses;
    out["tlm_accesses"] = port.stats().tlm_accesses;
    out["image"] = std::vector<uint8_t>(d.data() + 0x8000, d.data() + 0x8000 + 0x400 * 64);
    bool raised = false;
    try {
      port.read(1 << 20, buf, 8);
    } catch (const cosim::InputError& e) {
      raised = std::string(e.what()).find("0x100000") != std::string::npos;
    }
    out["oob_raises"] = raised;
  });
}
}  // namespace

TEST(MemoryBridge, DmiAndTransportTakeTheSameCycles) {
  const json with = bridge_run(true);
  const json without = bridge_run(false);
  ASSERT_FALSE(with.contains("exception")) << with.dump();
  ASSERT_FALSE(without.contains("exception")) << without.dump();
  EXPECT_EQ(with["dmi_accesses"], 64);
  EXPECT_EQ(with["tlm_accesses"], 0);
  EXPECT_EQ(without["dmi_accesses"], 0);
  EXPECT_EQ(without["tlm_accesses"], 64);
  EXPECT_EQ(with["per_access"], without["per_access"]);
  EXPECT_EQ(with["total"], without["total"]);
  EXPECT_EQ(with["image"], without["image"]);
  EXPECT_TRUE(with["oob_raises"].get<bool>());
  EXPECT_TRUE(without["oob_raises"].get<bool>());
  // Strobed bytes were skipped: first access (k=0) wrote bytes 0,2,4..7,12..15 only.
  const auto image = with["image"].get<std::vector<uint8_t>>();
  EXPECT_EQ(image[0], 1);
  EXPECT_EQ(image[1], 0);
  EXPECT_EQ(image[2], 3);
  EXPECT_EQ(image[8], 0);
  EXPECT_EQ(image[12], 13);
}

TEST(TbConfig, TraceConfigRoundTripAndErrors) {
  TbConfig c;
  c.dram_latency = 33;
  c.bytes_per_cycle = 4;
  c.stall_probability = 0.125;
  c.seed = 99;
  c.clock_ns = 2.5;
  auto m = c.to_map();
  m["scenario"] = "x";  // metadata rides along and is ignored
  const TbConfig r = TbConfig::from_map(m);
  EXPECT_EQ(r.dram_latency, 33u);
  EXPECT_EQ(r.bytes_per_cycle, 4u);
  EXPECT_DOUBLE_EQ(r.stall_probability, 0.125);
  EXPECT_EQ(r.seed, 99u);
  EXPECT_DOUBLE_EQ(r.clock_ns, 2.5);
  EXPECT_THROW(TbConfig::from_map({{"dram_latency", "-3"}}), cosim::InputError);
  EXPECT_THROW(TbConfig::from_map({{"seed", "abc"}}), cosim::InputError);
  EXPECT_THROW(TbConfig::from_map({{"stall_probability", "1.0"}}), cosim::InputError);
  EXPECT_THROW(TbConfig::from_map({{"bytes_per_cycle", "0"}}), cosim::InputError);
  // Decimal or 0x hex (common/parse_number.hpp): a leading zero is not octal,
  // and an overflowing value is refused rather than saturated.
  EXPECT_EQ(TbConfig::from_map({{"seed", "010"}}).seed, 10u);
  EXPECT_EQ(TbConfig::from_map({{"seed", "0x10"}}).seed, 16u);
  EXPECT_THROW(TbConfig::from_map({{"seed", "99999999999999999999"}}), cosim::InputError);
  EXPECT_THROW(TbConfig::from_map({{"seed", " 7"}}), cosim::InputError);
}

// Two masters waiting in the same cycle make one cycle of memory wait, so the
// figure can never exceed the run; a cycle with no wait adds nothing.
TEST(MemoryBridge, WaitCyclesCountEachCycleOnce) {
  TbConfig c = base_cfg();
  const json j = run_sim(c, [c](Initiator& i, DramTarget&, json& out) {
    uint64_t now = 0;
    cosim::tb::MemoryWaitCycles shared;
    cosim::tb::TlmMemoryPort a(i.socket, c, 0, [&now] { return now; });
    cosim::tb::TlmMemoryPort b(i.socket, c, 1, [&now] { return now; });
    a.set_wait_counter(&shared);
    b.set_wait_counter(&shared);
    for (now = 0; now < 10; ++now) {
      if (now < 6) a.note_waiting();  // cycles 0..5
      if (now >= 4 && now < 8) b.note_waiting();  // cycles 4..7, two of them shared with a
    }
    out["wait"] = shared.count();
    cosim::tb::TlmMemoryPort lone(i.socket, c, 2, [&now] { return now; });
    lone.note_waiting();  // no counter: ignored
  });
  ASSERT_FALSE(j.contains("exception")) << j.dump();
  EXPECT_EQ(j["wait"].get<uint64_t>(), 8u);  // cycles 0..7
}
