// The `@NAME@` target's op `call`: one call of the kernel described by the
// scenario alone, its arguments by the register names of rtl/@NAME@/@NAME@.yaml
// and its buffers loaded from and checked against .npy files (cosim/ap_call_op.hpp).
// A kernel whose arguments are registers and buffers needs no other operator.
#include "cosim/ap_call_op.hpp"
#include "dut/@NAME@_pins.hpp"
#include "dut/@NAME@_regs.hpp"

namespace cosim::tb::@NAME@ {

std::unique_ptr<tb::Operator> make_call_op() {
  return tb::make_ap_call_op<cosim::@NAME@::pins::Top>(cosim::@NAME@::regs::kRegisters);
}

}  // namespace cosim::tb::@NAME@
