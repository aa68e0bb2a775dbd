#include "cosim/slurm_slices.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "cosim/run_folder.hpp"

namespace fs = std::filesystem;

namespace cosim::tb {

namespace {

std::string shell_quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs argv with stdout and stderr into `out_file`; returns the pid.
pid_t spawn(const std::vector<std::string>& argv, const std::string& out_file) {
  std::vector<char*> cargv;
  std::vector<std::string> copy = argv;
  for (std::string& a : copy) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    const int fd = ::open(out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
      ::close(fd);
    }
    execvp(cargv[0], cargv.data());
    _exit(127);
  }
  return pid;
}

bool on_path(const std::string& tool) {
  const char* path = std::getenv("PATH");
  std::string p = path ? path : "";
  std::size_t from = 0;
  while (from <= p.size()) {
    const std::size_t colon = p.find(':', from);
    const std::string dir = p.substr(from, colon == std::string::npos ? std::string::npos : colon - from);
    if (!dir.empty() && ::access((fs::path(dir) / tool).c_str(), X_OK) == 0) return true;
    if (colon == std::string::npos) break;
    from = colon + 1;
  }
  return false;
}

}  // namespace

SlurmSlices::SlurmSlices(const std::string& program, const std::vector<std::string>& args,
                         const std::string& out_dir, std::vector<InputSlice> slices)
    : SliceRunner(out_dir, std::move(slices), true) {
  if (!on_path("sbatch")) throw InputError("--slurm: sbatch not found on PATH (Debian: apt-get install slurm-client)");
  const fs::path root = fs::absolute(fs::path(out_dir) / "slices");
  fs::create_directories(root);
  std::string tasks;
  for (std::size_t k = 0; k < slices_.size(); ++k) {
    fs::create_directories(dirs_[k]);
    tasks += std::to_string(slices_[k].first) + ":" + std::to_string(slices_[k].count) + " " + dirs_[k] + "\n";
  }
  const std::string tasks_file = (root / "tasks.txt").string();
  cosim::write_file_atomic(tasks_file, tasks.data(), tasks.size());
  // Task k: line k + 1 of tasks.txt is "FIRST:COUNT DIR".
  std::string cmd = "set -- $(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" " + shell_quoted(tasks_file) +
                    "); exec > \"$2/console.txt\" 2>&1; cd " + shell_quoted(fs::current_path().string()) +
                    " && exec " + shell_quoted(fs::absolute(program).string());
  for (const std::string& a : args) cmd += " " + shell_quoted(a);
  cmd += " --input-slice \"$1\" --out \"$2\"";
  submit_out_ = (root / "sbatch.txt").string();
  sbatch_ = spawn({"sbatch", "--parsable", "--wait", "--job-name=cosim-slices",
                   "--array=0-" + std::to_string(slices_.size() - 1), "--output=" + (root / "slurm-%a.log").string(),
                   "--wrap", cmd},
                  submit_out_);
  kill_on_signal(sbatch_);
}

std::string SlurmSlices::job_id() const {
  std::ifstream in(submit_out_);
  std::string id;
  std::getline(in, id);
  const std::size_t semi = id.find(';');
  if (semi != std::string::npos) id.resize(semi);
  return id.find_first_not_of("0123456789") == std::string::npos ? id : "";
}

SlurmSlices::~SlurmSlices() {
  if (sbatch_ > 0) {
    forget_on_signal(sbatch_);
    if (!done_) {
      if (const std::string id = job_id(); !id.empty()) {
        const pid_t p = spawn({"scancel", id}, "/dev/null");
        if (p > 0) ::waitpid(p, nullptr, 0);
      }
      ::kill(sbatch_, SIGTERM);
      ::waitpid(sbatch_, nullptr, 0);
    }
  }
}

void SlurmSlices::wait(std::ostream& console) {
  const auto t0 = std::chrono::steady_clock::now();
  int status = 0;
  while (::waitpid(sbatch_, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error(std::string("waitpid: ") + std::strerror(errno));
  }
  done_ = true;
  forget_on_signal(sbatch_);
  const std::size_t n = slices_.size();
  for (std::size_t k = 0; k < n; ++k) {
    if (!fs::exists(fs::path(dirs_[k]) / "slice.json")) {
      std::string how = "the SLURM task " + job_id() + "_" + std::to_string(k) + " left no outcome (slice.json)";
      if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::ifstream in(submit_out_);
        std::string all, line;
        while (std::getline(in, line)) if (!line.empty()) all = line;
        if (!all.empty() && all != job_id()) how += "; sbatch: " + all;
      }
      throw slice_failure(slices_[k], k, n, dirs_[k], how, 4);
    }
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  console << "  SLURM job " << job_id() << ": " << n << " tasks done in " << static_cast<int>(s + 0.5) << " s\n";
}

}  // namespace cosim::tb
