// Helpers of the waveform tests: run a program, read an FST back through
// Debian's fst2vcd (an independent reader: GTKWave's own converter) into a
// small VCD model, read report.json.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/scratch_dir.hpp"

namespace wavetest {

// Exit status of `cmd` run by the shell (stdout/stderr to `log` when given).
int run(const std::string& cmd, const std::string& log = "");

struct Vcd {
  std::string timescale;
  std::vector<std::string> names;       // full dotted names, ranges stripped, in file order
  std::map<std::string, std::string> id;  // name -> VCD id
  std::map<std::string, int> width;     // name -> bits
  std::vector<uint64_t> times;          // every #time, in order
  // id -> (time, value as a binary string, MSB first, zero-extended to width)
  std::map<std::string, std::vector<std::pair<uint64_t, std::string>>> changes;

  bool has(const std::string& name) const { return id.count(name) != 0; }
  // Value of `name` at `time` (the last change at or before it); throws when absent.
  std::string at(const std::string& name, uint64_t time) const;
  uint64_t at_u64(const std::string& name, uint64_t time) const;
};

// fst2vcd on `fst`; throws std::runtime_error when it fails.
Vcd read_fst(const std::string& fst);

nlohmann::json read_json(const std::string& path);

// A fresh folder per case, <artifacts>/scratch/wave_<pid>/<name> (support/scratch_dir.hpp).
// Inline: wave_unit_test includes this header without linking wave_test_util.cpp.
inline std::string fresh_dir(const std::string& name) { return cosim::test::fresh_dir("wave", name); }

// scenarios/<name>.yaml of the source tree.
std::string scenario(const std::string& name);
// `<binary> run <scenario> --out <dir> <args>`, logged to <dir>.log; the exit status.
int cosim_run(const std::string& binary, const std::string& scen, const std::string& dir, const std::string& args);

}  // namespace wavetest
