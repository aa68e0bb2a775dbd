// A raw VTA program directory (insn.bin + dram.bin [+ meta] [+
// dram_expected.bin]) as a self-checking trace for `cosim replay`.
//
// The expected final DRAM image is dram_expected.bin when the directory has
// one; otherwise the functional model (an implementation of spec/vta-isa.md
// independent of the RTL) runs the same program on the same image, and the
// whole image is compared byte for byte. Either way a replay checks
// something: a raw program never passes on zero compared bytes.
#pragma once

#include <cstdint>
#include <string>

#include "trace/trace.hpp"
#include "vta/raw_program.hpp"

namespace cosim::vta {

// insn.bin and dram.bin present, trace.txt absent.
bool is_raw_program_dir(const std::string& dir);

// Where the instructions sit: `meta`'s insn_addr when the directory has a
// meta file (the layout write_raw_program_dir writes), otherwise right after
// the image at the next 4 KiB boundary. Sizes are checked against
// kMaxRawImageBytes before anything is read. cosim::InputError names the
// file; a program the functional model rejects is an InputError too, and a
// token deadlock in the model a cosim::TimeoutError.
RawProgram load_raw_program_dir(const std::string& dir);

// The trace: image load, the host registers of spec/vta-isa.md (0x0c
// address, 0x08 count, 0x00 start), wait for done within `max_cycles` (or
// meta's max_cycles), a byte-for-byte check of the image (tensor "dram",
// config "expected" names its source), and a dump to dram_out.bin.
//
// Without dram_expected.bin the functional model computes the image under
// the same budget: at most `max_cycles` GEMM / ALU uop executions (the core
// needs a cycle for each), checked before each instruction, else a
// cosim::TimeoutError naming the instruction, the bound and how to raise it
// (with dram_expected.bin a pass over the tokens alone checks the same bound).
// It runs under several legal engine orders (stream order, LOAD-first,
// STORE-first, one random); when their images differ the program is racy: a
// cosim::InputError "racy program" naming the first differing byte, its
// value under both orders, the STOREs writing it and where the orders part.
trace::Trace raw_program_trace(const std::string& dir, uint64_t max_cycles);

}  // namespace cosim::vta
