// Who a run is: the names its report.json and console summary open with.
#pragma once

#include <cstdint>
#include <string>

namespace cosim::tb {

struct RunContext {
  std::string scenario;  // name
  std::string target;
  std::string op;
  uint64_t seed = 0;
  std::string summary;  // the workload in one line ("replay of DIR" on a replay)
  // The scenario's `fault:` (a protocol fault the testbench injects on
  // purpose), "" for none: what the DUT's checkers then see is not the DUT's.
  std::string fault;
  // The DUT's Verilated build: "checked" (the default, with the assertions
  // its manifest enables) or "fast" (none: cosim run --fast). DutWrapper::build.
  std::string build = "checked";
  // The DUT's clocks when it has several (TargetBackend::clocks()), "" for one.
  std::string clocks = "";
};

}  // namespace cosim::tb
