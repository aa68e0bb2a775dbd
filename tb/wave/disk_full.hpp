// The waveform file last found cut short by a full disk in this process ("" if
// none). WaveTracer sets it when the disk is (nearly) full after closing an
// FST file (Verilator's FST writer ignores failed writes); the CLI then ends
// with exit 5 naming the file and leaves no report saying pass. A header
// without Verilator, so tb/cosim/main.cpp can read it.
#pragma once

#include <string>

namespace cosim::wave {

inline std::string& wave_disk_full_flag() {
  static std::string file;  // NOLINT: one flag per process, read once by the CLI
  return file;
}

}  // namespace cosim::wave
