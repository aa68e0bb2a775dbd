// libFuzzer target for raw VTA program directories (cpp_model/vta/
// raw_program.*): the input is `meta`, then insn.bin, dram.bin and
// dram_expected.bin, each after a line "%%" (a file is absent when its part
// is missing). A program that reads has its stream inside its DRAM image and
// survives write_raw_program_dir/read_raw_program_dir; anything else is one
// line of cosim::InputError. (`cosim replay` turns the same directory into a
// trace in tb/vta, which needs SystemC and is not built here.)
#include <cstddef>
#include <cstdint>
#include <string>

#include "../fuzz_common.hpp"
#include "vta/raw_program.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using cosim::fuzz::require;
  static cosim::fuzz::ScratchDir dir;
  dir.fresh();
  const std::vector<std::string> parts = cosim::fuzz::split_parts(data, size, 4);
  static const char* const kFiles[] = {"in/meta", "in/insn.bin", "in/dram.bin", "in/dram_expected.bin"};
  for (std::size_t i = 0; i < parts.size(); ++i) dir.write(kFiles[i], parts[i]);
  const std::string in = dir.path() + "/in";

  cosim::vta::RawProgram p;
  try {
    p = cosim::vta::read_raw_program_dir(in);
  } catch (const cosim::InputError& e) {
    cosim::fuzz::check_one_line(e);
    return 0;
  }
  require(p.insn_addr % 16 == 0, "misaligned stream accepted");
  require(p.insn_addr <= p.dram.size() && uint64_t{p.insn_count} * 16 <= p.dram.size() - p.insn_addr,
          "stream outside the DRAM image");
  // The round trip writes and reads the image again: only for images of at
  // most 64 MiB (kMaxRawImageBytes).
  if (p.dram.size() > (uint64_t{64} << 20)) return 0;
  const std::string out = dir.path() + "/out";
  cosim::vta::write_raw_program_dir(out, p);
  const cosim::vta::RawProgram q = cosim::vta::read_raw_program_dir(out);
  require(q.dram == p.dram && q.insn_addr == p.insn_addr && q.insn_count == p.insn_count,
          "write/read round trip differs");
  return 0;
}
