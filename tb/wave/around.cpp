#include "wave/around.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <system_error>
#include <vector>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "wave/gtkw.hpp"

namespace fs = std::filesystem;

namespace cosim::wave {

namespace {

int run_child(const std::string& program, const std::vector<std::string>& args, const std::string& log) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed for the re-run around the mismatch");
  if (pid == 0) {
    const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
      close(fd);
    }
    execv(program.c_str(), argv.data());
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error("waitpid failed for the re-run around the mismatch");
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

std::optional<AroundResult> trace_around_mismatch(const AroundOptions& o, std::ostream& console) {
  const fs::path report = fs::path(o.out_dir) / "report.json";
  std::ifstream in(report);
  if (!in) throw InputError(report.string() + ": cannot read the run's report");
  nlohmann::json j;
  try {
    in >> j;
  } catch (const nlohmann::json::exception& e) {
    throw InputError(report.string() + ": not valid JSON (" + e.what() + ")");
  }
  in.close();
  const auto fd = j.find("first_divergence");
  if (fd == j.end() || !fd->is_object() || !fd->value("cycle", nlohmann::json()).is_number_unsigned()) {
    console << "  wave        no cycle known for the first mismatch (no write of it logged): nothing to trace around\n";
    return std::nullopt;
  }
  AroundResult r;
  r.cycle = (*fd)["cycle"].get<uint64_t>();
  std::tie(r.from, r.to) = window_around(r.cycle, o.cycles);
  r.fst = (fs::path(o.out_dir) / "wave_mismatch.fst").string();
  r.gtkw = gtkw_path_for(r.fst);
  const fs::path sub = fs::path(o.out_dir) / "around_mismatch";
  fs::create_directories(sub);
  std::vector<std::string> args = {"cosim",
                                   "replay",
                                   (fs::path(o.out_dir) / "trace").string(),
                                   "--out",
                                   sub.string(),
                                   "--wave",
                                   r.fst,
                                   "--wave-from",
                                   std::to_string(r.from),
                                   "--wave-to",
                                   std::to_string(r.to),
                                   "--wave-max-mb",
                                   std::to_string(std::max<uint64_t>(1, o.max_bytes >> 20))};
  if (o.depth > 0) {
    args.push_back("--wave-depth");
    args.push_back(std::to_string(o.depth));
  }
  fs::remove(r.fst);
  r.exit_status = run_child(o.program, args, (sub / "console.txt").string());
  if (!fs::exists(r.fst)) {
    throw std::runtime_error("the re-run around the mismatch wrote no waveform (exit status " +
                             std::to_string(r.exit_status) + ", see " + (sub / "console.txt").string() + ")");
  }
  j["wave_around_mismatch"] = {{"file", r.fst}, {"gtkw", r.gtkw}, {"from_cycle", r.from}, {"to_cycle", r.to},
                               {"mismatch_cycle", r.cycle}, {"replay_exit_status", r.exit_status}};
  // A temporary name renamed into place: never a half-written report (IoError on a full disk).
  write_file_atomic(report.string(), j.dump(2) + "\n");
  console << "  wave        " << r.fst << " (cycles " << r.from << ".." << r.to << " around cycle " << r.cycle
          << "): gtkwave -a " << r.gtkw << " " << r.fst << "\n";
  return r;
}

}  // namespace cosim::wave
