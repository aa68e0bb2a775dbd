// Testbench configurations that must take exactly as many cycles as the one
// they come from: DMI and the temporal-decoupling quantum are simulation
// speed-ups, never timing. A test runs the base and each variant and compares
// their cycle counts.
#pragma once

#include "tlm/tb_config.hpp"

namespace cosim::test {

struct SameCycleConfigs {
  tb::TbConfig no_dmi_quantum_1;  // every access through b_transport, a sync every cycle
  tb::TbConfig odd_quantum;       // a small odd quantum between those two
};

inline SameCycleConfigs same_cycle_configs(const tb::TbConfig& base) {
  SameCycleConfigs v{base, base};
  v.no_dmi_quantum_1.dmi = false;
  v.no_dmi_quantum_1.quantum_cycles = 1;
  v.odd_quantum.quantum_cycles = 37;
  return v;
}

}  // namespace cosim::test
