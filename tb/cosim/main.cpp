// cosim: run a scenario on a Verilated DUT through the TLM testbench, replay a
// trace, list scenarios and targets. Errors are exceptions caught once here:
//   0 bit-exact, 1 mismatch, 2 bad input, 3 DUT timeout / hang, 4 internal
//   error (a bug in cosim: "please report" with the command line), 5 I/O
//   error (out of space, a failed write or read: the file and the errno).
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <csignal>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <new>
#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "cosim/build_info.hpp"
#include "common/file_io.hpp"
#include "common/parse_number.hpp"
#include "cosim/backend.hpp"
#include "cosim/catalog.hpp"
#include "cosim/disasm.hpp"
#include "cosim/plugins.hpp"
#include "cosim/runner.hpp"
#include "ops/golden_engine.hpp"
#include "report_html/report_page.hpp"
#include "wave/around.hpp"
#include "wave/disk_full.hpp"


namespace fs = std::filesystem;

namespace {

// Every whole number on the command line (--seed, --jobs, the waveform's
// cycles and sizes, ...) is read as a scenario's are (common/parse_number.hpp:
// decimal or 0x hex, no sign, no octal) against its range, with one error
// line naming both; CLI11 alone would take "-1" as 2^64 - 1 and word a
// PositiveNumber failure as a range up to DBL_MAX. The checked text is
// handed on in decimal, which CLI11's conversion reads.
CLI::Validator whole_number(uint64_t min, uint64_t max) {
  return CLI::Validator(
      [min, max](std::string& text) -> std::string {
        const std::optional<uint64_t> v = cosim::parse_unsigned(text, max);
        if (!v || *v < min) {
          return "expected an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "], got '" +
                 cosim::one_line(text) + "'";
        }
        text = std::to_string(*v);
        return "";
      },
      max == UINT64_MAX ? "" : "[" + std::to_string(min) + ", " + std::to_string(max) + "]");  // shown in --help
}

// An error from the file system that reached the top: the user's path (exit
// 2) or the machine's disk (exit 5), by its errno.
bool is_io_errno(int e) { return cosim::is_storage_errno(e); }

// Last resort for the waveform: Verilator's FST writer reads its own
// temporary files back through mmap and dies of SIGBUS when a write to them
// failed (a disk filled by someone else after the free-space check in
// tb/wave/wave_tracer.hpp). One line and exit 5 instead of a crash.
char g_sigbus_line[1024];  // NOLINT: prepared before the handler is armed
std::size_t g_sigbus_len = 0;

extern "C" void on_sigbus(int) {
  [[maybe_unused]] const ssize_t n = ::write(2, g_sigbus_line, g_sigbus_len);
  ::_exit(5);
}

void arm_sigbus_for_waveform(const std::string& wave_file) {
  const std::string line = "cosim: I/O error: " + cosim::one_line(wave_file) +
                           ": the FST waveform writer failed (SIGBUS; its disk or /tmp is probably full); the "
                           "waveform and report are incomplete\n";
  g_sigbus_len = std::min(line.size(), sizeof g_sigbus_line);
  std::memcpy(g_sigbus_line, line.data(), g_sigbus_len);
  struct sigaction sa {};
  sa.sa_handler = on_sigbus;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGBUS, &sa, nullptr);
}

// A message for the terminal: control bytes that came from a file (a
// scenario's name, a line of trace.txt) written as \xNN; newlines kept (a
// hang's diagnosis spans lines).
std::string printable(const std::string& text) {
  std::string out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t nl = text.find('\n', start);
    out += cosim::one_line(text.substr(start, nl == std::string::npos ? std::string::npos : nl - start));
    if (nl == std::string::npos) break;
    out += '\n';
    start = nl + 1;
  }
  return out;
}

