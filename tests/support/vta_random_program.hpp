// Seeded constrained-random VTA programs for co-simulation.
//
// The programs are race-free: the generator tracks what every instruction
// reads and writes (INP / WGT / ACC entries, DRAM bytes) and, whenever an
// instruction conflicts with one on another engine, orders the two through
// dependency tokens (setting a push flag on the other engine's latest
// instruction or adding a no-op there; LOAD<->STORE goes through COMPUTE).
// The final DRAM image is therefore independent of engine timing (checked by
// running the model under random legal schedules). Programs only read SRAM
// entries they wrote before, keep register shift amounts in 0..31 (a MAX 0 /
// MIN 31 clamp kernel runs on the shift operands first), keep immediate shift
// amounts in -31..31, sometimes push spare tokens that a later pop takes
// (token counts above 1), set flags the engines ignore, use every no-op form
// (x_size 0 with junk fields, empty uop range, zero iterations), and end with
// FINISH ordered after every LOAD and STORE and no token left over.
//
// Image layout: [uops 16 KiB][data 48 KiB][out 8 KiB][gap][instructions],
// random bytes everywhere; STOREs write only "out", which some loads read back.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "vta/isa.hpp"
#include "vta/program_builder.hpp"
#include "vta/raw_program.hpp"

namespace cosim::vta {

struct RandomProgramOptions {
  int min_steps = 12;  // generation steps (one step may add a few instructions)
  int max_steps = 36;
  double extra_pop_prob = 0.1;     // pop a token although no conflict needs it
  double ignored_flag_prob = 0.03; // set a flag the engine ignores (LOAD prev, STORE next)
  // Allow one ALU instruction to read an ACC entry that an earlier iteration
  // of the same instruction wrote (sequential semantics; hard for pipelines).
  bool alu_hazards = false;
};

struct RandomProgram {
  uint64_t seed = 0;
  std::vector<Insn> insns;
  RawProgram raw;                   // initial DRAM image, stream at raw.insn_addr
  std::vector<DramRegion> regions;  // "uops", "data", "out" (STORE targets), "insns"
};

RandomProgram generate_random_program(uint64_t seed, const RandomProgramOptions& opt = {});

// Coverage of generated programs over a fixed cross of bins:
//  - LOAD: memory type x {padded, unpadded, sync (x_size 0)} and memory type x
//    each dependency flag the engine uses (LOAD engine: pop_next, push_next;
//    COMPUTE loads: all four); strided 2-D loads;
//  - STORE: pop_prev, push_prev, sync, strided;
//  - GEMM: {reset, accumulate} x each dep flag; both loop levels non-trivial;
//  - ALU: op x {imm, reg}; each dep flag; both loop levels; negative SHR imm;
//  - FINISH with pops.
class ProgramCoverage {
 public:
  ProgramCoverage();
  void add(const std::vector<Insn>& insns);
  std::vector<std::string> missing() const;
  std::size_t bins() const { return hits_.size(); }
  std::size_t covered() const;
  std::string report() const;  // one line per bin with its hit count

 private:
  void hit(const std::string& bin);
  std::vector<std::pair<std::string, uint64_t>> hits_;
};

}  // namespace cosim::vta
