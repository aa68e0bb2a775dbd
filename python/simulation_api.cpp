#include "simulation_api.hpp"

#include <pybind11/stl.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "common/error.hpp"
#include "cosim/backend.hpp"
#include "cosim/catalog.hpp"
#include "cosim/plugins.hpp"
#include "cosim/runner.hpp"
#include "child_process.hpp"
#include "numpy_tensor.hpp"

namespace py = pybind11;
namespace fs = std::filesystem;
using nlohmann::json;

namespace cosim::python {

namespace {

// What a finished run gives back; tensors as NumPy arrays by name.
struct RunResult {
  int exit_status = 0;  // as `cosim run`: 0 bit-exact, 1 mismatch (elements or a register check) / no check / assertion
  std::string status;   // report["status"]: pass, mismatch, no_check, assertion, skipped, ...
  py::dict report;      // report.json
  py::dict outputs;     // the DUT's outputs, by check name
  py::dict expected;    // the golden outputs, by check name
  py::dict inputs;      // the workload's inputs (a replay has none)
  std::string console;  // the summary `cosim run` prints
  std::string out_dir;
};

// A str or an os.PathLike (pathlib.Path) argument as a path string.
std::string path_arg(const py::object& v, const char* what) {
  try {
    return py::module_::import("os").attr("fspath")(v).cast<std::string>();
  } catch (const py::error_already_set&) {
    throw InputError(std::string(what) + ": expected a path (str or pathlib.Path), got a " +
                     py::str(py::type::of(v).attr("__name__")).cast<std::string>());
  }
}

struct Options {
  py::object out;    // None: out/<name> as the CLI
  py::object trace;  // None / False: no waveform; True: <out>/wave.fst; a path: that file
  std::size_t max_mismatches = 10;
};

tb::RunOptions run_options(const Options& o, const std::string& default_out) {
  tb::RunOptions opt;
  opt.out_dir = o.out.is_none() ? default_out : path_arg(o.out, "out");
  opt.dump = true;  // the tensors come back through <out>/*.npy (report "npy_dumps")
  opt.max_report = o.max_mismatches;
  // The report page's replay command needs the plugin folders, as the CLI's does.
  if (const char* p = std::getenv("COSIM_DUT_PATH"); p != nullptr) opt.dut_path = p;
  if (py::isinstance<py::bool_>(o.trace)) {
    if (o.trace.cast<bool>()) opt.wave_file = (fs::path(opt.out_dir) / "wave.fst").string();
  } else if (!o.trace.is_none()) {
    opt.wave_file = path_arg(o.trace, "trace");
  }
  return opt;
}

// SystemC elaborates once per process: each run is a forked child, which
// also keeps a crash of the simulation out of the Python process. The child
// reports its exit status or the error it stopped on; Ctrl-C stops it and
// raises KeyboardInterrupt, and it dies with the Python process
// (child_process.hpp).
json in_simulation_child(const std::function<int(const tb::BackendRegistry&, std::ostream&)>& body) {
  return run_in_child([&] {
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    // Warnings to stderr, as the CLI prints them; the summary is returned.
    spdlog::set_default_logger(spdlog::stderr_color_mt("cosim"));
    spdlog::set_pattern("[%l] %v");
    spdlog::set_level(spdlog::level::warn);
    std::ostringstream console;
    try {
      tb::BackendRegistry registry;
      tb::register_builtin_backends(registry);
      tb::load_plugins(registry, tb::dut_path_from_environment());  // accelerators built elsewhere
      const int rc = body(registry, console);
      return json{{"exit_status", rc}, {"console", console.str()}};
    } catch (const InputError& e) {
      return json{{"error", "input"}, {"what", e.what()}};
    } catch (const TimeoutError& e) {
      return json{{"error", "timeout"}, {"what", e.what()}};
    }
  });
}

py::dict read_json_file(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return py::module_::import("json").attr("loads")(text.str());
}

py::dict read_npy_group(const py::dict& files) {
  py::dict out;
  for (const auto& [name, file] : files) out[name] = to_numpy(read_npy(file.cast<std::string>()));
  return out;
}

RunResult finish(const json& child, const tb::RunOptions& opt) {
  if (child.contains("error")) {
    const std::string what = child["what"].get<std::string>();
    if (child["error"] == "timeout") throw TimeoutError(what + " (report: " + opt.out_dir + "/report.json)");
    throw InputError(what);
  }
  if (child.contains("child_error")) {
    throw std::runtime_error("cosim: the simulation process failed: " + child["child_error"].get<std::string>());
  }
  if (child.contains("exception")) throw std::runtime_error("cosim: internal error: " + child["what"].get<std::string>());
  RunResult r;
  r.exit_status = child["exit_status"].get<int>();
  r.console = child["console"].get<std::string>();
  r.out_dir = opt.out_dir;
  r.report = read_json_file(fs::path(opt.out_dir) / "report.json");
  r.status = r.report.contains("status") ? r.report["status"].cast<std::string>() : "";
  if (r.report.contains("npy_dumps")) {
    const py::dict dumps = r.report["npy_dumps"];
    if (dumps.contains("actual")) r.outputs = read_npy_group(dumps["actual"]);
    if (dumps.contains("expected")) r.expected = read_npy_group(dumps["expected"]);
    if (dumps.contains("inputs")) r.inputs = read_npy_group(dumps["inputs"]);
  }
  return r;
}

// A `set=` value as the YAML text of `--set key=value`: JSON is YAML, and
// json.dumps keeps Python's types (a str stays a string, a list a list).
std::string yaml_text(const std::string& key, py::handle value) {
  py::object v = py::reinterpret_borrow<py::object>(value);
  if (py::hasattr(v, "tolist")) v = v.attr("tolist")();  // NumPy scalars and arrays
  try {
    return py::module_::import("json").attr("dumps")(v).cast<std::string>();
  } catch (const py::error_already_set&) {
    throw InputError("set['" + key + "']: a " + py::str(py::type::of(value).attr("__name__")).cast<std::string>() +
                     "; expected a number, a string, a bool, or a list / dict of them");
  }
}

std::vector<std::string> overrides_of(const std::optional<py::dict>& set) {
  std::vector<std::string> out;
  if (!set) return out;
  for (const auto& [k, v] : *set) {
    if (!py::isinstance<py::str>(k)) throw InputError("set: keys are key paths such as 'shapes.input' (strings)");
    const std::string key = k.cast<std::string>();
    out.push_back(key + "=" + yaml_text(key, v));
  }
  return out;
}

std::map<std::string, Tensor> tensors_of(const std::optional<py::dict>& inputs) {
  std::map<std::string, Tensor> out;
  if (!inputs) return out;
  for (const auto& [k, v] : *inputs) {
    if (!py::isinstance<py::str>(k)) throw InputError("inputs: keys are tensor names such as 'input' (strings)");
    const std::string name = k.cast<std::string>();
    if (!py::isinstance<py::array>(v)) throw InputError("inputs['" + name + "']: expected a NumPy array");
    out[name] = to_tensor(py::reinterpret_borrow<py::array>(v), "inputs['" + name + "']");
  }
  return out;
}

RunResult run(const py::object& scenario_arg, std::optional<int64_t> seed, const std::optional<py::dict>& set,
              const std::optional<py::dict>& inputs, const Options& o) {
  const std::string scenario = path_arg(scenario_arg, "scenario");
  if (seed && *seed < 0) throw InputError("seed: expected an integer >= 0, got " + std::to_string(*seed));
  const std::vector<std::string> overrides = overrides_of(set);
  const std::map<std::string, Tensor> tensors = tensors_of(inputs);
  const std::optional<uint64_t> seed_u = seed ? std::optional<uint64_t>(static_cast<uint64_t>(*seed)) : std::nullopt;
  const tb::RunOptions opt = run_options(o, tb::default_out_dir(scenario, false));
  return finish(in_simulation_child([&](const tb::BackendRegistry& reg, std::ostream& console) {
                  return tb::run_scenario(reg, scenario, overrides, seed_u, opt, console, tensors);
                }),
                opt);
}

RunResult replay(const py::object& dir_arg, const Options& o) {
  const std::string dir = path_arg(dir_arg, "dir");
  const tb::RunOptions opt = run_options(o, tb::default_out_dir(dir, true));
  return finish(in_simulation_child([&](const tb::BackendRegistry& reg, std::ostream& console) {
                  return tb::replay_trace(reg, dir, opt, console);
                }),
                opt);
}

py::dict list(const py::object& dir) {
  tb::BackendRegistry registry;
  tb::register_builtin_backends(registry);
  tb::load_plugins(registry, tb::dut_path_from_environment());
  const tb::Catalog c = tb::list_catalog(registry, dir.is_none() ? "" : path_arg(dir, "dir"));
  py::list scenarios, targets;
  for (const auto& s : c.scenarios) {
    scenarios.append(py::dict(py::arg("name") = s.name, py::arg("file") = s.file, py::arg("target") = s.target,
                              py::arg("op") = s.op, py::arg("description") = s.description));
  }
  for (const auto& t : c.targets) {
    targets.append(py::dict(py::arg("name") = t.name, py::arg("description") = t.description,
                            py::arg("ops") = py::cast(t.ops), py::arg("origin") = t.origin));
  }
  return py::dict(py::arg("dir") = c.dir, py::arg("scenarios") = scenarios, py::arg("targets") = targets);
}

}  // namespace

void bind_simulation(py::module_& m) {
  py::class_<RunResult>(m, "RunResult", "The outcome of cosim.run / cosim.replay.")
      .def_readonly("exit_status", &RunResult::exit_status,
                    "as `cosim run`: 0 bit-exact, 1 mismatch (elements or a register check), no check or RTL "
                    "assertion")
      .def_readonly("status", &RunResult::status,
                    "report['status']: pass, mismatch (an element or a reg_check), no_check, assertion, skipped")
      .def_property_readonly(
          "register_checks",
          [](const RunResult& r) -> py::object {
            if (!r.report.contains("register_checks")) return py::list();
            return py::dict(r.report["register_checks"])["checks"];
          },
          "the trace's reg_check steps in order (report['register_checks']['checks']), every one up to 1000, else "
          "the failing ones (report['register_checks']['listed']): dicts with name, offset, value, expected, mask, "
          "held, cycle, line, text")
      .def_property_readonly("passed", [](const RunResult& r) { return r.status == "pass"; }, "bit-exact")
      .def_readonly("report", &RunResult::report, "report.json as a dict")
      .def_readonly("outputs", &RunResult::outputs, "the DUT's outputs by check name (NumPy arrays)")
      .def_readonly("expected", &RunResult::expected, "the golden outputs by check name (NumPy arrays)")
      .def_readonly("inputs", &RunResult::inputs, "the workload's input tensors by name (empty for a replay)")
      .def_readonly("console", &RunResult::console, "the one-screen summary `cosim run` prints")
      .def_readonly("out_dir", &RunResult::out_dir, "where report.json, trace/ and the .npy dumps are")
      .def("__repr__", [](const RunResult& r) {
        return "<cosim.RunResult status=" + r.status + " exit_status=" + std::to_string(r.exit_status) +
               " out_dir=" + r.out_dir + ">";
      });

  m.def(
      "run",
      [](const py::object& scenario, std::optional<int64_t> seed, std::optional<py::dict> set,
         std::optional<py::dict> inputs, py::object out, py::object trace, std::size_t max_mismatches) {
        return run(scenario, seed, set, inputs, Options{out, trace, max_mismatches});
      },
      py::arg("scenario"), py::arg("seed") = py::none(), py::arg("set") = py::none(), py::arg("inputs") = py::none(),
      py::kw_only(), py::arg("out") = py::none(), py::arg("trace") = py::none(), py::arg("max_mismatches") = 10,
      R"(Run a scenario on its target's RTL, as `cosim run` does.

seed: overrides the scenario's seed. set: {"key.path": value} overrides
(`--set`), values as YAML (lists, ints, floats, strings). inputs: {"name":
array} in-memory tensors for data.<name> (or a model scenario's top-level
key), checked like {npy: file}. out: output folder (default out/<stem>,
relative to the working directory). trace: True or an .fst path for a
waveform. Raises cosim.InputError on bad input, cosim.SimulationTimeout when
the DUT hangs; a mismatch is a result (status 'mismatch'), not an error.
A RunResult's tensors feed back as inputs (bf16 as uint16 bits). Ctrl-C
stops the simulation process and raises KeyboardInterrupt.)");

  m.def(
      "replay",
      [](const py::object& dir, py::object out, py::object trace, std::size_t max_mismatches) {
        return replay(dir, Options{out, trace, max_mismatches});
      },
      py::arg("dir"), py::kw_only(), py::arg("out") = py::none(), py::arg("trace") = py::none(),
      py::arg("max_mismatches") = 10,
      "Replay a trace directory (or a raw VTA program: insn.bin + dram.bin), as `cosim replay` does. A failing "
      "reg_check is a result (status 'mismatch', RunResult.register_checks); a reg_poll or wait_irq past its "
      "budget raises cosim.SimulationTimeout.");

  m.def("list", &list, py::arg("dir") = py::none(),
        "The scenarios of a folder (default ./scenarios, else the source tree's) and the registered targets, "
        "as `cosim list` shows them: {'dir', 'scenarios': [{name, file, target, op, description}], "
        "'targets': [{name, description, ops}]}.");
}

}  // namespace cosim::python