// The waveform was cut short by a full disk (tb/wave/disk_full.hpp): the
// run's report may not say pass. It is rewritten as an error, or removed when
// even that cannot be written (removing frees space, it does not need any);
// then exit 5 naming the waveform.
[[noreturn]] void waveform_cut_short(const std::string& out_dir) {
  const std::string wave = cosim::wave::wave_disk_full_flag();
  const std::string why = wave + ": its disk filled while the waveform was written; the FST file is incomplete";
  const fs::path json_path = fs::path(out_dir) / "report.json";
  const fs::path html_path = fs::path(out_dir) / "report.html";
  try {
    nlohmann::json j = nlohmann::json::parse(cosim::read_regular_file_text(json_path.string(), uint64_t{256} << 20));
    j["status"] = "error";
    j["reason"] = why;
    ::unlink(html_path.c_str());
    cosim::write_file_atomic(json_path.string(), j.dump(2) + "\n");
  } catch (const std::exception&) {
    ::unlink(json_path.c_str());
    ::unlink(html_path.c_str());
  }
  throw cosim::IoError(why + " (" + cosim::errno_text(ENOSPC) + ")");
}

std::string command_line(int argc, char** argv) {
  std::string s;
  for (int i = 0; i < argc; ++i) s += (i ? " " : "") + cosim::one_line(argv[i]);
  return s;
}

// What the command line asks for: the options of every subcommand, and the
// subcommands to ask which one was given.
struct CommandLine {
  int verbose = 0;
  std::string log_level;
  std::vector<std::string> dut_path;
  // run, replay
  cosim::tb::RunOptions opt;
  std::string file, out, wave;
  std::optional<uint64_t> seed;
  std::string input_slice;
  std::vector<std::string> sets;
  bool no_dmi = false, no_timeline = false, fast = false, no_fast = false;
  std::string golden;
  uint64_t quantum = 0;
  uint64_t max_mb = 256, around = 0;
  // list, new-dut
  std::string list_dir;
  std::string newdut_name, newdut_out, newdut_style = "reg", newdut_hls, newdut_top;
  std::vector<std::string> newdut_rtl;  // --from-rtl, every source file
  bool newdut_refresh = false;
  CLI::App* run = nullptr;
  CLI::App* replay = nullptr;
  CLI::App* list = nullptr;
  CLI::App* newdut = nullptr;
  CLI::App* disasm = nullptr;
  CLI::App* suite = nullptr;
};

// The options `run` and `replay` share.
void add_run_options(CLI::App* cmd, CommandLine& cl) {
  cosim::tb::RunOptions& opt = cl.opt;
  cmd->add_option("--out", cl.out, "output directory (default out/<name>)");
  // The waveform flags are --wave*: "trace" is the replay folder (<out>/trace).
  // The --trace* spellings of earlier releases stay as aliases.
  cmd->add_option("--wave,--trace", cl.wave, "write an FST waveform (default <out>/wave.fst)")->expected(0, 1);
  cmd->add_option("--wave-from,--trace-from", opt.wave_from, "first cycle in the waveform")
      ->transform(whole_number(0, UINT64_MAX));
  cmd->add_option("--wave-to,--trace-to", opt.wave_to, "last cycle in the waveform")
      ->transform(whole_number(0, UINT64_MAX));
  cmd->add_option("--wave-depth,--trace-depth", opt.wave_depth,
                  "hierarchy levels below the DUT's top in the waveform (0 = all)")
      ->transform(whole_number(0, 65535));
  cmd->add_option("--wave-max-mb,--trace-max-mb", cl.max_mb, "stop dumping the waveform beyond this size")
      ->transform(whole_number(1, uint64_t{1} << 24))  // 16 TiB: MB << 20 stays in 64 bits
      ->capture_default_str();
  cmd->add_option("--wave-around-mismatch,--trace-around-mismatch", cl.around,
                  "on a mismatch, replay and dump N cycles on each side of the first diverging write")
      ->transform(whole_number(0, 1000000000));
  cmd->add_flag("--dump", opt.dump, "write expected / actual outputs as .npy");
  cmd->add_option("--max-mismatches", opt.max_report, "mismatches listed per output")
      ->transform(whole_number(0, 1000000))
      ->capture_default_str();
  cmd->add_flag("--no-dmi", cl.no_dmi, "send every DUT memory access through b_transport");
  cmd->add_option("--quantum", cl.quantum, "temporal decoupling quantum in DUT cycles")
      ->transform(whole_number(1, 1000000000));
  cmd->add_flag("--no-timeline", cl.no_timeline, "do not sample the engine timeline (report.json, report.html)");
  CLI::Option* fast = cmd->add_flag("--fast", cl.fast,
                                    "run the DUT's fast build: no SystemVerilog assertions, same bits and cycles "
                                    "(default for a whole-network run of more than 16 inputs)");
  cmd->add_flag("--no-fast", cl.no_fast, "keep the assertions (the checked build) however long the run")
      ->excludes(fast);
  cmd->add_option("--golden", cl.golden,
                  "golden int8 CONV_2D engine: fast (vectorised, the default) or reference (the plain loops); "
                  "same bits, COSIM_GOLDEN sets it too");
}

