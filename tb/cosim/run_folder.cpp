#include "cosim/run_folder.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "report_html/report_page.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace cosim::tb {

namespace {

// What the signal handler writes. A signal handler can reach only static
// storage; the texts are prepared (and swapped with signals blocked) before
// the handler is armed, and it only reads them.
struct SignalFile {
  std::string text[2];  // SIGINT, SIGTERM variants
  std::string tmp;
  std::string path;
};
struct SignalReport {
  SignalFile files[2];  // report.json, report.html
};
SignalReport* g_report = nullptr;  // NOLINT: the one state a signal handler needs
volatile sig_atomic_t g_armed = 0;
constexpr int kMaxChildren = 256;
volatile pid_t g_children[kMaxChildren] = {};  // NOLINT: killed by the handler (kill_on_signal)

void write_all(int fd, const char* p, std::size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return;
    }
    p += w;
    n -= static_cast<std::size_t>(w);
  }
}

extern "C" void on_signal(int sig) {
  for (int i = 0; i < kMaxChildren; ++i) {
    if (g_children[i] > 0) ::kill(g_children[i], SIGTERM);
  }
  if (g_armed && g_report != nullptr) {
    const int which = sig == SIGINT ? 0 : 1;
    for (const SignalFile& f : g_report->files) {
      const int fd = ::open(f.tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
      if (fd < 0) continue;
      write_all(fd, f.text[which].data(), f.text[which].size());
      ::close(fd);
      ::rename(f.tmp.c_str(), f.path.c_str());
    }
  }
  ::_exit(128 + sig);
}

class BlockSignals {
 public:
  BlockSignals() {
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGINT);
    sigaddset(&s, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &s, &old_);
  }
  ~BlockSignals() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }

 private:
  sigset_t old_;
};

}  // namespace

void kill_on_signal(pid_t pid) {
  for (int i = 0; i < kMaxChildren; ++i) {
    if (g_children[i] == 0) {
      g_children[i] = pid;
      return;
    }
  }
}

void forget_on_signal(pid_t pid) {
  for (int i = 0; i < kMaxChildren; ++i) {
    if (g_children[i] == pid) g_children[i] = 0;
  }
}

namespace {

std::string with_newline(const json& j) { return j.dump(2) + "\n"; }

}  // namespace

void write_file_atomic(const std::string& path, const std::string& text) { cosim::write_file_atomic(path, text); }

RunFolder::RunFolder(const std::string& dir, report_html::PageOptions page) : dir_(dir), page_(std::move(page)) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec && is_storage_errno(ec.value())) throw_for_errno(dir_ + ": cannot create the output folder", ec.value());
  if (ec || !fs::is_directory(dir_)) {
    throw InputError(dir_ + ": cannot create the output folder" + (ec ? " (" + ec.message() + ")" : std::string()));
  }
  const std::string lock = (fs::path(dir_) / ".cosim.lock").string();
  fd_ = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    const int e = errno;
    if (is_storage_errno(e)) throw_for_errno(lock + ": cannot create the folder's lock", e);
    throw InputError(lock + ": cannot open the folder's lock (" + std::strerror(e) + ")");
  }
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int e = errno;
    // The holder writes its pid just after locking: give it a moment.
    std::string pid;
    for (int i = 0; i < 50 && pid.empty(); ++i) {
      char buf[32] = {};
      const ssize_t n = ::pread(fd_, buf, sizeof buf - 1, 0);
      if (n > 0) pid.assign(buf, static_cast<std::size_t>(n));
      while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' ')) pid.pop_back();
      if (pid.empty()) ::usleep(2000);
    }
    ::close(fd_);
    fd_ = -1;
    if (e != EWOULDBLOCK) throw InputError(lock + ": cannot lock (" + std::strerror(e) + ")");
    throw InputError(dir_ + ": in use by another cosim run (pid " + (pid.empty() ? "unknown" : pid) + " holds " +
                     lock + ")");
  }
  const std::string me = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd_, 0) == 0) {
    [[maybe_unused]] const ssize_t n = ::pwrite(fd_, me.data(), me.size(), 0);
  }
}

RunFolder::~RunFolder() {
  if (handlers_) {
    BlockSignals b;
    g_armed = 0;
    ::sigaction(SIGINT, &old_int_, nullptr);
    ::sigaction(SIGTERM, &old_term_, nullptr);
    delete g_report;
    g_report = nullptr;
  }
  if (fd_ >= 0) {
    if (::ftruncate(fd_, 0) != 0) { /* the next holder rewrites it */ }
    ::close(fd_);  // releases the lock; the file stays (removing it would race a waiting run)
  }
}

void RunFolder::running(const json& base) {
  base_ = base;
  base_.erase("status");
  json j = base_;
  j["status"] = "running";
  const report_html::PageOptions& po = page_;
  const std::string json_path = (fs::path(dir_) / "report.json").string();
  const std::string html_path = (fs::path(dir_) / "report.html").string();
  auto* prepared = new SignalReport;
  for (int k = 0; k < 2; ++k) {
    json i = base_;
    i["status"] = "interrupted";
    i["reason"] = std::string("stopped by ") + (k == 0 ? "SIGINT" : "SIGTERM") + " before the run ended";
    prepared->files[0].text[k] = with_newline(i);
    prepared->files[1].text[k] = report_html::report_page(i, po);
  }
  prepared->files[0].path = json_path;
  prepared->files[0].tmp = (fs::path(dir_) / ".report.json.signal.tmp").string();
  prepared->files[1].path = html_path;
  prepared->files[1].tmp = (fs::path(dir_) / ".report.html.signal.tmp").string();
  {
    BlockSignals b;
    delete g_report;
    g_report = prepared;
    g_armed = 1;
    if (!handlers_) {
      struct sigaction sa {};
      sa.sa_handler = on_signal;
      sigemptyset(&sa.sa_mask);
      sigaddset(&sa.sa_mask, SIGINT);
      sigaddset(&sa.sa_mask, SIGTERM);
      ::sigaction(SIGINT, &sa, &old_int_);
      ::sigaction(SIGTERM, &sa, &old_term_);
      handlers_ = true;
    }
    // Written with the signals held back: a signal now lands after the
    // running report, and the handler then replaces it. When it cannot be
    // written (a full disk), an older report must not survive either.
    try {
      write_file_atomic(json_path, with_newline(j));
      write_file_atomic(html_path, report_html::report_page(j, po));
    } catch (const IoError&) {
      ::unlink(json_path.c_str());
      ::unlink(html_path.c_str());
      throw;
    }
  }
}

void RunFolder::finish(const json& report) {
  // The page first, report.json (the record) last: when either write fails
  // (IoError), report.json still says "running" and no page claims more.
  const std::string json_path = (fs::path(dir_) / "report.json").string();
  const std::string html_path = (fs::path(dir_) / "report.html").string();
  try {
    report_html::write_report_html(report, page_);
    write_file_atomic(json_path, with_newline(report));
  } catch (const IoError&) {
    ::unlink(html_path.c_str());
    throw;
  }
  finished_ = true;
}

void RunFolder::fail(const std::string& status, const std::string& message) {
  json j = base_;
  j["status"] = status;
  j["reason"] = message;
  finish(j);
}

}  // namespace cosim::tb
