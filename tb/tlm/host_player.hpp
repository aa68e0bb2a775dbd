// The host initiator: plays a trace from an SC_THREAD. Memory loads are
// b_transport writes to the DRAM target; register writes go through TLM to
// the DUT's register target; wait_done runs the DUT for at most its budget
// (cosim::TimeoutError with the DUT's diagnosis otherwise); checks and dumps
// read memory through the zero-time debug transport and keep both tensors
// for the scoreboard. Errors are kept and rethrown after sc_start returns.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "tensor/tensor.hpp"
#include "tlm/dut_wrapper.hpp"
#include "trace/trace.hpp"

namespace cosim::tb {

struct CheckCapture {
  trace::TensorDesc desc;
  int line = 0;                       // trace.txt line when known
  std::optional<uint64_t> base_addr;  // memory checks
  std::string stream;                 // stream checks
  Tensor expected;
  Tensor actual;
  // Memory checks with a write log (simulate()): the DUT cycle of its last
  // write into the checked bytes, none when it wrote none.
  std::optional<uint64_t> last_write_cycle;
};

struct PlayResult {
  std::vector<CheckCapture> checks;
  std::vector<std::string> dumps;  // files written to the output directory
  uint64_t done_cycles = 0;        // DUT cycle count when the last wait_done finished
};

class HostPlayer : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<HostPlayer> mem_socket;
  tlm_utils::simple_initiator_socket<HostPlayer> reg_socket;

  // `out_dir` receives mem_dump files (created when needed).
  HostPlayer(sc_core::sc_module_name name, const trace::Trace& trace, DutWrapper& dut, std::string out_dir);

  const PlayResult& result() const { return result_; }
  std::exception_ptr error() const { return error_; }
  bool finished() const { return finished_; }

 private:
  void play();
  void step(const trace::Step& s);
  void mem_write(uint64_t addr, const std::vector<uint8_t>& data, const trace::Step& s);
  std::vector<uint8_t> mem_peek(uint64_t addr, std::size_t len, const trace::Step& s);
  std::string where(const trace::Step& s) const;

  const trace::Trace& trace_;
  DutWrapper& dut_;
  std::string out_dir_;
  PlayResult result_;
  std::exception_ptr error_;
  bool finished_ = false;
};

}  // namespace cosim::tb
