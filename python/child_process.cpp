#include "child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <pybind11/pybind11.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <string>
#include <typeinfo>

namespace py = pybind11;
using nlohmann::json;

namespace cosim::python {

namespace {

constexpr int kPollMs = 100;          // how often Python's signal handlers run during a wait
constexpr int kTermGraceMs = 5000;    // SIGTERM, then SIGKILL after this

[[noreturn]] void child_main(int fd, pid_t parent, const std::function<json()>& body) {
  // SIGTERM when the parent dies. If it died before this took hold, this
  // child was already reparented: stop now.
  if (::prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || ::getppid() != parent) ::_exit(143);
  // Python's handlers only set a flag that nobody reads here: the defaults
  // back (a run folder installs its own), and neither signal blocked.
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  sigset_t s;
  sigemptyset(&s);
  sigaddset(&s, SIGINT);
  sigaddset(&s, SIGTERM);
  pthread_sigmask(SIG_UNBLOCK, &s, nullptr);
  json out;
  try {
    out = body();
  } catch (const std::exception& e) {
    out = {{"exception", typeid(e).name()}, {"what", e.what()}};
  }
  // Invalid UTF-8 in a message must not turn into an exception here.
  const std::string text = out.dump(-1, ' ', false, json::error_handler_t::replace);
  std::size_t off = 0;
  while (off < text.size()) {
    const ssize_t n = ::write(fd, text.data() + off, text.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    off += static_cast<std::size_t>(n);
  }
  ::close(fd);
  ::_exit(0);
}

// SIGTERM (the run writes its "interrupted" report), SIGKILL if it is still
// there after the grace period; reaps it.
void stop_child(pid_t pid) {
  ::kill(pid, SIGTERM);
  int status = 0;
  for (int waited = 0; waited < kTermGraceMs; waited += 10) {
    const pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid || (r < 0 && errno != EINTR)) return;
    ::usleep(10000);
  }
  ::kill(pid, SIGKILL);
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
}

}  // namespace

json run_in_child(const std::function<json()>& body) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return {{"child_error", "pipe failed"}};
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return {{"child_error", "fork failed"}};
  }
  if (pid == 0) {
    ::close(fds[0]);
    child_main(fds[1], parent, body);
  }
  ::close(fds[1]);
  std::string text;
  char buf[4096];
  for (;;) {
    pollfd p{fds[0], POLLIN, 0};
    int ready;
    {
      py::gil_scoped_release nogil;
      ready = ::poll(&p, 1, kPollMs);
    }
    if (ready > 0) {
      const ssize_t n = ::read(fds[0], buf, sizeof buf);
      if (n == 0) break;
      if (n > 0) text.append(buf, static_cast<std::size_t>(n));
      else if (errno != EINTR && errno != EAGAIN) break;
    } else if (ready < 0 && errno != EINTR) {
      break;
    }
    if (PyErr_CheckSignals() != 0) {  // e.g. KeyboardInterrupt
      ::close(fds[0]);
      {
        py::gil_scoped_release nogil;
        stop_child(pid);
      }
      throw py::error_already_set();
    }
  }
  ::close(fds[0]);
  int status = 0;
  {
    py::gil_scoped_release nogil;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  // A Ctrl-C at the terminal reaches both: the child has stopped, the
  // parent raises KeyboardInterrupt.
  if (PyErr_CheckSignals() != 0) throw py::error_already_set();
  if (WIFSIGNALED(status)) {
    return {{"child_error", "the simulation process was killed by signal " + std::to_string(WTERMSIG(status)) +
                                " (" + strsignal(WTERMSIG(status)) + ")"}};
  }
  if (WIFEXITED(status) && (WEXITSTATUS(status) == 130 || WEXITSTATUS(status) == 143) && text.empty()) {
    return {{"child_error", std::string("the simulation process was stopped by ") +
                                (WEXITSTATUS(status) == 130 ? "SIGINT" : "SIGTERM") + " (exit " +
                                std::to_string(WEXITSTATUS(status)) + ")"}};
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || text.empty()) {
    return {{"child_error", "the simulation process crashed (exit status " + std::to_string(status) + ")"}};
  }
  json out = json::parse(text, nullptr, false);
  if (out.is_discarded()) return {{"child_error", "the simulation process sent no valid JSON"}};
  return out;
}

}  // namespace cosim::python
