// SystemC elaborates once per process, so a program that simulates more than
// once (a test suite, the Python module) runs each simulation in a forked
// child that sends its observations back as JSON. Header-only; the caller
// links nlohmann_json.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <typeinfo>

namespace cosim::tb {

// The JSON `body` returned in the child. An exception escaping `body` comes
// back as {"exception": type name, "what": message}; a child that dies or
// sends nothing as {"child_error": what happened}.
inline nlohmann::json in_child(const std::function<nlohmann::json()>& body) {
  int fds[2];
  if (pipe(fds) != 0) return {{"child_error", "pipe failed"}};
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return {{"child_error", "fork failed"}};
  }
  if (pid == 0) {
    close(fds[0]);
    nlohmann::json out;
    try {
      out = body();
    } catch (const std::exception& e) {
      out = {{"exception", typeid(e).name()}, {"what", e.what()}};
    }
    // Invalid UTF-8 in a message must not turn into an exception here.
    const std::string text = out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
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
  while ((n = read(fds[0], buf, sizeof buf)) != 0) {
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    text.append(buf, static_cast<std::size_t>(n));
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status)) return {{"child_error", "child killed by signal " + std::to_string(WTERMSIG(status))}};
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || text.empty()) return {{"child_error", "child crashed"}};
  nlohmann::json out = nlohmann::json::parse(text, nullptr, false);
  if (out.is_discarded()) return {{"child_error", "child sent no valid JSON"}};
  return out;
}

}  // namespace cosim::tb
