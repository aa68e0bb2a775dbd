// Constrained-random VTA programs on the Verilated core (bare C++ clock loop)
// against the functional model: the whole DRAM image must match byte for
// byte. A failing program is written to a raw program directory (insn.bin,
// dram.bin, meta) under the test artifact folder (tests/support) for
// `vta-run-model --dir` and `vta-disasm`.
//
// VTA_COSIM_SEEDS=n overrides the number of programs; VTA_COSIM_FIRST_SEED
// the first seed.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <sstream>

#include "common/error.hpp"
#include "vta/model/matmul_program.hpp"
#include "support/artifact_dir.hpp"
#include "vta/disasm.hpp"
#include "vta/functional_model.hpp"
#include "support/vta_random_program.hpp"
#include "vta/raw_program.hpp"
#include "vta/core/bare_driver.hpp"

#ifndef VTA_COSIM_DEFAULT_SEEDS
#define VTA_COSIM_DEFAULT_SEEDS 200
#endif
// The regress build names its suite differently so CTest names stay unique.
#ifndef VTA_COSIM_SUITE
#define VTA_COSIM_SUITE VtaCosim
#endif

namespace cosim::vta {
namespace {

using tb::vta::BareDriver;
using tb::vta::BareOptions;
using tb::vta::RtlRunResult;

uint64_t env_or(const char* name, uint64_t def) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtoull(v, nullptr, 0) : def;
}

// A few memory behaviours, chosen by seed.
BareOptions options_for(uint64_t seed) {
  BareOptions o;
  o.seed = seed;
  switch (seed % 4) {
    case 0: break;  // ideal memory
    case 1: o.read_latency = 7; break;
    case 2: o.stall_probability = 0.25; break;
    default:
      o.read_latency = 3;
      o.bytes_per_cycle = 4;
      o.stall_probability = 0.1;
      break;
  }
  return o;
}

std::string describe(const BareOptions& o) {
  std::ostringstream os;
  os << "read_latency=" << o.read_latency << " bytes_per_cycle=" << o.bytes_per_cycle
     << " stall_probability=" << o.stall_probability << " seed=" << o.seed;
  return os.str();
}

// Runs one program on both sides; returns an empty string when they agree.
std::string run_one(uint64_t seed, const RandomProgramOptions& gen, uint64_t* cycles, bool* changed) {
  const RandomProgram p = generate_random_program(seed, gen);
  std::vector<uint8_t> expect = p.raw.dram;
  const ModelStats st = run_model(expect, p.raw.insn_addr, p.raw.insn_count);
  *changed = expect != p.raw.dram;
  std::vector<uint8_t> dram = p.raw.dram;
  const BareOptions opts = options_for(seed);
  RtlRunResult r;
  std::vector<std::string> axi_errors;
  {
    BareDriver drv(dram, opts);
    r = drv.run(p.raw.insn_addr, p.raw.insn_count, 2'000'000);
    axi_errors = drv.axi_protocol_errors();
    for (const auto& e : drv.axi_access_errors()) axi_errors.push_back(e);
  }
  *cycles = r.cycles;
  std::ostringstream os;
  if (r.status != RtlRunResult::Status::kDone) {
    os << "status " << to_string(r.status) << " after " << r.cycles << " cycles: " << r.diagnosis;
  } else if (!axi_errors.empty()) {
    os << "AXI errors: " << axi_errors.front() << " (" << axi_errors.size() << " in all)";
  } else if (dram != expect) {
    std::size_t first = 0, count = 0;
    for (std::size_t i = 0; i < dram.size(); ++i) {
      if (dram[i] != expect[i]) {
        if (count++ == 0) first = i;
      }
    }
    os << count << " DRAM bytes differ; first at byte 0x" << std::hex << first << std::dec << " (RTL "
       << unsigned{dram[first]} << ", model " << unsigned{expect[first]} << ")";
    const auto stores = stores_writing(p.insns, first);
    if (stores.empty()) {
      os << "; no STORE writes that address";
    } else {
      for (std::size_t i : stores) os << "\n  written by instruction " << i << ": " << disassemble(p.insns[i]);
    }
  }
  if (os.str().empty()) return "";
  std::ostringstream msg;
  msg << "program seed " << seed << " (" << p.insns.size() << " instructions, " << format_stats(st)
      << "), memory " << describe(opts) << ": " << os.str();
  try {
    const std::string dir = cosim::testing::artifact_dir("vta_cosim_fail_seed" + std::to_string(seed)).string();
    write_raw_program_dir(dir, p.raw);
    msg << "\n  program written to " << dir << " (replay: vta-run-model --dir " << dir << " --out out.bin --trace)";
  } catch (const std::exception& e) {
    msg << "\n  (could not write the program: " << e.what() << ")";
  }
  return msg.str();
}

void sweep(const RandomProgramOptions& gen, uint64_t n, uint64_t first) {
  uint64_t total_cycles = 0, failures = 0, changed_count = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (uint64_t seed = first; seed < first + n; ++seed) {
    uint64_t cycles = 0;
    bool changed = false;
    const std::string err = run_one(seed, gen, &cycles, &changed);
    total_cycles += cycles;
    changed_count += changed;
    if (!err.empty()) {
      ++failures;
      ADD_FAILURE() << err;
      if (failures >= 5) {
        ADD_FAILURE() << "stopping after 5 failing programs";
        break;
      }
    }
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%llu programs, %llu RTL cycles in %.2f s (%.0f kHz incl. model and generation)\n",
              static_cast<unsigned long long>(n), static_cast<unsigned long long>(total_cycles), secs,
              total_cycles / secs / 1e3);
  // The comparison means something only if the programs write DRAM.
  EXPECT_GE(changed_count * 10, n * 9) << "only " << changed_count << " of " << n << " programs changed DRAM";
}

TEST(VTA_COSIM_SUITE, RandomProgramsMatchTheModel) {
  sweep(RandomProgramOptions{}, env_or("VTA_COSIM_SEEDS", VTA_COSIM_DEFAULT_SEEDS), env_or("VTA_COSIM_FIRST_SEED", 1));
}

// Programs written with ProgramBuilder: checked against expectations computed
// directly from the matrices, and the whole image against the model.
TEST(VTA_COSIM_SUITE, BuilderProgramsOnTheCore) {
  for (uint64_t variant = 0; variant < 4; ++variant) {
    for (int kind = 0; kind < 2; ++kind) {
      testing::MatmulCase c = kind == 0 ? testing::make_matmul_case(static_cast<uint32_t>(11 + variant))
                                        : testing::make_pingpong_case(static_cast<uint32_t>(21 + variant), 8);
      std::vector<uint8_t> model = c.dram;
      run_model(model, c.program.insn_region.byte_addr, static_cast<uint32_t>(c.program.insns.size()));
      const BareOptions opts = options_for(variant);
      BareDriver drv(c.dram, opts);
      const RtlRunResult r =
          drv.run(c.program.insn_region.byte_addr, static_cast<uint32_t>(c.program.insns.size()), 1'000'000);
      const char* name = kind == 0 ? "matmul" : "ping-pong";
      ASSERT_EQ(r.status, RtlRunResult::Status::kDone) << name << " " << describe(opts) << ": " << r.diagnosis;
      const std::vector<uint8_t> got(c.dram.begin() + c.out.byte_addr, c.dram.begin() + c.out.end());
      EXPECT_EQ(got, c.expect) << name << " " << describe(opts);
      EXPECT_TRUE(c.dram == model) << name << " " << describe(opts) << ": image differs from the model";
      EXPECT_TRUE(drv.axi_protocol_errors().empty());
      if (kind == 1) {
        std::printf("ping-pong 8 tiles, %s: %llu cycles, gemm busy %llu, stalls l->c %llu c->l %llu c->s %llu s->c %llu\n",
                    describe(opts).c_str(), static_cast<unsigned long long>(r.cycles),
                    static_cast<unsigned long long>(r.perf.gemm_busy),
                    static_cast<unsigned long long>(r.perf.stall_load_to_compute),
                    static_cast<unsigned long long>(r.perf.stall_compute_to_load),
                    static_cast<unsigned long long>(r.perf.stall_compute_to_store),
                    static_cast<unsigned long long>(r.perf.stall_store_to_compute));
      }
    }
  }
}

// Bad programs: the model raises InputError (naming the instruction) and the
// core raises its error flag; a token deadlock is a TimeoutError / timeout.
TEST(VTA_COSIM_SUITE, BadProgramsAreRejectedOnBothSides) {
  auto mem = [](Opcode op, MemType t, uint16_t sram, uint16_t x) {
    MemInsn m;
    m.opcode = op;
    m.dep.push_next = op == Opcode::kLoad;   // so FINISH waits for it
    m.dep.push_prev = op == Opcode::kStore;
    m.mem_type = t;
    m.sram_base = sram;
    m.y_size = 1;
    m.x_size = x;
    m.x_stride = x;
    return Insn(m);
  };
  GemmInsn big_uop;
  big_uop.loop.uop_bgn = 8190;
  big_uop.loop.uop_end = 8200;
  AluInsn bad_alu;  // encoded as ADD, patched to the undefined opcode 6 below
  bad_alu.loop.uop_end = 1;
  GemmInsn acc_range;  // uop 0 is {0,0,0} after the zero LOAD UOP; dst 0 + 1 * 2048
  acc_range.loop.uop_end = 1;
  acc_range.loop.iter_out = 2;
  acc_range.loop.dst_factor_out = 2047;
  acc_range.loop.iter_in = 2;
  acc_range.loop.dst_factor_in = 1;
  struct Case {
    const char* name;
    std::vector<Insn> insns;
    bool raw_bad_opcode;
  };
  FinishInsn fin_l;  // waits for the LOAD engine
  fin_l.dep.pop_prev = true;
  FinishInsn fin_s;  // waits for the STORE engine
  fin_s.dep.pop_next = true;
  const Insn uop0 = mem(Opcode::kLoad, MemType::kUop, 0, 1);
  const std::vector<Case> cases = {
      {"undefined opcode", {FinishInsn{}}, true},
      {"LOAD OUT", {mem(Opcode::kLoad, MemType::kOut, 0, 1), FinishInsn{}}, false},
      {"STORE INP", {mem(Opcode::kStore, MemType::kInp, 0, 1), fin_s}, false},
      {"LOAD INP past the buffer", {mem(Opcode::kLoad, MemType::kInp, 2047, 2), fin_l}, false},
      {"uop_end past the buffer", {big_uop, FinishInsn{}}, false},
      {"undefined ALU op", {uop0, bad_alu, FinishInsn{}}, false},
      {"GEMM acc index past the buffer", {uop0, acc_range, FinishInsn{}}, false},
  };
  for (const Case& c : cases) {
    std::vector<uint8_t> bytes = to_bytes(c.insns);
    if (c.raw_bad_opcode) bytes[0] = 5;  // opcode 5 is undefined
    if (std::string(c.name) == "undefined ALU op") {
      uint8_t& b13 = bytes[16 + 13];  // alu_opcode = bits 108..110 = byte 13, bits 4..6
      b13 = static_cast<uint8_t>((b13 & ~0x70) | (6 << 4));
    }
    std::vector<uint8_t> dram(4096, 0);
    std::copy(bytes.begin(), bytes.end(), dram.begin() + 1024);
    const uint32_t n = static_cast<uint32_t>(c.insns.size());
    std::vector<uint8_t> model = dram;
    EXPECT_THROW(run_model(model, 1024, n), InputError) << c.name;
    BareDriver drv(dram, BareOptions{});
    const RtlRunResult r = drv.run(1024, n, 100000);
    EXPECT_EQ(r.status, RtlRunResult::Status::kError) << c.name << ": " << r.diagnosis;
  }
  // Deadlock: FINISH pops a load->compute token nobody pushes.
  FinishInsn fin;
  fin.dep.pop_prev = true;
  std::vector<uint8_t> dram(4096, 0);
  const std::vector<uint8_t> bytes = to_bytes({fin});
  std::copy(bytes.begin(), bytes.end(), dram.begin());
  std::vector<uint8_t> model = dram;
  EXPECT_THROW(run_model(model, 0, 1), TimeoutError);
  BareDriver drv(dram, BareOptions{});
  EXPECT_EQ(drv.run(0, 1, 20000).status, RtlRunResult::Status::kTimeout);
}

// ALU instructions whose later iterations read entries written by earlier
// ones: the spec's sequential loop semantics, which a pipelined ALU must honour.
TEST(VTA_COSIM_SUITE, AluReadAfterWriteInsideOneInstruction) {
  RandomProgramOptions gen;
  gen.alu_hazards = true;
  sweep(gen, env_or("VTA_COSIM_SEEDS", VTA_COSIM_DEFAULT_SEEDS) / 2, env_or("VTA_COSIM_FIRST_SEED", 1) + 100000);
}

}  // namespace
}  // namespace cosim::vta
