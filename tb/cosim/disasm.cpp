#include "cosim/disasm.hpp"

#include <filesystem>

#include "common/error.hpp"
#include "trace/trace.hpp"

namespace cosim::tb {

namespace fs = std::filesystem;

void disassemble(const BackendRegistry& registry, const std::string& path, std::ostream& os) {
  if (!fs::exists(path)) throw InputError(path + ": no such file or folder");
  std::string trace_dir;
  if (fs::is_directory(path)) {
    if (fs::exists(fs::path(path) / "trace" / "trace.txt")) trace_dir = (fs::path(path) / "trace").string();
    if (fs::exists(fs::path(path) / "trace.txt")) trace_dir = path;
  }
  if (!trace_dir.empty()) {
    const trace::Trace tr = trace::read_trace(trace_dir);
    if (!registry.get(tr.target).disassemble(tr, os)) {
      throw InputError(trace_dir + ": target '" + tr.target + "' has no program to disassemble");
    }
    return;
  }
  for (const TargetBackend* b : registry.all()) {
    if (b->disassemble_raw(path, os)) return;
  }
  throw InputError(path + (fs::is_directory(path)
                               ? ": not a run folder, a trace directory or a raw program (no trace/trace.txt, "
                                 "trace.txt, or a target's raw files such as VTA's insn.bin)"
                               : ": no target reads this file as a program"));
}

}  // namespace cosim::tb