// `cosim --version`: how this binary was built (cmake/cosim_arch.cmake).
std::string build_info() {
  std::string text = "cosim (" COSIM_BUILD_COMPILER ", " COSIM_BUILD_TYPE ")\n";
  text += "arch: " COSIM_BUILD_ARCH " (COSIM_ARCH=" COSIM_BUILD_ARCH_REQUESTED;
  text += std::strlen(COSIM_BUILD_ARCH_FLAGS) ? ": " COSIM_BUILD_ARCH_FLAGS " for " COSIM_BUILD_ARCH_DUTS
                                                " and the golden libraries)"
                                              : ")";
  return text;
}

// A build for x86-64-v3 on a CPU without it would die of SIGILL somewhere in
// a model; say so up front instead (exit 4).
bool cpu_runs_this_build() {
#if COSIM_BUILD_X86_64_V3 && (defined(__x86_64__) || defined(__i386__))
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("bmi2");
#else
  return true;
#endif
}

void define_commands(CLI::App& app, CommandLine& cl) {
  app.require_subcommand(1);
  app.set_version_flag("--version", build_info(), "print the compiler and architecture this cosim was built with");
  app.add_flag("-v,--verbose", cl.verbose, "more log output (-v info, -vv debug)");
  app.add_option("--log-level", cl.log_level, "trace|debug|info|warn|error|off")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}));
  app.add_option("--dut-path", cl.dut_path,
                 "a folder holding an accelerator plugin (DIR or DIR/build: *.cosim-plugin.so); repeatable; "
                 "COSIM_DUT_PATH adds more (':'-separated)");

  cl.run = app.add_subcommand("run", "run a scenario on its target's RTL");
  cl.run->add_option("scenario", cl.file, "scenario file (scenarios/NAME.yaml)")->required();
  cl.run->add_option("--seed", cl.seed, "seed (overrides the scenario's), decimal or 0x hex, in [0, 2^63 - 1]")
      ->transform(whole_number(0, INT64_MAX));  // a scenario's seed key's range
  cl.run->add_option("--set", cl.sets, "override a scenario key: key.path=value (repeatable)")->allow_extra_args(false);
  add_run_options(cl.run, cl);
  cl.run->add_option("--jobs,-j", cl.opt.jobs,
                     "processes over which a run of independent inputs (a network's `inputs: N`) splits: "
                     "default one per 8 inputs, at most the cores not busy (cores minus the tasks running now); 1: one process")
      ->transform(whole_number(1, 4096));
  cl.run->add_flag("--slurm", cl.opt.slurm,
                   "simulate the slices of a split run as a SLURM job array (--jobs tasks, default one per 8 "
                   "inputs) and merge them here");
  cl.run->add_option("--input-slice", cl.input_slice, "(a split run's worker) FIRST:COUNT of the inputs")
      ->group("");

  cl.replay = app.add_subcommand("replay", "replay a trace directory (or insn.bin + dram.bin)");
  cl.replay->add_option("dir", cl.file, "trace directory")->required();
  add_run_options(cl.replay, cl);

  cl.list = app.add_subcommand("list", "list scenarios and registered targets");
  cl.list->add_option("--dir", cl.list_dir, "scenario folder (default ./scenarios)");

  cl.newdut = app.add_subcommand("new-dut", "write a standalone accelerator project from a template");
  cl.newdut->add_option("name", cl.newdut_name, "lower-case name of the accelerator")->required();
  cl.newdut->add_option("--out", cl.newdut_out, "the project folder to create (outside this installation)")->required();
  cl.newdut->add_flag("--refresh", cl.newdut_refresh,
                      "in the existing project --out, rewrite only the files cosim owns (the wrapper) from this "
                      "installation; the rest is the project's");
  cl.newdut->add_option("--style", cl.newdut_style, "reg (register bus, clk_i / rst_ni) or vitis (Vitis RTL kernel)")
      ->check(CLI::IsMember({"reg", "vitis"}))
      ->capture_default_str();
  cl.newdut->add_option("--from-hls", cl.newdut_hls,
                        "the folder of a kernel's Verilog that Vitis / Vivado HLS generated: a Vitis-style project "
                        "with that kernel in the template's place, its manifest read from it");
  cl.newdut->add_option("--from-rtl", cl.newdut_rtl,
                        "hand-written RTL, kept where it is (repeatable: every source file, in compile order, or a "
                        "folder, its .sv and .v files with packages first): a "
                        "Vitis-style project whose manifest names the files and sorts the top's ports into "
                        "interfaces by their names");
  cl.newdut->add_option("--top", cl.newdut_top,
                        "with --from-hls or --from-rtl: the top module, when it cannot be told");

  // Everything after `suite` is the suite script's (scripts/suite --help).
  cl.suite = app.add_subcommand("suite", "the MLPerf Tiny models on every accelerator, one table (--inputs N, --only vta,tf2, --out DIR)");
  cl.suite->prefix_command();

  cl.disasm = app.add_subcommand("disasm",
                                 "the program a run executed: a run folder or trace directory, or a raw program");
  cl.disasm->add_option("path", cl.file, "run folder, trace directory, raw program folder or file (VTA: insn.bin)")
      ->required();
}

