#include "cosim/input_slices.hpp"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <nlohmann/json.hpp>
#include <thread>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "cosim/run_folder.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace cosim::tb {

namespace {

constexpr const char* kSliceJson = "slice.json";
constexpr const char* kSliceBin = "slice.bin";
constexpr uint64_t kMaxSliceBytes = uint64_t{16} << 30;  // the bound on what a merge reads

void put_u64(std::string& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

uint64_t get_u64(const std::vector<uint8_t>& in, std::size_t& at, const std::string& file) {
  if (at + 8 > in.size()) throw std::runtime_error(file + ": truncated at byte " + std::to_string(at));
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= uint64_t{in[at + i]} << (8 * i);
  at += 8;
  return v;
}

json lanes_json(const timeline::Timeline& t) {
  json lanes = json::array();
  for (const timeline::Lane& l : t.lanes()) {
    lanes.push_back({{"name", l.name}, {"kind", l.kind == timeline::LaneKind::kState ? "state" : "level"},
                     {"states", l.states}});
  }
  return lanes;
}

std::vector<timeline::Lane> lanes_of(const json& j) {
  std::vector<timeline::Lane> lanes;
  for (const json& l : j) {
    lanes.push_back(timeline::Lane{l.at("name").get<std::string>(),
                                   l.at("kind") == "state" ? timeline::LaneKind::kState : timeline::LaneKind::kLevel,
                                   l.at("states").get<std::vector<std::string>>()});
  }
  return lanes;
}

// One slice's outcome as read back.
struct SliceOutcome {
  json meta;
  std::vector<uint8_t> bin;
  std::string bin_file;
};

SliceOutcome read_slice(const std::string& dir) {
  SliceOutcome s;
  const std::string jf = (fs::path(dir) / kSliceJson).string();
  s.meta = json::parse(read_regular_file_text(jf, 64u << 20, "a slice's outcome"));
  s.bin_file = (fs::path(dir) / kSliceBin).string();
  s.bin = read_regular_file_bytes(s.bin_file, kMaxSliceBytes, "a slice's outcome");
  return s;
}

std::string last_line_of(const std::string& file) {
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return "";
  std::string text;
  try {
    text = read_regular_file_text(file, 64u << 20);
  } catch (const std::exception&) {
    return "";
  }
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
  const std::size_t nl = text.find_last_of("\r\n");
  return nl == std::string::npos ? text : text.substr(nl + 1);
}

}  // namespace

std::string InputSlice::text() const {
  return count == 1 ? "input " + std::to_string(first)
                    : "inputs " + std::to_string(first) + "-" + std::to_string(first + count - 1);
}

InputSlice parse_input_slice(const std::string& text) {
  const std::size_t colon = text.find(':');
  const auto number = [&](const std::string& s) -> std::size_t {
    if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos) {
      throw InputError("--input-slice " + text + ": expected FIRST:COUNT, two whole numbers");
    }
    return static_cast<std::size_t>(std::stoul(s));
  };
  if (colon == std::string::npos) throw InputError("--input-slice " + text + ": expected FIRST:COUNT");
  InputSlice s{number(text.substr(0, colon)), number(text.substr(colon + 1))};
  if (s.count == 0) throw InputError("--input-slice " + text + ": COUNT must be at least 1");
  return s;
}

std::vector<InputSlice> split_inputs(std::size_t inputs, std::size_t jobs) {
  jobs = std::max<std::size_t>(1, std::min(jobs, inputs));
  std::vector<InputSlice> out;
  std::size_t first = 0;
  for (std::size_t k = 0; k < jobs; ++k) {
    const std::size_t count = inputs / jobs + (k < inputs % jobs ? 1 : 0);
    out.push_back({first, count});
    first += count;
  }
  return out;
}

std::size_t default_jobs(std::size_t inputs, std::size_t cores) {
  return std::max<std::size_t>(1, std::min(cores, inputs / kInputsPerProcess));
}

