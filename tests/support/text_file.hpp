// A file's whole content as a string, and back: what a test reads of a run's
// outputs (report.html, logs, trace.txt) and writes as its inputs.
#pragma once

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace cosim::test {

// The bytes of `path`; "" when it cannot be read.
inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

// Writes `text` to `path`, replacing it.
inline void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

}  // namespace cosim::test
