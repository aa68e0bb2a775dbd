// A run's folder (DESIGN.md "A run's folder"): while a run owns --out DIR it
// holds an flock on DIR/.cosim.lock (its pid written in it), so a second run
// into DIR fails at once (InputError, exit 2) naming the holder. report.json
// and report.html are always written under a temporary name in DIR and
// renamed into place. At the start report.json says "running" (an older
// report, PASS or not, never survives a rerun); SIGINT / SIGTERM during the
// run write a prepared "interrupted" report (async-signal-safe: open, write,
// rename) and _exit(128 + signal), i.e. 130 / 143. The waveform is not
// finalised on a signal.
#pragma once

#include <sys/types.h>

#include <csignal>
#include <nlohmann/json.hpp>
#include <string>

#include "report_html/report_page.hpp"

namespace cosim::tb {

// Writes `text` to `path` through a temporary file in the same folder and a
// rename: readers see the old content or the new one, never a part.
// cosim::IoError naming the file and the errno when it cannot be written
// (common/file_io.hpp; exit 5).
void write_file_atomic(const std::string& path, const std::string& text);

// Child processes (the workers of a run split with --jobs) that SIGINT /
// SIGTERM of this process also end: the handler sends them SIGTERM before
// it writes the interrupted report. At most 256 at a time.
void kill_on_signal(pid_t pid);
void forget_on_signal(pid_t pid);

class RunFolder {
 public:
  // Creates `dir` and locks it; InputError when it cannot be created or
  // another process holds the lock ("<dir>: in use by another cosim run (pid N ...)").
  // `page`: how report.html names the cosim binary and the plugin folders in its commands.
  RunFolder(const std::string& dir, report_html::PageOptions page);
  ~RunFolder();
  RunFolder(const RunFolder&) = delete;
  RunFolder& operator=(const RunFolder&) = delete;

  // report.json + report.html with "status": "running" (fields of `base`
  // kept), and the "interrupted" report prepared and armed for a signal.
  void running(const nlohmann::json& base);
  // A final report (any status); disarms the signal report.
  void finish(const nlohmann::json& report);
  // After an exception before a final report: status and message.
  void fail(const std::string& status, const std::string& message);
  bool finished() const { return finished_; }

 private:
  std::string dir_;
  report_html::PageOptions page_;
  int fd_ = -1;
  bool finished_ = false;
  nlohmann::json base_;
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
  bool handlers_ = false;
};

}  // namespace cosim::tb