std::size_t busy_cores() {
  std::optional<std::size_t> fewest;
  for (int sample = 0; sample < 4; ++sample) {
    if (sample > 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::ifstream stat("/proc/stat");
    std::string key;
    std::size_t running = 0;
    bool found = false;
    while (stat >> key) {
      if (key == "procs_running") {
        found = static_cast<bool>(stat >> running);
        break;
      }
      stat.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
    }
    if (!found) break;
    const std::size_t others = running > 0 ? running - 1 : 0;  // the caller is running
    fewest = std::min(fewest.value_or(others), others);
  }
  if (fewest) return *fewest;
  double load[1] = {0};
  return getloadavg(load, 1) == 1 ? static_cast<std::size_t>(std::lround(load[0])) : 0;
}

std::string slice_dir(const std::string& out_dir, std::size_t k) {
  char name[16];
  std::snprintf(name, sizeof name, "%02zu", k);
  return (fs::path(out_dir) / "slices" / name).string();
}

WorkerError slice_failure(const InputSlice& s, std::size_t k, std::size_t n, const std::string& dir,
                          const std::string& how, int status) {
  const std::string console = (fs::path(dir) / "console.txt").string();
  std::string line = s.text() + " (slice " + std::to_string(k + 1) + " of " + std::to_string(n) + "): " + how;
  const std::string last = last_line_of(console);
  if (!last.empty()) line += ": " + last;
  line += " (its output: " + console + ")";
  return WorkerError(line, status);
}

void write_slice_outcome(const SimOutcome& sim, const WriteLog& log, const std::string& dir) {
  std::string bin;
  json meta;
  json checks = json::array();
  for (const CheckCapture& c : sim.play.checks) {
    checks.push_back({{"name", c.desc.name}, {"offset", bin.size()}, {"bytes", c.actual.bytes().size()}});
    bin.append(reinterpret_cast<const char*>(c.actual.bytes().data()), c.actual.bytes().size());
  }
  meta["checks"] = checks;
  const std::vector<std::pair<uint64_t, uint64_t>> writes = log.entries();
  meta["writes"] = {{"offset", bin.size()}, {"count", writes.size()}};
  for (const auto& [addr, cycle] : writes) {
    put_u64(bin, addr);
    put_u64(bin, cycle);
  }
  if (sim.timeline) {
    const auto& changes = sim.timeline->changes();
    meta["timeline"] = {{"lanes", lanes_json(*sim.timeline)},
                        {"cycles", sim.timeline->cycles()},
                        {"offset", bin.size()},
                        {"count", changes.size()}};
    for (const timeline::Timeline::Change& c : changes) {
      put_u64(bin, c.cycle);
      put_u64(bin, (uint64_t{c.lane} << 32) | c.value);
    }
  } else {
    meta["timeline"] = nullptr;
  }
  json regs = json::array();
  for (const RegCheck& r : sim.play.reg_checks) {
    regs.push_back({{"name", r.name}, {"offset", r.offset}, {"value", r.value}, {"expected", r.expected},
                    {"mask", r.mask}, {"cycle", r.cycle}});
  }
  meta["reg_checks"] = regs;
  meta["dumps"] = sim.play.dumps;
  meta["done_cycles"] = sim.play.done_cycles;
  meta["cycles"] = sim.cycles;
  meta["perf"] = sim.perf;
  meta["dut_errors"] = sim.dut_errors;
  meta["dram"] = {sim.dram.reads, sim.dram.writes, sim.dram.read_bytes, sim.dram.write_bytes, sim.dram.errors,
                  sim.dram.dmi_grants};
  meta["memory"] = {sim.memory.reads, sim.memory.writes, sim.memory.read_bytes, sim.memory.write_bytes,
                    sim.memory.dmi_accesses, sim.memory.tlm_accesses};
  meta["memory_wait_cycles"] = sim.memory_wait_cycles;
  meta["sim_time_ns"] = sim.sim_time_ns;
  meta["build"] = sim.build;
  cosim::write_file_atomic((fs::path(dir) / kSliceBin).string(), bin.data(), bin.size());
  write_file_atomic((fs::path(dir) / kSliceJson).string(), meta.dump() + "\n");
}

namespace {

// The check `st` of the run as its slice captured it (`c`, the slice's entry):
// what HostPlayer::capture_check keeps, with the DUT's bytes from the slice.
CheckCapture slice_capture(const trace::Step& st, const json& c, const SliceOutcome& s) {
  CheckCapture cap;
  cap.desc = st.tensor;
  cap.line = st.line;
  cap.expected = Tensor(st.tensor.dtype, st.tensor.shape, st.tensor.layout);
  cap.expected.bytes() = st.data;
  cap.actual = Tensor(st.tensor.dtype, st.tensor.shape, st.tensor.layout);
  const std::size_t at = c.at("offset"), n = c.at("bytes");
  if (n != cap.actual.bytes().size() || at + n > s.bin.size()) {
    throw std::runtime_error(s.bin_file + ": check " + st.tensor.name + " has the wrong size");
  }
  std::copy_n(s.bin.begin() + static_cast<std::ptrdiff_t>(at), n, cap.actual.bytes().begin());
  if (st.op == trace::Op::kMemCheck) {
    cap.base_addr = st.addr;
  } else {
    cap.stream = st.stream;
  }
  return cap;
}

// A slice's timeline `t` appended to the run's `tl` at cycle `offset` (the
// cycles of the slices before it); the first slice's lanes make `tl`.
void append_slice_timeline(std::optional<timeline::Timeline>& tl, const json& t, const SliceOutcome& s,
                           uint64_t offset) {
  if (!tl) tl.emplace(lanes_of(t.at("lanes")));
  for (std::size_t lane = 0; lane < tl->lanes().size(); ++lane) tl->set(lane, offset, 0);  // a slice starts idle
  std::size_t at = t.at("offset");
  for (uint64_t i = 0, n = t.at("count"); i < n; ++i) {
    const uint64_t cycle = get_u64(s.bin, at, s.bin_file), lv = get_u64(s.bin, at, s.bin_file);
    tl->set(static_cast<std::size_t>(lv >> 32), offset + cycle, static_cast<uint32_t>(lv & 0xffffffffu));
  }
  if (const uint64_t end = t.at("cycles"); end > 0) tl->advance(offset + end - 1);
}

}  // namespace

SimOutcome merge_slice_outcomes(const TargetBackend& backend, const trace::Trace& trace,
                                const std::vector<std::string>& dirs, WriteLog& log) {
  SimOutcome out;
  out.trace_config = trace.config;
  std::vector<const trace::Step*> check_steps, reg_steps;
  for (const trace::Step& s : trace.steps) {
    if (s.op == trace::Op::kMemCheck || s.op == trace::Op::kStreamCheck) check_steps.push_back(&s);
    if (s.op == trace::Op::kRegCheck) reg_steps.push_back(&s);
  }
  std::vector<TargetBackend::PerfSlice> perf;
  std::optional<timeline::Timeline> tl;
  uint64_t offset = 0;  // the cycles of the slices before this one
  std::size_t next_check = 0, next_reg = 0;
  for (const std::string& dir : dirs) {
    const SliceOutcome s = read_slice(dir);
    const json& m = s.meta;
    for (const json& c : m.at("checks")) {
      if (next_check == check_steps.size() || check_steps[next_check]->tensor.name != c.at("name")) {
        throw std::logic_error(dir + ": its check " + c.at("name").get<std::string>() +
                               " is not the run's next check (" +
                               (next_check < check_steps.size() ? check_steps[next_check]->tensor.name : "none") +
                               "): the slices did not replay the run's inputs in order");
      }
      out.play.checks.push_back(slice_capture(*check_steps[next_check++], c, s));
    }
    for (const json& r : m.at("reg_checks")) {
      RegCheck rc;
      rc.name = r.at("name");
      rc.offset = r.at("offset");
      rc.value = r.at("value");
      rc.expected = r.at("expected");
      rc.mask = r.at("mask");
      rc.cycle = offset + r.at("cycle").get<uint64_t>();
      rc.line = next_reg < reg_steps.size() ? reg_steps[next_reg]->line : 0;
      ++next_reg;
      out.play.reg_checks.push_back(rc);
    }
    for (const json& d : m.at("dumps")) out.play.dumps.push_back(d);
    std::size_t at = m.at("writes").at("offset");
    for (uint64_t i = 0, n = m.at("writes").at("count"); i < n; ++i) {
      const uint64_t addr = get_u64(s.bin, at, s.bin_file);
      log.record(addr, 1, offset + get_u64(s.bin, at, s.bin_file));
    }
    if (!m.at("timeline").is_null()) append_slice_timeline(tl, m.at("timeline"), s, offset);
    const uint64_t done = m.at("done_cycles");
    if (done > 0) out.play.done_cycles = offset + done;
    perf.push_back({m.at("perf").get<std::map<std::string, uint64_t>>(), offset});
    for (const json& e : m.at("dut_errors")) out.dut_errors.push_back(e);
    const auto d = m.at("dram").get<std::vector<uint64_t>>();
    out.dram.reads += d.at(0), out.dram.writes += d.at(1), out.dram.read_bytes += d.at(2);
    out.dram.write_bytes += d.at(3), out.dram.errors += d.at(4), out.dram.dmi_grants += d.at(5);
    const auto mem = m.at("memory").get<std::vector<uint64_t>>();
    out.memory.reads += mem.at(0), out.memory.writes += mem.at(1), out.memory.read_bytes += mem.at(2);
    out.memory.write_bytes += mem.at(3), out.memory.dmi_accesses += mem.at(4), out.memory.tlm_accesses += mem.at(5);
    out.memory_wait_cycles += m.at("memory_wait_cycles").get<uint64_t>();
    out.sim_time_ns += m.at("sim_time_ns").get<double>();
    // The build the slices ran (the parent chose one for all); the report names it.
    const std::string build = m.at("build");
    if (dir != dirs.front() && build != out.build) {
      throw std::logic_error(dir + ": ran the " + build + " build, the slices before it the " + out.build + " build");
    }
    out.build = build;
    offset += m.at("cycles").get<uint64_t>();
  }
  if (next_check != check_steps.size()) {
    throw std::logic_error("the slices replayed " + std::to_string(next_check) + " of the run's " +
                           std::to_string(check_steps.size()) + " checks");
  }
  out.cycles = offset;
  out.perf = backend.merge_perf_counters(perf);
  out.timeline = std::move(tl);
  for (CheckCapture& c : out.play.checks) {  // as simulate() does, over the merged writes
    if (c.base_addr) c.last_write_cycle = log.last_write(*c.base_addr, c.desc.memory_bytes());
  }
  return out;
}

SliceRunner::SliceRunner(const std::string& out_dir, std::vector<InputSlice> slices, bool absolute)
    : slices_(std::move(slices)) {
  for (std::size_t k = 0; k < slices_.size(); ++k) {
    const fs::path dir = slice_dir(out_dir, k);
    dirs_.push_back(absolute ? fs::absolute(dir).string() : dir.string());
  }
}

SliceWorkers::SliceWorkers(const std::string& program, const std::vector<std::string>& args,
                           const std::string& out_dir, std::vector<InputSlice> slices)
    : SliceRunner(out_dir, std::move(slices), false) {
  for (std::size_t k = 0; k < slices_.size(); ++k) {
    const std::string& dir = dirs_[k];
    fs::create_directories(dir);
    std::vector<std::string> argv = {program};
    argv.insert(argv.end(), args.begin(), args.end());
    argv.insert(argv.end(), {"--out", dir, "--input-slice",
                             std::to_string(slices_[k].first) + ":" + std::to_string(slices_[k].count)});
    std::vector<char*> cargv;
    for (std::string& a : argv) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    const std::string console = (fs::path(dir) / "console.txt").string();
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
    if (pid == 0) {  // the worker: its console to a file, gone with the parent
      prctl(PR_SET_PDEATHSIG, SIGTERM);
      if (getppid() != parent) _exit(143);
      const int fd = ::open(console.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (fd >= 0) {
        dup2(fd, 1);
        dup2(fd, 2);
        ::close(fd);
      }
      const int devnull = ::open("/dev/null", O_RDONLY);
      if (devnull >= 0) dup2(devnull, 0);
      execv(program.c_str(), cargv.data());
      const std::string msg = "cosim: cannot run " + program + ": " + std::strerror(errno) + "\n";
      (void)!::write(2, msg.data(), msg.size());
      _exit(127);
    }
    pids_.push_back(pid);
    kill_on_signal(pid);
  }
}

SliceWorkers::~SliceWorkers() {
  for (pid_t& pid : pids_) {
    if (pid <= 0) continue;
    ::kill(pid, SIGTERM);
    ::waitpid(pid, nullptr, 0);
    forget_on_signal(pid);
    pid = 0;
  }
}

void SliceWorkers::wait(std::ostream& console) {
  const auto t0 = std::chrono::steady_clock::now();
  std::size_t left = pids_.size();
  while (left > 0) {
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, 0);
    if (pid < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("waitpid: ") + std::strerror(errno));
    }
    std::size_t k = 0;
    while (k < pids_.size() && pids_[k] != pid) ++k;
    if (k == pids_.size()) continue;  // not one of ours
    pids_[k] = 0;
    forget_on_signal(pid);
    --left;
    const std::size_t n = slices_.size();
    if (WIFSIGNALED(status)) {
      const int sig = WTERMSIG(status);
      throw slice_failure(slices_[k], k, n, dirs_[k],
                          "the worker died of signal " + std::to_string(sig) + " (" + strsignal(sig) + ")", 4);
    }
    const int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 4;
    if (rc != 0 && rc != 1) {
      throw slice_failure(slices_[k], k, n, dirs_[k], "the worker exited with status " + std::to_string(rc),
                          rc == 127 ? 4 : rc);
    }
    if (!fs::exists(fs::path(dirs_[k]) / kSliceJson)) {
      throw slice_failure(slices_[k], k, n, dirs_[k], "the worker ended without its outcome (slice.json)", 4);
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    char when[32];
    std::snprintf(when, sizeof when, "%.1f s", s);
    console << "  slice " << k + 1 << " of " << n << " (" << slices_[k].text() << ") simulated in " << when
            << "\n";
    console.flush();
  }
}

}  // namespace cosim::tb