void set_up_logging(const CommandLine& cl) {
  auto logger = spdlog::stderr_color_mt("cosim");
  spdlog::set_default_logger(logger);
  spdlog::set_pattern("[%l] %v");
  spdlog::set_level(cl.verbose >= 2 ? spdlog::level::debug : cl.verbose == 1 ? spdlog::level::info : spdlog::level::warn);
  if (!cl.log_level.empty()) spdlog::set_level(spdlog::level::from_str(cl.log_level));
}

// A Python script of this installation (share/cosim/scripts), or of the
// source tree in a build, run with `args` in place of this process.
[[noreturn]] void exec_script(const std::string& name, const std::vector<std::string>& args) {
  const fs::path exe = fs::canonical("/proc/self/exe");
  fs::path script = exe.parent_path().parent_path() / "share" / "cosim" / "scripts" / name;
#ifdef COSIM_SOURCE_DIR
  if (!fs::exists(script)) script = fs::path(COSIM_SOURCE_DIR) / "scripts" / name;
#endif
  if (!fs::exists(script)) throw cosim::InputError("cosim " + name + ": " + script.string() + " is not installed here");
  const std::string s = script.string();
  std::vector<const char*> argv = {"python3", s.c_str()};
  for (const std::string& a : args) argv.push_back(a.c_str());
  argv.push_back(nullptr);
  execvp("python3", const_cast<char* const*>(argv.data()));
  throw cosim::InputError("cannot run python3 " + s + ": " + std::strerror(errno));
}

// `cosim new-dut`: the template copier (scripts/new-dut).
[[noreturn]] void exec_new_dut(const CommandLine& cl) {
  if (cl.newdut_refresh) exec_script("new-dut", {"--refresh", cl.newdut_out, cl.newdut_name});
  // An imported kernel makes a Vitis-style project: --from-hls and --from-rtl imply the style.
  const bool imported = !cl.newdut_hls.empty() || !cl.newdut_rtl.empty();
  if (imported && cl.newdut->count("--style") > 0 && cl.newdut_style != "vitis") {
    throw cosim::InputError("cosim new-dut: --from-hls and --from-rtl make a Vitis-style project; --style " +
                            cl.newdut_style + " does not go with them");
  }
  if (!cl.newdut_hls.empty() && !cl.newdut_rtl.empty()) {
    throw cosim::InputError("cosim new-dut: --from-hls (a kernel HLS generated) or --from-rtl (hand-written RTL), "
                            "not both");
  }
  std::vector<std::string> args = {"--style", imported ? std::string("vitis") : cl.newdut_style};
  if (!cl.newdut_hls.empty()) args.insert(args.end(), {"--from-hls", cl.newdut_hls});
  for (const std::string& f : cl.newdut_rtl) args.insert(args.end(), {"--from-rtl", f});
  if (!cl.newdut_top.empty()) args.insert(args.end(), {"--top", cl.newdut_top});
  args.insert(args.end(), {"--standalone", cl.newdut_out, cl.newdut_name});
  exec_script("new-dut", args);
}

