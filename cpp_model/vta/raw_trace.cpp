#include "vta/raw_trace.hpp"

#include <filesystem>

#include "common/error.hpp"
#include "vta/functional_model.hpp"

namespace fs = std::filesystem;

namespace cosim::vta {

bool is_raw_program_dir(const std::string& dir) {
  const fs::path d(dir);
  return !fs::exists(d / "trace.txt") && fs::exists(d / "insn.bin") && fs::exists(d / "dram.bin");
}

RawProgram load_raw_program_dir(const std::string& dir) {
  const fs::path d(dir);
  if (fs::exists(d / "meta")) return read_raw_program_dir(dir);
  const std::vector<uint8_t> insns = read_binary_file((d / "insn.bin").string());
  std::vector<uint8_t> dram = read_binary_file((d / "dram.bin").string());
  if (insns.empty()) throw InputError((d / "insn.bin").string() + ": empty (expected at least one instruction)");
  const uint64_t insn_addr = (dram.size() + 4095) / 4096 * 4096;
  return make_raw_program(insns, std::move(dram), insn_addr);
}

trace::Trace raw_program_trace(const std::string& dir, uint64_t max_cycles) {
  const fs::path d(dir);
  const RawProgram program = load_raw_program_dir(dir);
  if (program.insn_count == 0) throw InputError((d / "insn.bin").string() + ": no instructions");
  std::vector<uint8_t> expected;
  std::string source;
  if (fs::exists(d / "dram_expected.bin")) {
    expected = read_binary_file((d / "dram_expected.bin").string());
    // The image may have grown by the instructions placed after it; the part
    // the user's expected image covers must be all of dram.bin.
    const uint64_t image = fs::file_size(d / "dram.bin");
    if (expected.size() != image) {
      throw InputError((d / "dram_expected.bin").string() + ": " + std::to_string(expected.size()) +
                       " bytes, expected " + std::to_string(image) + " (the size of dram.bin)");
    }
    source = "dram_expected.bin";
  } else {
    RawProgram model = program;
    try {
      run_raw_program(model);
    } catch (const InputError& e) {
      throw InputError(dir + ": the functional model rejects the program: " + e.what());
    }
    expected = std::move(model.dram);
    source = "functional_model";
  }
  trace::Trace t;
  t.target = "vta";
  t.config["op"] = "program";
  t.config["expected"] = source;
  t.mem_load(0, program.dram, "dram");
  t.reg_write(0x0c, static_cast<uint32_t>(program.insn_addr));
  t.reg_write(0x08, program.insn_count);
  t.reg_write(0x00, 1);
  t.wait_done(max_cycles);
  Tensor e(DType::kInt8, {static_cast<int64_t>(expected.size())});
  e.bytes() = std::move(expected);
  t.mem_check(0, e, "dram");
  t.mem_dump(0, program.dram.size(), "dram_out.bin");
  return t;
}

}  // namespace cosim::vta
