// Helpers shared by the libFuzzer targets in tests/fuzz/*/ (one target per
// parser). Each target turns the fuzzer's bytes into the files its parser
// reads, calls it and checks the contract every parser promises: the input
// either parses or the parser throws cosim::InputError with one line of text.
// Any other exception, a crash or a sanitizer report is a bug.
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.hpp"

namespace cosim::fuzz {

// An InputError message must be one line (the CLI prints it as is).
// COSIM_FUZZ_VERBOSE=1 prints each one (to see why a seed is rejected).
inline void check_one_line(const std::exception& e) {
  const char* what = e.what();
  static const bool verbose = std::getenv("COSIM_FUZZ_VERBOSE") != nullptr;
  if (verbose) std::fprintf(stderr, "InputError: %s\n", what);
  if (what[0] == '\0' || std::strchr(what, '\n') != nullptr) {
    std::fprintf(stderr, "InputError message is empty or spans lines: '%s'\n", what);
    std::abort();
  }
}

// Fails the run when an invariant the parser promises does not hold.
inline void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz invariant violated: %s\n", what);
    std::abort();
  }
}

// The input split at each "\n%%\n" separator: part 0 is the text before the
// first separator, and so on. Files of a directory travel in one input this
// way (e.g. trace.txt, then a blob).
inline std::vector<std::string> split_parts(const uint8_t* data, std::size_t size, std::size_t max_parts) {
  static constexpr std::string_view kSep = "\n%%\n";
  std::vector<std::string> parts;
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  std::size_t start = 0;
  while (parts.size() + 1 < max_parts) {
    const std::size_t at = in.find(kSep, start);
    if (at == std::string_view::npos) break;
    parts.emplace_back(in.substr(start, at - start));
    start = at + kSep.size();
  }
  parts.emplace_back(in.substr(start));
  return parts;
}

// A private scratch directory, created once per process and emptied for
// each input (libFuzzer runs inputs one after another in one process).
class ScratchDir {
 public:
  ScratchDir() {
    const char* base = std::getenv("COSIM_FUZZ_TMP");
    std::string templ = std::string(base != nullptr ? base : "/tmp") + "/cosim-fuzz-XXXXXX";
    if (::mkdtemp(templ.data()) == nullptr) {
      std::perror("mkdtemp");
      std::abort();
    }
    path_ = templ;
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::string& path() const { return path_; }
  // Removes everything inside and returns the (now empty) directory.
  const std::string& fresh() {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(path_, ec)) std::filesystem::remove_all(entry.path(), ec);
    return path_;
  }
  // Writes `bytes` to `name` (relative; parent folders are created).
  std::string write(const std::string& name, std::string_view bytes) const {
    const std::filesystem::path p = std::filesystem::path(path_) / name;
    std::error_code ec;
    std::filesystem::create_directories(p.parent_path(), ec);
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) {
      std::fprintf(stderr, "cannot write %s\n", p.c_str());
      std::abort();
    }
    return p.string();
  }

 private:
  std::string path_;
};

}  // namespace cosim::fuzz
