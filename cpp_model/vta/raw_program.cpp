#include "vta/raw_program.hpp"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <sys/stat.h>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "common/parse_number.hpp"

namespace cosim::vta {

uint64_t parse_address(const std::string& text, const std::string& what) {
  const std::optional<uint64_t> v = parse_unsigned(text);
  if (!v) throw InputError(what + ": expected a non-negative integer (decimal or 0x hex), got '" + text + "'");
  return *v;
}

RawProgram make_raw_program(const std::vector<uint8_t>& insn_bytes, std::vector<uint8_t> dram, uint64_t insn_addr) {
  if (insn_bytes.size() % kInsnBytes != 0) {
    throw InputError("VTA instruction stream: " + std::to_string(insn_bytes.size()) +
                     " bytes is not a multiple of 16 (one instruction = 16 bytes)");
  }
  if (insn_addr % kInsnBytes != 0) {
    throw InputError("VTA instruction address " + std::to_string(insn_addr) + " is not a multiple of 16");
  }
  // Overflow-safe: insn_addr may be anything a meta file says.
  if (insn_addr > kMaxRawImageBytes || insn_bytes.size() > kMaxRawImageBytes - insn_addr) {
    throw InputError("VTA instruction stream at address " + std::to_string(insn_addr) + " (" +
                     std::to_string(insn_bytes.size()) + " bytes) ends past the " +
                     std::to_string(kMaxRawImageBytes >> 20) + " MiB limit of a raw program's DRAM image");
  }
  RawProgram p;
  p.insn_addr = insn_addr;
  p.insn_count = static_cast<uint32_t>(insn_bytes.size() / kInsnBytes);
  if (dram.size() < insn_addr + insn_bytes.size()) dram.resize(insn_addr + insn_bytes.size(), 0);
  if (!insn_bytes.empty()) std::memcpy(&dram[insn_addr], insn_bytes.data(), insn_bytes.size());
  p.dram = std::move(dram);
  return p;
}

std::vector<uint8_t> read_binary_file(const std::string& path, uint64_t max_bytes) {
  // Only a regular file, its size checked against the cap before it is read.
  return read_regular_file_bytes(path, max_bytes);
}

void write_binary_file(const std::string& path, const std::vector<uint8_t>& bytes) {
  write_file_atomic(path, bytes.data(), bytes.size());
}

RawProgram read_raw_program_dir(const std::string& dir) {
  const std::string meta_path = dir + "/meta";
  struct stat st {};
  if (::stat(meta_path.c_str(), &st) != 0) {
    throw InputError(meta_path + ": cannot open (expected a raw VTA program directory with insn.bin, dram.bin, meta)");
  }
  std::istringstream meta(read_regular_file_text(meta_path, 64 * 1024, "a raw program's meta"));
  bool have_addr = false, have_count = false;
  uint64_t addr = 0, count = 0, max_cycles = 0;
  std::string line;
  int line_no = 0;
  while (std::getline(meta, line)) {
    ++line_no;
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.erase(hash);
    std::istringstream ls(line);
    std::string key, value, extra;
    if (!(ls >> key)) continue;
    const std::string where = meta_path + ":" + std::to_string(line_no) + ": key '" + key + "'";
    if (!(ls >> value) || (ls >> extra)) throw InputError(where + ": expected exactly one value");
    if (key == "insn_addr") {
      addr = parse_address(value, where);
      have_addr = true;
    } else if (key == "insn_count") {
      count = parse_address(value, where);
      have_count = true;
    } else if (key == "max_cycles") {
      max_cycles = parse_address(value, where);
      if (max_cycles == 0) throw InputError(where + ": expected a positive cycle count, got 0");
    } else {
      throw InputError(where + ": unknown key (expected insn_addr, insn_count or max_cycles)");
    }
  }
  if (!have_addr) throw InputError(meta_path + ": missing key 'insn_addr'");
  std::vector<uint8_t> insn = read_binary_file(dir + "/insn.bin");
  if (insn.size() % kInsnBytes != 0) {
    throw InputError(dir + "/insn.bin: " + std::to_string(insn.size()) + " bytes is not a multiple of 16");
  }
  if (have_count && count != insn.size() / kInsnBytes) {
    throw InputError(meta_path + ": insn_count " + std::to_string(count) + " does not match insn.bin (" +
                     std::to_string(insn.size() / kInsnBytes) + " instructions)");
  }
  RawProgram p = make_raw_program(insn, read_binary_file(dir + "/dram.bin"), addr);
  p.max_cycles = max_cycles;
  return p;
}

void write_raw_program_dir(const std::string& dir, const RawProgram& p) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw InputError(dir + ": cannot create directory (" + ec.message() + ")");
  const uint64_t end = p.insn_addr + uint64_t{p.insn_count} * kInsnBytes;
  if (end > p.dram.size()) throw InputError("raw VTA program: instruction stream outside the DRAM image");
  write_binary_file(dir + "/insn.bin", std::vector<uint8_t>(p.dram.begin() + static_cast<std::ptrdiff_t>(p.insn_addr),
                                                            p.dram.begin() + static_cast<std::ptrdiff_t>(end)));
  write_binary_file(dir + "/dram.bin", p.dram);
  std::ostringstream meta;
  meta << "insn_addr 0x" << std::hex << p.insn_addr << std::dec << "\ninsn_count " << p.insn_count << "\n";
  if (p.max_cycles != 0) meta << "max_cycles " << p.max_cycles << "\n";
  write_file_atomic(dir + "/meta", meta.str());
}

ModelStats run_raw_program(RawProgram& p, const ModelOptions& opt) {
  return run_model(p.dram, p.insn_addr, p.insn_count, opt);
}

}  // namespace cosim::vta
