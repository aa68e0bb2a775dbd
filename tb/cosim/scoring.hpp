// Score: every check of a finished simulation compared against its expected
// tensor (tb/scoreboard), and every register check, into what report.json
// and the console summary show, plus the verdict PASS / FAIL / NO CHECK.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cosim/backend.hpp"
#include "scoreboard/scoreboard.hpp"
#include "scoreboard/write_log.hpp"

namespace cosim::tb {

// The first divergence: of the mismatches listed, the one the DUT wrote
// earliest (never-written elements last), ties by check order and index.
struct FirstMismatch {
  std::string check;
  Mismatch mismatch;
};

constexpr std::size_t kRegisterChecksListed = 1000;

// A mismatch's value for report.json: the integer its text holds, exactly (any 64-bit one), else
// the number.
nlohmann::json value_json(const std::string& text, double value);

struct Scores {
  nlohmann::json checks = nlohmann::json::array();  // report.json "mismatch.checks"
  int64_t mismatches = 0;
  int64_t elements = 0;
  std::vector<std::string> mismatch_lines;  // console, the listed mismatches of every check
  std::vector<std::string> weak_names;      // weak checks (scoreboard/check_strength.hpp)
  std::vector<std::string> weak_lines;
  std::optional<FirstMismatch> first_mismatch;
  // Each check's distances to the reference semantics, with the check named.
  nlohmann::json distances = nlohmann::json::array();

  // report.json "register_checks": every check up to kRegisterChecksListed of them, else only the
  // failing ones up to that many (a batch of calls checks thousands of registers).
  nlohmann::json register_checks = nlohmann::json::array();
  int64_t register_count = 0, register_failed = 0;
  bool register_all_listed = true;
  std::vector<std::string> register_lines;  // console: the first max_report failing register checks
  std::optional<RegCheck> first_register_failure;  // in trace order
};

// `max_report`: mismatches listed per check; `log` names the cycle of the
// DUT's write into each mismatching element. `workload` is null on a replay
// without its scenario (no distances then).
Scores score_checks(const PlayResult& play, const Workload* workload, std::size_t max_report, const WriteLog& log);

struct Verdict {
  bool checked = false;  // at least one compared element or register check
  bool pass = false;
  std::string status;  // report.json "status": pass | mismatch | dut_error | no_check
  std::string no_check_reason;  // why nothing was checked, "" when something was
};

Verdict verdict(const Scores& scores, const PlayResult& play, const std::vector<std::string>& dut_errors);

}  // namespace cosim::tb
