// vta-run-model: runs a raw VTA program on the functional model.
//   vta-run-model INSN.bin DRAM.bin --insn-addr A --out OUT.bin [--stats] [--trace]
//   vta-run-model --dir DIR --out OUT.bin [--stats] [--trace]
// DRAM.bin is a flat image (byte 0 = address 0); the instruction stream is
// written into it at byte address A (growing the image if needed). OUT.bin
// receives the DRAM image after FINISH.
// Exit status: 0 ok, 2 bad input, 3 deadlock / no FINISH.
#include <cstdio>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "common/tool_main.hpp"
#include "vta/disasm.hpp"
#include "vta/raw_program.hpp"

namespace {

int usage(bool help = false) {
  std::fprintf(help ? stdout : stderr,
               "usage: vta-run-model INSN.bin DRAM.bin --insn-addr A --out OUT.bin [--stats] [--trace]\n"
               "       vta-run-model --dir DIR --out OUT.bin [--stats] [--trace]\n"
               "  DIR holds insn.bin, dram.bin and meta (\"insn_addr A\"); --trace prints each executed\n"
               "  instruction with its engine; exit 0 ok, 2 bad input, 3 deadlock / no FINISH\n");
  return help ? 0 : 2;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace cosim::vta;
  std::vector<std::string> pos;
  std::string dir, out, addr_text;
  bool stats = false, trace = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](std::string* dst) {
      if (i + 1 >= argc) return false;
      *dst = argv[++i];
      return true;
    };
    if (a == "--dir") {
      if (!value(&dir)) return usage();
    } else if (a == "--out") {
      if (!value(&out)) return usage();
    } else if (a == "--insn-addr") {
      if (!value(&addr_text)) return usage();
    } else if (a == "--stats") {
      stats = true;
    } else if (a == "--trace") {
      trace = true;
    } else if (a == "-h" || a == "--help") {
      return usage(true);
    } else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "vta-run-model: unknown option '%s'\n", a.c_str());
      return usage();
    } else {
      pos.push_back(a);
    }
  }
  if (out.empty() || (dir.empty() && (pos.size() != 2 || addr_text.empty())) || (!dir.empty() && !pos.empty())) {
    return usage();
  }
  return cosim::run_tool("vta-run-model", [&] {
    RawProgram p = dir.empty() ? make_raw_program(read_binary_file(pos[0]), read_binary_file(pos[1]),
                                                  parse_address(addr_text, "--insn-addr"))
                               : read_raw_program_dir(dir);
    ModelOptions opt;
    // The trace reads the stream from the image; keep a copy in case a STORE overwrites it.
    std::vector<uint8_t> stream(p.dram.begin() + static_cast<std::ptrdiff_t>(p.insn_addr),
                                p.dram.begin() + static_cast<std::ptrdiff_t>(p.insn_addr + p.insn_count * kInsnBytes));
    if (trace) {
      opt.on_execute = [&](std::size_t idx, Engine e) {
        std::fprintf(stderr, "[%-7s] %4zu: %s\n", engine_name(e), idx,
                     disassemble(load_word(&stream[idx * kInsnBytes])).c_str());
      };
    }
    const ModelStats s = run_raw_program(p, opt);
    write_binary_file(out, p.dram);
    if (stats) std::printf("%s\n", format_stats(s).c_str());
    return 0;
  });
}
