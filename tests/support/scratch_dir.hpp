// Folders a test writes its working files into: under the build tree's test
// artifacts (support/artifact_dir.hpp), never the system temp dir or the
// directory the test runs from.
//
//   scratch_dir("trace_test")               <artifacts>/scratch/trace_test_<pid>
//   fresh_dir("trace_test", "roundtrip")    <artifacts>/scratch/trace_test_<pid>/roundtrip
//
// <pid> is the test process that first asks (forked children, support/child.hpp,
// share their parent's folders), so the cases ctest runs in parallel, one
// process each, never share or empty each other's folders. Nothing is removed
// at exit: a folder stays for a person to inspect until the next run of the
// same program asks for its name, which removes the folders of that name left
// by processes that have ended.
#pragma once

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <set>
#include <string>

#include "support/artifact_dir.hpp"

namespace cosim::test {

// True when `rest` is a decimal pid whose process has ended.
inline bool pid_has_ended(const std::string& rest) {
  if (rest.empty() || rest.size() > 9 || rest.find_first_not_of("0123456789") != std::string::npos) return false;
  return ::kill(static_cast<pid_t>(std::stol(rest)), 0) != 0 && errno == ESRCH;
}

// <artifacts>/scratch/<name>_<pid> (created). The first call for `name` in
// this process empties it and removes <name>_<pid> folders of ended processes.
inline std::string scratch_dir(const std::string& name) {
  namespace fs = std::filesystem;
  static const pid_t owner = ::getpid();
  static std::set<std::string> emptied;  // names this process has cleaned up
  const fs::path root = cosim::testing::artifact_dir("scratch");
  const fs::path p = root / (name + "_" + std::to_string(owner));
  if (emptied.insert(name).second) {
    std::error_code ec;  // a parallel run may remove the same stale folder
    fs::remove_all(p, ec);
    const std::string prefix = name + "_";
    for (const fs::directory_entry& e : fs::directory_iterator(root, ec)) {
      const std::string f = e.path().filename().string();
      if (f.rfind(prefix, 0) == 0 && pid_has_ended(f.substr(prefix.size()))) fs::remove_all(e.path(), ec);
    }
  }
  fs::create_directories(p);
  return p.string();
}

// scratch_dir(name)/<case_name>, emptied on every call: a fresh folder per case.
inline std::string fresh_dir(const std::string& name, const std::string& case_name) {
  const std::filesystem::path d = std::filesystem::path(scratch_dir(name)) / case_name;
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d.string();
}

}  // namespace cosim::test
