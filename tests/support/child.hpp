// SystemC elaborates once per process, so each simulation in these tests runs
// in a forked child that reports its observations back as a JSON string.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <typeinfo>

namespace cosim::test {

inline nlohmann::json in_child(const std::function<nlohmann::json()>& body) {
  int fds[2];
  if (pipe(fds) != 0) return {{"child_error", "pipe failed"}};
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    nlohmann::json out;
    try {
      out = body();
    } catch (const std::exception& e) {
      out = {{"exception", typeid(e).name()}, {"what", e.what()}};
    }
    const std::string text = out.dump();
    std::size_t off = 0;
    while (off < text.size()) {
      const ssize_t n = write(fds[1], text.data() + off, text.size() - off);
      if (n <= 0) break;
      off += static_cast<std::size_t>(n);
    }
    close(fds[1]);
    _exit(0);
  }
  close(fds[1]);
  std::string text;
  char buf[4096];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0) text.append(buf, static_cast<std::size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || text.empty()) return {{"child_error", "child crashed"}};
  return nlohmann::json::parse(text);
}

}  // namespace cosim::test
