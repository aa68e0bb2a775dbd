#include "vta/vta_disasm.hpp"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

#include "common/error.hpp"
#include "common/text.hpp"
#include "dut/vta_regs.hpp"
#include "vta/disasm.hpp"
#include "vta/isa.hpp"
#include "vta/raw_program.hpp"

namespace cosim::tb::vta {

namespace fs = std::filesystem;
namespace regs = cosim::vta::regs;

namespace {

using cosim::vta::kInsnBytes;

// Numbered lines, written in chunks so that a long stream is never held
// twice as text.
void write_stream(const std::vector<uint8_t>& bytes, std::ostream& os) {
  constexpr std::size_t kChunk = 4096 * kInsnBytes;
  for (std::size_t at = 0; at < bytes.size(); at += kChunk) {
    const std::vector<uint8_t> part(bytes.begin() + static_cast<std::ptrdiff_t>(at),
                                    bytes.begin() + static_cast<std::ptrdiff_t>(std::min(bytes.size(), at + kChunk)));
    os << cosim::vta::disassemble_stream(part, at / kInsnBytes);
  }
}

// What the trace's mem_load steps hold, as loaded (later loads win).
class LoadedImage {
 public:
  void load(uint64_t addr, const std::vector<uint8_t>& data) { blobs_.push_back({addr, &data}); }
  // `n` bytes at `addr`, or nullopt when some byte was never loaded.
  std::optional<std::vector<uint8_t>> read(uint64_t addr, uint64_t n) const {
    std::vector<uint8_t> out(n);
    std::vector<bool> seen(n, false);
    for (const Blob& b : blobs_) {  // in load order: a later load overwrites
      const uint64_t lo = std::max(addr, b.addr), hi = std::min(addr + n, b.addr + b.data->size());
      for (uint64_t a = lo; a < hi; ++a) {
        out[a - addr] = (*b.data)[a - b.addr];
        seen[a - addr] = true;
      }
    }
    if (std::find(seen.begin(), seen.end(), false) != seen.end()) return std::nullopt;
    return out;
  }

 private:
  struct Blob {
    uint64_t addr;
    const std::vector<uint8_t>* data;
  };
  std::vector<Blob> blobs_;
};

}  // namespace

std::vector<StartedProgram> started_programs(const trace::Trace& tr) {
  std::vector<StartedProgram> out;
  LoadedImage image;
  uint64_t insn_addr = 0, insn_count = 0;
  for (const trace::Step& s : tr.steps) {
    if (s.op == trace::Op::kMemLoad) image.load(s.addr, s.data);
    if (s.op != trace::Op::kRegWrite) continue;
    if (s.addr == regs::kInsnAddr) insn_addr = s.value;
    if (s.addr == regs::kInsnCount) insn_count = s.value;
    if (s.addr != regs::kCtrl || (s.value & regs::ctrl::kStartMask) == 0) continue;
    StartedProgram p;
    p.run = static_cast<int>(out.size());
    const auto it = tr.config.find("vta_run" + std::to_string(p.run) + "_check");
    if (it != tr.config.end()) {
      p.checks = it->second;
      std::replace(p.checks.begin(), p.checks.end(), '-', ' ');
    }
    p.insn_addr = insn_addr;
    p.insn_count = insn_count;
    // No stream is longer than the DRAM a trace can load.
    if (insn_count > cosim::vta::kMaxRawImageBytes / kInsnBytes) {
      p.missing = true;
    } else if (auto bytes = image.read(insn_addr, insn_count * kInsnBytes)) {
      p.insn_bytes = std::move(*bytes);
    } else {
      p.missing = true;
    }
    out.push_back(std::move(p));
  }
  return out;
}

void disassemble_trace(const trace::Trace& tr, std::ostream& os) {
  const std::vector<StartedProgram> programs = started_programs(tr);
  if (programs.empty()) throw InputError("trace: it never starts the core (no reg_write of CTRL's start bit)");
  for (const StartedProgram& p : programs) {
    os << (p.run ? "\n" : "") << "== run " << p.run << (p.checks.empty() ? "" : " (" + p.checks + ")") << ": "
       << p.insn_count << " instructions at " << hex(p.insn_addr) << "\n";
    if (p.missing) {
      throw InputError("trace: run " + std::to_string(p.run) + " fetches " + std::to_string(p.insn_count) +
                       " instructions at " + hex(p.insn_addr) + ", which the trace never loaded");
    }
    write_stream(p.insn_bytes, os);
  }
}

bool disassemble_raw(const std::string& path, std::ostream& os) {
  std::string file = path;
  if (fs::is_directory(path)) {
    file = (fs::path(path) / "insn.bin").string();
    if (!fs::exists(file)) return false;
  }
  // No VTA program is larger than the testbench DRAM: the cap is checked
  // before the file is read.
  const std::vector<uint8_t> bytes = cosim::trace::read_file_bytes(file, cosim::vta::kMaxRawImageBytes);
  if (bytes.size() % kInsnBytes != 0) {
    // The one target that reads any file as a raw program says what it wanted.
    throw InputError(file + ": not a run folder, a trace directory or a raw program (as a VTA instruction stream: " +
                     std::to_string(bytes.size()) + " bytes, not a multiple of 16)");
  }
  write_stream(bytes, os);
  return true;
}

}  // namespace cosim::tb::vta
