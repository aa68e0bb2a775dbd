// spawn_cosim(): the cosim binary as a child process, without a shell, its
// stdout and stderr into a log file, for tests that signal, time or limit a
// run while it goes (tests/tlm: interrupts, full disks, two runs into one
// folder).
#pragma once

#include <fcntl.h>
#include <sys/types.h>
#include <unistd.h>

#include <functional>
#include <string>
#include <vector>

#include "support/cosim_cli.hpp"

namespace cosim::test {

// The child's pid. `in_child`, when given, runs in the child just before
// exec (resource limits, signal dispositions).
inline pid_t spawn_cosim(const std::vector<std::string>& args, const std::string& log,
                         const std::function<void()>& in_child = {}) {
  std::vector<std::string> argv = {cosim_binary()};
  argv.insert(argv.end(), args.begin(), args.end());
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    if (in_child) in_child();
    std::vector<char*> a;
    for (auto& s : argv) a.push_back(s.data());
    a.push_back(nullptr);
    ::execv(a[0], a.data());
    ::_exit(127);
  }
  return pid;
}

}  // namespace cosim::test
