// The host initiator: plays a trace from an SC_THREAD. Memory loads are
// b_transport writes to the DRAM target; register writes and reads go
// through TLM (b_transport) to the DUT's register target; wait_done and
// wait_irq run the DUT for at most their budget, reg_poll reads until the
// register matches or its budget is spent (cosim::TimeoutError with the DUT's
// diagnosis otherwise); reg_check keeps the value read for the scoreboard;
// memory checks and dumps read memory through the zero-time debug transport
// and keep both tensors for the scoreboard. Errors are kept and rethrown
// after sc_start returns.
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
  // Stream checks, where the DUT's wrapper keeps them: the cycle each byte
  // was handed over (empty otherwise).
  std::vector<uint64_t> stream_cycles;
};

// One reg_check step: a register read that must give
// (value & mask) == (expected & mask).
struct RegCheck {
  std::string name;     // the register's name in the trace
  uint32_t offset = 0;
  uint32_t value = 0;   // read
  uint32_t expected = 0;
  uint32_t mask = 0;
  int line = 0;         // trace.txt line when known
  uint64_t cycle = 0;   // DUT cycle when the read completed
  bool held() const { return (value & mask) == (expected & mask); }
  // "register CTRL (0x0): read 0x00000004, expected 0x00000002 under mask 0x00000002"
  std::string text() const;
};

struct PlayResult {
  std::vector<CheckCapture> checks;
  std::vector<RegCheck> reg_checks;  // in trace order, held or not
  std::vector<std::string> dumps;  // files written to the output directory
  // Stream checks of packets (a stream_check's packets=BYTES) whose TLAST was elsewhere: one line each.
  std::vector<std::string> framing_errors;
  uint64_t done_cycles = 0;        // DUT cycle count when the last wait_done / wait_irq finished
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
  // One method per step that does more than one call (step() dispatches).
  void check_register(const trace::Step& s);
  void poll_register(const trace::Step& s);
  void wait_irq(const trace::Step& s);
  void wait_done(const trace::Step& s);
  void capture_check(const trace::Step& s);
  void check_packets(const trace::Step& s, std::size_t got);
  void dump_memory(const trace::Step& s);
  void mem_write(uint64_t addr, const std::vector<uint8_t>& data, const trace::Step& s);
  // One 32-bit register access through reg_socket (TLM b_transport).
  uint32_t reg_access(tlm::tlm_command cmd, uint64_t offset, uint32_t value, const trace::Step& s);
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