// `cosim suite`: the MLPerf Tiny suite (scripts/suite) over this very cosim.
[[noreturn]] void exec_suite(const CommandLine& cl) {
  std::vector<std::string> args = {"--cosim", fs::canonical("/proc/self/exe").string()};
  for (const std::string& a : cl.suite->remaining()) args.push_back(a);
  exec_script("suite", args);
}

// The built-in backends and the plugins: --dut-path, then COSIM_DUT_PATH.
// Children (a re-run around a mismatch) inherit them through the environment.
void load_backends(cosim::tb::BackendRegistry& registry, std::vector<std::string> dut_path) {
  cosim::tb::register_builtin_backends(registry);
  std::vector<std::string> env_path = cosim::tb::dut_path_from_environment();
  if (!dut_path.empty()) {
    std::string joined;
    for (const auto& d : dut_path) joined += (joined.empty() ? "" : ":") + fs::absolute(d).string();
    for (const auto& d : env_path) joined += ":" + d;
    setenv("COSIM_DUT_PATH", joined.c_str(), 1);
  }
  dut_path.insert(dut_path.end(), env_path.begin(), env_path.end());
  cosim::tb::load_plugins(registry, dut_path);
}

// `cosim run` / `cosim replay`, then on a mismatch the waveform around it.
int run_or_replay(const cosim::tb::BackendRegistry& registry, CommandLine& cl, std::optional<uint64_t> seed) {
  cosim::tb::RunOptions& opt = cl.opt;
  if (!cl.golden.empty()) cosim::ops::set_golden_engine(cosim::ops::golden_engine_from_name(cl.golden, "--golden"));
  opt.out_dir = cl.out.empty() ? cosim::tb::default_out_dir(cl.file, cl.replay->parsed()) : cl.out;
  CLI::App* cmd = cl.run->parsed() ? cl.run : cl.replay;
  if (cmd->count("--wave") > 0) opt.wave_file = cl.wave.empty() ? (fs::path(opt.out_dir) / "wave.fst").string() : cl.wave;
  if (!opt.wave_file.empty()) arm_sigbus_for_waveform(opt.wave_file);
  if (opt.wave_from > opt.wave_to) throw cosim::InputError("--wave-from must not exceed --wave-to");
  opt.wave_max_bytes = cl.max_mb << 20;
  const int rc = cl.run->parsed() ? cosim::tb::run_scenario(registry, cl.file, cl.sets, seed, opt, std::cout)
                                  : cosim::tb::replay_trace(registry, cl.file, opt, std::cout);
  if (!cosim::wave::wave_disk_full_flag().empty()) waveform_cut_short(opt.out_dir);
  if (rc == 1 && cl.around > 0) {
    cosim::wave::AroundOptions ao;
    ao.out_dir = opt.out_dir;
    ao.cycles = cl.around;
    ao.depth = opt.wave_depth;
    ao.max_bytes = opt.wave_max_bytes;
    if (cosim::wave::trace_around_mismatch(ao, std::cout)) {
      // report.json now names the window's waveform: the page's GTKWave command opens it.
      cosim::tb::report_html::rewrite_report_html({opt.out_dir, opt.program, opt.dut_path});
    }
  }
  return rc;
}

