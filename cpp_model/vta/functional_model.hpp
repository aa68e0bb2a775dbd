// Instruction-level functional model of the VTA core: the golden model for
// raw programs. It runs over a flat DRAM byte image (byte 0 = address 0).
//
// The three engines (LOAD, COMPUTE, STORE) are modelled by executing one
// instruction at a time in an order the dependency tokens allow: among the
// engines whose next instruction has all the tokens it pops, the one whose
// instruction comes first in the stream runs. For a race-free program (tokens
// order every conflicting access) any legal order gives the same DRAM bytes.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "vta/isa.hpp"

namespace cosim::vta {

struct ModelStats {
  uint64_t executed = 0;    // instructions executed (up to and including FINISH)
  uint64_t unexecuted = 0;  // instructions left in the queues when FINISH ran
  uint64_t loads = 0, stores = 0, gemms = 0, alus = 0, finishes = 0;
  std::array<uint64_t, 6> loads_by_type{};  // indexed by MemType
  uint64_t syncs = 0;         // LOAD / STORE with x_size == 0
  uint64_t gemm_uops = 0;     // accumulating uop executions; MACs = 256 * gemm_uops
  uint64_t gemm_resets = 0;   // uop executions with reset_reg
  uint64_t alu_ops = 0;       // ALU uop executions (each is 16 lane operations)
  uint64_t load_bytes = 0;    // DRAM bytes read by LOADs
  uint64_t store_bytes = 0;   // DRAM bytes written by STOREs
  bool finished = false;
  uint64_t macs() const { return gemm_uops * 256; }
};

// The on-chip buffers. All zero on construction.
struct VtaSram {
  std::vector<int8_t> inp = std::vector<int8_t>(std::size_t{kInpDepth} * kInpElemBytes);
  std::vector<int8_t> wgt = std::vector<int8_t>(std::size_t{kWgtDepth} * kWgtElemBytes);
  std::vector<int32_t> acc = std::vector<int32_t>(std::size_t{kAccDepth} * kBlock);
  std::vector<Uop> uop = std::vector<Uop>(kUopDepth);
};

// Executes one instruction's data effect (no token handling). `index` names
// the instruction in error messages. Returns true for FINISH.
// Errors: cosim::InputError for undefined memory types / ALU ops, SRAM or DRAM
// ranges out of bounds, each naming the instruction index.
bool execute_insn(const Insn& insn, std::size_t index, VtaSram& sram, std::vector<uint8_t>& dram,
                  ModelStats& stats);

struct ModelOptions {
  // Called after each executed instruction (stream index, engine), e.g. to
  // print an execution trace.
  std::function<void(std::size_t, Engine)> on_execute;
  // 0: run the runnable engine whose instruction comes first in the stream.
  // Otherwise pick a random runnable engine (seeded): a race-free program
  // must give the same bytes for every seed.
  uint64_t schedule_seed = 0;
  // When not empty (and schedule_seed is 0): run the runnable engine that
  // comes first in this list (e.g. {COMPUTE, LOAD, STORE}: compute runs
  // ahead whenever its tokens allow). Another legal order.
  std::vector<Engine> engine_priority;
  // The work bound: at most this many GEMM / ALU uop executions (one inner
  // iteration of the loop nest each, the unit the core needs at least one
  // cycle for) over the whole run; 0 = unbounded. Checked before each
  // instruction runs, so an instruction over the bound costs nothing.
  uint64_t max_uops = 0;
  // false: only the engines' order, the tokens and the work bound, no data
  // effect (no SRAM or DRAM access, no instruction checks): what a run will
  // cost, cheaply, when the expected image comes from elsewhere.
  bool data = true;
};

// The work bound (ModelOptions::max_uops) would be exceeded: a timeout (the
// core could not finish within that many cycles either), not bad input.
class ModelWorkBoundError : public TimeoutError {
 public:
  using TimeoutError::TimeoutError;
};

// Runs a decoded instruction stream to FINISH.
// Throws cosim::TimeoutError on a token deadlock (naming each stuck engine,
// its instruction and the queue states) or when the stream has no reachable
// FINISH; ModelWorkBoundError (naming the instruction, its uop executions and
// the bound) before an instruction that would exceed opt.max_uops;
// cosim::InputError on bad instructions.
ModelStats run_model(const std::vector<Insn>& insns, std::vector<uint8_t>& dram, const ModelOptions& opt = {});

// Fetches `insn_count` instructions from DRAM byte address `insn_addr`,
// decodes them (undefined opcode -> InputError with the index) and runs them.
ModelStats run_model(std::vector<uint8_t>& dram, uint64_t insn_addr, uint32_t insn_count,
                     const ModelOptions& opt = {});

// Indices of the STORE instructions whose DRAM writes cover `byte_addr`
// (to point at the instruction behind a mismatching byte).
std::vector<std::size_t> stores_writing(const std::vector<Insn>& insns, uint64_t byte_addr);

std::string format_stats(const ModelStats& s);

}  // namespace cosim::vta
