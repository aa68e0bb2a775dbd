// vta-disasm FILE: one line per instruction of a VTA instruction stream.
#include <cstdio>
#include <string>

#include "common/error.hpp"
#include "common/tool_main.hpp"
#include "vta/disasm.hpp"
#include "vta/raw_program.hpp"

int main(int argc, char** argv) {
  const bool help = argc == 2 && (std::string(argv[1]) == "-h" || std::string(argv[1]) == "--help");
  if (argc != 2 || help) {
    std::fprintf(help ? stdout : stderr, "usage: vta-disasm INSN_FILE   (a VTA instruction stream, 16 bytes per instruction)\n");
    return help ? 0 : 2;
  }
  return cosim::run_tool("vta-disasm", [&] {
    const auto bytes = cosim::vta::read_binary_file(argv[1]);
    if (bytes.size() % cosim::vta::kInsnBytes != 0) {
      throw cosim::InputError(std::string(argv[1]) + ": " + std::to_string(bytes.size()) +
                              " bytes is not a multiple of 16 (one VTA instruction = 16 bytes)");
    }
    std::fputs(cosim::vta::disassemble_stream(bytes).c_str(), stdout);
    return 0;
  });
}