// The subcommand the command line names.
int dispatch(CommandLine& cl, const char* program) {
  if (cl.newdut->parsed()) exec_new_dut(cl);
  if (cl.suite->parsed()) exec_suite(cl);
  cosim::tb::BackendRegistry registry;
  load_backends(registry, cl.dut_path);
  cosim::tb::RunOptions& opt = cl.opt;
  if (cl.no_dmi) opt.dmi = false;
  opt.timeline = !cl.no_timeline;
  if (cl.fast) opt.fast = true;
  if (cl.no_fast) opt.fast = false;
  opt.program = program;
  // load_backends put --dut-path into COSIM_DUT_PATH: the page's commands need it for a plugin's target.
  if (const char* p = std::getenv("COSIM_DUT_PATH"); p != nullptr) opt.dut_path = p;
  if (cl.quantum > 0) opt.quantum_cycles = cl.quantum;
  if (!cl.input_slice.empty()) opt.input_slice = cosim::tb::parse_input_slice(cl.input_slice);
  std::error_code ec;  // the workers of a split run are this program (COSIM_WORKER: a wrapper of it)
  if (const fs::path self = fs::canonical("/proc/self/exe", ec); !ec) opt.executable = self.string();
  if (const char* w = std::getenv("COSIM_WORKER"); w != nullptr && *w != '\0') opt.executable = w;
  if (cl.run->parsed() || cl.replay->parsed()) return run_or_replay(registry, cl, cl.seed);
  if (cl.list->parsed()) {
    cosim::tb::print_catalog(cosim::tb::list_catalog(registry, cl.list_dir), std::cout);
    return 0;
  }
  if (cl.disasm->parsed()) {
    cosim::tb::disassemble(registry, cl.file, std::cout);
    std::cout.flush();
    if (!std::cout) throw cosim::IoError("standard output: cannot write");
    return 0;
  }
  return 0;
}

// The one line and exit status of the exception in flight (called from a
// catch block): errors are caught once, here.
int exit_status_of_current_exception(int argc, char** argv) {
  try {
    throw;
  } catch (const cosim::tb::WorkerError& e) {  // a split run's worker: its slice and how it failed
    std::cerr << "cosim: error: " << printable(e.what()) << "\n";
    return e.status();
  } catch (const cosim::InputError& e) {
    std::cerr << "cosim: error: " << printable(e.what()) << "\n";
    return 2;
  } catch (const cosim::TimeoutError& e) {
    std::cerr << "cosim: timeout: " << printable(e.what()) << "\n";
    return 3;
  } catch (const cosim::IoError& e) {
    std::cerr << "cosim: I/O error: " << printable(e.what()) << "\n";
    return 5;
  } catch (const fs::filesystem_error& e) {
    // A path the user gave (ENOTDIR, EEXIST, EACCES, ...) or a full disk.
    const int code = e.code().value();
    std::cerr << (is_io_errno(code) ? "cosim: I/O error: " : "cosim: error: ") << cosim::one_line(e.what()) << "\n";
    return is_io_errno(code) ? 5 : 2;
  } catch (const std::bad_alloc&) {
    // Every size is bounded before it is allocated: running out is a missed bound.
    std::cerr << "cosim: internal error: out of memory (a size this tool should have bounded); please report it "
                 "with the command line: "
              << command_line(argc, argv) << "\n";
    return 4;
  } catch (const std::exception& e) {
    std::cerr << "cosim: internal error: " << cosim::one_line(e.what())
              << "; please report it with the command line: " << command_line(argc, argv) << "\n";
    return 4;
  }
}

}  // namespace

int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  // Over `ulimit -f` a write fails with EFBIG (exit 5 naming the file)
  // instead of the process dying of SIGXFSZ.
  std::signal(SIGXFSZ, SIG_IGN);
  CLI::App app{"cosim: bit-exact co-simulation of NN accelerators (SystemC TLM-2.0 + Verilator)", "cosim"};
  CommandLine cl;
  define_commands(app, cl);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "cosim: error: " << cosim::one_line(e.what()) << " (see cosim --help)\n";
    return 2;
  }
  set_up_logging(cl);
  if (!cpu_runs_this_build()) {
    std::cerr << "cosim: this build needs an x86-64-v3 CPU (AVX2, FMA, BMI2) and this one lacks it; "
                 "rebuild with -DCOSIM_ARCH=auto or portable\n";
    return 4;
  }
  try {
    return dispatch(cl, argv[0]);
  } catch (...) {
    return exit_status_of_current_exception(argc, argv);
  }
}
