// `cosim disasm PATH`: the program a run executed, in its target's words.
// PATH is a run folder (its trace/), a trace directory, or a file or folder in
// a target's raw format (VTA: insn.bin); the trace's target, or the first
// target whose raw format PATH is, writes the text.
#pragma once

#include <ostream>
#include <string>

#include "cosim/backend.hpp"

namespace cosim::tb {

// InputError (one line) when PATH is none of those or its target has no
// program to show.
void disassemble(const BackendRegistry& registry, const std::string& path, std::ostream& os);

}  // namespace cosim::tb
