#include "tlm/host_player.hpp"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "common/text.hpp"
#include "tlm/progress_line.hpp"

namespace cosim::tb {

namespace {

// A register value as the register holds it: 0x00000004.
std::string hex32(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

std::string matches_text(uint32_t expected, uint32_t mask) {
  return "expected " + hex32(expected) + " under mask " + hex32(mask);
}

}  // namespace

std::string RegCheck::text() const {
  return "register " + name + " (" + hex(offset) + "): read " + hex32(value) + ", " + matches_text(expected, mask);
}

HostPlayer::HostPlayer(sc_core::sc_module_name name, const trace::Trace& trace, DutWrapper& dut, std::string out_dir)
    : sc_core::sc_module(name),
      mem_socket("mem_socket"),
      reg_socket("reg_socket"),
      trace_(trace),
      dut_(dut),
      out_dir_(std::move(out_dir)) {
  SC_HAS_PROCESS(HostPlayer);
  SC_THREAD(play);
}

std::string HostPlayer::where(const trace::Step& s) const {
  std::string w = std::string("trace step ") + trace::op_name(s.op);
  if (s.line > 0) w += " (trace.txt:" + std::to_string(s.line) + ")";
  return w;
}

void HostPlayer::play() {
  // A run of the DUT ends where the host waits for it to finish.
  const auto ends_run = [](trace::Op op) { return op == trace::Op::kWaitDone || op == trace::Op::kWaitIrq; };
  try {
    // Long traces (a network, several inputs) show which run is going on:
    // runs done / all, named by the first check after each run.
    std::vector<std::string> run_names;
    for (std::size_t i = 0; i < trace_.steps.size(); ++i) {
      if (!ends_run(trace_.steps[i].op)) continue;
      std::string name = "run " + std::to_string(run_names.size());
      for (std::size_t j = i + 1; j < trace_.steps.size(); ++j) {
        const trace::Op op = trace_.steps[j].op;
        if (ends_run(op)) break;
        if (op == trace::Op::kMemCheck || op == trace::Op::kStreamCheck) {
          name = trace_.steps[j].tensor.name;
          break;
        }
      }
      run_names.push_back(std::move(name));
    }
    ProgressLine progress("running");
    std::size_t runs = 0;
    for (const trace::Step& s : trace_.steps) {
      if (ends_run(s.op) && run_names.size() > 1) progress.update(runs, run_names.size(), run_names[runs]);
      step(s);
      runs += ends_run(s.op) ? 1 : 0;
    }
    progress.finish();
    finished_ = true;
  } catch (...) {
    error_ = std::current_exception();
  }
  sc_core::sc_stop();
}

void HostPlayer::mem_write(uint64_t addr, const std::vector<uint8_t>& data, const trace::Step& s) {
  if (data.empty()) return;
  tlm::tlm_generic_payload p;
  p.set_command(tlm::TLM_WRITE_COMMAND);
  p.set_address(addr);
  p.set_data_ptr(const_cast<uint8_t*>(data.data()));
  p.set_data_length(static_cast<unsigned>(data.size()));
  p.set_streaming_width(static_cast<unsigned>(data.size()));
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  mem_socket->b_transport(p, delay);
  if (p.is_response_error()) {
    throw InputError(where(s) + ": cannot load " + std::to_string(data.size()) + " bytes at " + hex(addr) + ": " +
                     p.get_response_string() + " (DRAM size " + hex(dut_.config().dram_size) + ")");
  }
  sc_core::wait(delay);
}

uint32_t HostPlayer::reg_access(tlm::tlm_command cmd, uint64_t offset, uint32_t value, const trace::Step& s) {
  uint32_t v = value;
  tlm::tlm_generic_payload p;
  p.set_command(cmd);
  p.set_address(offset);
  p.set_data_ptr(reinterpret_cast<unsigned char*>(&v));
  p.set_data_length(4);
  p.set_streaming_width(4);
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  reg_socket->b_transport(p, delay);
  if (p.is_response_error()) {
    throw InputError(where(s) + ": register " + (cmd == tlm::TLM_READ_COMMAND ? "read " : "write ") + hex(offset) +
                     " rejected: " + p.get_response_string());
  }
  sc_core::wait(delay);
  return v;
}

std::vector<uint8_t> HostPlayer::mem_peek(uint64_t addr, std::size_t len, const trace::Step& s) {
  std::vector<uint8_t> out(len);
  tlm::tlm_generic_payload p;
  p.set_command(tlm::TLM_READ_COMMAND);
  p.set_address(addr);
  p.set_data_ptr(out.data());
  p.set_data_length(static_cast<unsigned>(len));
  if (mem_socket->transport_dbg(p) != len) {
    throw InputError(where(s) + ": cannot read " + std::to_string(len) + " bytes at " + hex(addr) +
                     " (DRAM size " + hex(dut_.config().dram_size) + ")");
  }
  return out;
}

void HostPlayer::step(const trace::Step& s) {
  switch (s.op) {
    case trace::Op::kMemLoad: mem_write(s.addr, s.data, s); break;
    case trace::Op::kRegWrite: reg_access(tlm::TLM_WRITE_COMMAND, s.addr, static_cast<uint32_t>(s.value), s); break;
    case trace::Op::kRegCheck: check_register(s); break;
    case trace::Op::kRegPoll: poll_register(s); break;
    case trace::Op::kWaitIrq: wait_irq(s); break;
    case trace::Op::kStreamSend: dut_.stream_send(s.stream, s.data); break;
    case trace::Op::kWaitDone: wait_done(s); break;
    case trace::Op::kMemCheck:
    case trace::Op::kStreamCheck: capture_check(s); break;
    case trace::Op::kMemDump: dump_memory(s); break;
  }
}

void HostPlayer::check_register(const trace::Step& s) {
  RegCheck c;
  c.name = s.reg_name;
  c.offset = static_cast<uint32_t>(s.addr);
  c.expected = s.expected;
  c.mask = s.mask;
  c.line = s.line;
  c.value = reg_access(tlm::TLM_READ_COMMAND, s.addr, 0, s);
  c.cycle = dut_.cycles();
  result_.reg_checks.push_back(std::move(c));
}

// Back-to-back reads, each costing the register port's cycles. The budget is
// checked before every read; a read is counted as at least one cycle, so a
// DUT whose reads take no clock cannot poll forever.
void HostPlayer::poll_register(const trace::Step& s) {
  const uint64_t start = dut_.cycles();
  uint64_t reads = 0;
  uint32_t v = 0;
  for (;;) {
    const uint64_t spent = dut_.cycles() - start;
    if (spent > s.value || reads > s.value) {
      throw TimeoutError("register " + s.reg_name + " (" + hex(s.addr) + ") did not match within " +
                         std::to_string(s.value) + " cycles (" + where(s) + "): last read " + hex32(v) + ", " +
                         matches_text(s.expected, s.mask) + ", " + std::to_string(spent) + " cycles and " +
                         std::to_string(reads) + " reads spent: " + dut_.diagnosis());
    }
    v = reg_access(tlm::TLM_READ_COMMAND, s.addr, 0, s);
    ++reads;
    if ((v & s.mask) == (s.expected & s.mask)) break;
  }
}

void HostPlayer::wait_irq(const trace::Step& s) {
  const uint64_t start = dut_.cycles();
  bool seen = false;
  try {
    seen = dut_.run_until_irq(s.value);
  } catch (const InputError& e) {
    throw InputError(where(s) + ": " + e.what());
  }
  if (!seen) {
    throw TimeoutError("DUT did not raise its interrupt within " + std::to_string(s.value) + " cycles (" + where(s) +
                       ", " + std::to_string(dut_.cycles() - start) + " cycles run): " + dut_.diagnosis());
  }
  result_.done_cycles = dut_.cycles();
}

void HostPlayer::wait_done(const trace::Step& s) {
  const uint64_t start = dut_.cycles();
  if (!dut_.run(s.value)) {
    throw TimeoutError("DUT did not finish within " + std::to_string(s.value) + " cycles (" + where(s) + ", " +
                       std::to_string(dut_.cycles() - start) + " cycles run): " + dut_.diagnosis());
  }
  result_.done_cycles = dut_.cycles();
}

// A memory or stream check: what the DUT wrote, kept for the scoreboard.
void HostPlayer::capture_check(const trace::Step& s) {
  CheckCapture c;
  c.desc = s.tensor;
  c.line = s.line;
  c.expected = Tensor(s.tensor.dtype, s.tensor.shape, s.tensor.layout);
  if (c.expected.nbytes() != s.data.size()) {
    throw InputError(where(s) + ": check '" + s.tensor.name + "' has " + std::to_string(s.data.size()) +
                     " expected bytes, its shape needs " + std::to_string(c.expected.nbytes()));
  }
  c.expected.bytes() = s.data;
  c.actual = Tensor(s.tensor.dtype, s.tensor.shape, s.tensor.layout);
  if (s.op == trace::Op::kMemCheck) {
    c.base_addr = s.addr;
    if (s.tensor.strided()) {  // channel-blocked or row-pitched in memory: gather the NHWC tensor
      const std::vector<uint8_t> mem = mem_peek(s.addr, s.tensor.memory_bytes(), s);
      const std::size_t esize = dtype_size(s.tensor.dtype);
      for (int64_t i = 0; i < s.tensor.numel(); ++i) {
        std::memcpy(c.actual.bytes().data() + i * esize, mem.data() + s.tensor.memory_offset(i), esize);
      }
    } else {
      c.actual.bytes() = mem_peek(s.addr, s.data.size(), s);
    }
  } else {
    c.stream = s.stream;
    // A DUT without a done (a free-running stream kernel) gives its output
    // while the host waits for it: the testbench's budget bounds the wait.
    const uint64_t start = dut_.cycles(), budget = dut_.config().timeout_cycles;
    if (!dut_.stream_wait(s.stream, s.data.size(), budget)) {
      throw TimeoutError("stream " + s.stream + " did not give the " + std::to_string(s.data.size()) +
                         " bytes of check '" + s.tensor.name + "' within " + std::to_string(budget) + " cycles (" +
                         where(s) + ", " + std::to_string(dut_.cycles() - start) + " cycles run): " + dut_.diagnosis());
    }
    std::vector<uint8_t> got = dut_.stream_receive(s.stream, s.data.size());
    c.stream_cycles = dut_.last_receive_cycles();
    if (s.value > 0) check_packets(s, got.size());
    got.resize(s.data.size());  // a short stream compares as zeros; the DUT reports the shortfall
    c.actual.bytes() = std::move(got);
  }
  result_.checks.push_back(std::move(c));
}

// A stream check of packets: the DUT ended a packet (TLAST) after every `s.value` bytes it gave,
// and nowhere else.
void HostPlayer::check_packets(const trace::Step& s, std::size_t got) {
  const std::optional<std::vector<std::size_t>> ends = dut_.last_receive_packet_ends();
  if (!ends) {
    throw InputError(where(s) + ": check '" + s.tensor.name + "' of packets, but " + dut_.name() +
                     "'s wrapper does not report TLAST (a project made before: cosim new-dut NAME --out DIR --refresh)");
  }
  std::vector<std::size_t> want;
  for (std::size_t at = s.value; at <= got; at += s.value) want.push_back(at);
  if (*ends == want) return;
  std::size_t i = 0;
  while (i < ends->size() && i < want.size() && (*ends)[i] == want[i]) ++i;
  const std::string stream = "stream " + s.stream + " (check '" + s.tensor.name + "', packets of " +
                             std::to_string(s.value) + " bytes): ";
  if (i < ends->size() && (i >= want.size() || (*ends)[i] < want[i])) {
    result_.framing_errors.push_back(stream + "TLAST after byte " + std::to_string((*ends)[i]) + ", inside packet " +
                                     std::to_string(i) + ", which ends after byte " +
                                     std::to_string(i < want.size() ? want[i] : got));
  } else {
    result_.framing_errors.push_back(stream + "no TLAST at the end of packet " + std::to_string(i) + " (after byte " +
                                     std::to_string(want[i]) + ")");
  }
}

void HostPlayer::dump_memory(const trace::Step& s) {
  const std::vector<uint8_t> bytes = mem_peek(s.addr, s.value, s);
  std::filesystem::create_directories(out_dir_);
  const std::string path = (std::filesystem::path(out_dir_) / s.file).string();
  trace::write_file_bytes(path, bytes);
  result_.dumps.push_back(path);
}

}  // namespace cosim::tb
