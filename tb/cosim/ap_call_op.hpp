// The operator `call`: one call of a kernel with the Vitis control map
// (ap_ctrl_hs; harness/ap_ctrl.hpp), described entirely by its scenario, so
// a kernel whose arguments are registers and buffers runs without C++:
//
//   op: call
//   args: {LENGTH: 4096, A_LO: a, A_HI: a.hi, C_LO: c}   # a register by its manifest name: a number,
//                                                        # or a buffer's address (name.hi: bits 63:32)
//   buffers:
//     - {name: a, at: 0x1000, dtype: int32, shape: [1024], data: {npy: a.npy}}   # loaded before the call
//     - {name: c, at: 0x100000, dtype: int32, shape: [1024], expect: {npy: c.npy}}  # checked after it
//     # without `at`, a buffer named like one of the kernel's sram interfaces lies at its base
//   streams:                                              # the manifest's AXI-Streams, by interface name
//     - {name: in, dtype: int32, shape: [256], data: {npy: in.npy}}       # sent
//     - {name: out, dtype: int32, shape: [256], expect: {npy: out.npy}}   # checked
//   wait: poll      # or irq (GIE, IER, the interrupt, ISR), or none: no start, no wait
//                   # (the default for a kernel without the control map, control: none)
//   calls: 1        # ap_start and the wait that many times (a kernel that takes one item of
//                   # its streams a call); the arguments are written once, the checks come last
//   results: {AP_RETURN: 42}   # registers the call must leave so (a returned scalar), read
//                              # after the wait
// A port wider than 32 bits is several registers, NAME_0, NAME_1, ... (NAME_LO, NAME_HI): under
// args or results, NAME: {npy: x.npy} gives all its words at once, the file's bytes in order
// (little-endian words, the last zero-padded), as a vector packed into one port.
//
// The expected values are the user's (their reference's output saved as
// .npy): this operator computes nothing, it loads, calls and compares. The
// arguments are written in register order, then ap_start. Header-only: a
// plugin compiles it (neither the cosim program nor the Python module need
// to carry it).
#pragma once

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/error.hpp"
#include "cosim/operator.hpp"
#include "harness/ap_ctrl.hpp"
#include "harness/bus.hpp"
#include "scenario/scenario.hpp"
#include "tensor/tensor.hpp"
#include "tlm/tb_config.hpp"
#include "trace/trace.hpp"

namespace cosim::tb {

// An argument register of the kernel: its manifest name and byte offset.
struct ArgRegister {
  std::string name;
  uint32_t offset = 0;
};

// What the call needs of the kernel's ports (its generated binding, dut/<name>_pins.hpp).
struct CallPorts {
  harness::ControlProtocol control = harness::ControlProtocol::kApCtrlHs;
  bool has_irq = true;
  std::map<std::string, uint64_t> sram_bases;  // native memory ports (kind sram) by name: where each array lies
};

namespace ap_call_detail {

namespace ap = harness::ap_ctrl;

// A buffer in DRAM (at) or a stream (an interface of the manifest), with what
// goes in before the call and what must come out.
struct Transfer {
  std::string name;
  uint64_t at = 0;
  std::optional<Tensor> data;    // loaded / sent before the call
  std::optional<Tensor> expect;  // checked after it
};

struct CallState {
  std::vector<std::pair<uint32_t, uint32_t>> writes;  // (offset, value), in register order
  std::vector<std::pair<ArgRegister, uint32_t>> results;  // (register, the value it must read)
  std::vector<Transfer> buffers, streams;
  std::string wait;
  int64_t calls = 1;
};

class ApCallOp : public TypedOperator<CallState> {
 public:
  ApCallOp(std::vector<ArgRegister> args, std::vector<ArgRegister> readable, CallPorts ports, bool isr_clears_on_read)
      : args_(std::move(args)),
        readable_(std::move(readable)),
        ports_(std::move(ports)),
        isr_rc_(isr_clears_on_read),
        has_ctrl_(ports_.control == harness::ControlProtocol::kApCtrlHs ||
                  ports_.control == harness::ControlProtocol::kApCtrlChain),
        chain_(ports_.control == harness::ControlProtocol::kApCtrlChain) {
    std::sort(args_.begin(), args_.end(), [](const ArgRegister& a, const ArgRegister& b) { return a.offset < b.offset; });
    arg_groups_ = word_groups(args_);
    result_groups_ = word_groups(readable_);
  }

  std::string name() const override { return "call"; }

  scenario::Schema schema() const override {
    using scenario::Schema;
    Schema args = Schema::map();
    for (const ArgRegister& a : args_) {
      args.optional(a.name, Schema::any_of({Schema::integer(0, 0xffffffffll), Schema::string()}));
    }
    Schema results = Schema::map();
    for (const ArgRegister& r : readable_) results.optional(r.name, Schema::integer(0, 0xffffffffll));
    const auto words = [] { return Schema::map().required("npy", Schema::string()); };
    for (const auto& [group, regs] : arg_groups_) args.optional(group, words());
    for (const auto& [group, regs] : result_groups_) results.optional(group, words());
    const auto transfer = [] {
      return Schema::map()
          .required("name", Schema::string())
          .required("dtype", Schema::one_of({"int8", "int16", "int32", "bf16", "fp32", "uint8", "uint16", "uint32"}))
          .required("shape", Schema::shape(1, 8))
          .optional("data", scenario::schemas::data_source())
          .optional("expect", scenario::schemas::data_source());
    };
    return Schema::map()
        .optional("args", args, "{}")
        .optional("buffers", Schema::list(transfer().optional("at", Schema::integer(0, 0xffffffffffll)), 0, 64), "[]")
        .optional("streams", Schema::list(transfer(), 0, 64), "[]")
        .optional("wait", Schema::one_of({"poll", "irq", "none"}), has_ctrl_ ? "poll" : "none")
        .optional("calls", Schema::integer(1, kMaxCalls), "1")
        .optional("results", results, "{}");
  }

  CallState prepare(const scenario::Scenario& sc, Workload& w) const override {
    CallState st;
    st.wait = sc["wait"].as_string();
    if (!has_ctrl_ && st.wait != "none") {
      sc["wait"].fail("the kernel has no control map (control: none): only wait: none, got '" + st.wait + "'");
    }
    if (st.wait == "irq" && !ports_.has_irq) {
      sc["wait"].fail("the kernel has no interrupt pin (no interface of kind irq in its manifest): wait: poll");
    }
    st.calls = sc["calls"].as_int();
    if (st.calls > 1 && st.wait == "none") sc["calls"].fail("calls repeat ap_start and the wait; with wait: none there is none");
    if (sc["buffers"].items.empty() && sc["streams"].items.empty()) sc["buffers"].fail("a call with no buffer and no stream");
    const uint64_t dram = TbConfig{}.dram_size;
    std::map<std::string, uint64_t> address;
    std::vector<std::pair<uint64_t, uint64_t>> spans;  // [at, end) of the buffers so far
    for (const scenario::Value& b : sc["buffers"].items) {
      Transfer buf = transfer(sc, b, "buffer", w);
      buf.at = address_of(b, buf.name);
      const uint64_t bytes = (buf.data ? buf.data->nbytes() : buf.expect->nbytes());
      if (buf.at + bytes > dram) {
        b["at"].fail("the buffer's " + std::to_string(bytes) + " bytes end past the DRAM's " + std::to_string(dram));
      }
      for (const auto& [lo, hi] : spans) {
        if (buf.at < hi && lo < buf.at + bytes) b["at"].fail("the buffer overlaps an earlier one");
      }
      spans.emplace_back(buf.at, buf.at + bytes);
      address[buf.name] = buf.at;
      st.buffers.push_back(std::move(buf));
    }
    for (const scenario::Value& v : sc["streams"].items) {
      Transfer s = transfer(sc, v, "stream", w);
      if (s.data && s.expect) v.fail("a stream is sent (data) or checked (expect), not both");
      st.streams.push_back(std::move(s));
    }
    const scenario::Value& args = sc["args"];
    for (const ArgRegister& a : args_) {
      const scenario::Value* v = args.find(a.name);
      if (v == nullptr) continue;
      st.writes.emplace_back(a.offset, argument(*v, address));
    }
    for (const auto& [group, regs] : arg_groups_) {
      const scenario::Value* v = args.find(group);
      if (v == nullptr) continue;
      for (const ArgRegister& r : regs) {
        if (args.find(r.name) != nullptr) v->fail(group + " gives all its words, " + r.name + " one of them again");
      }
      const std::vector<uint32_t> words = npy_words(sc, (*v)["npy"], group, regs.size());
      for (std::size_t i = 0; i < regs.size(); ++i) st.writes.emplace_back(regs[i].offset, words[i]);
    }
    for (const ArgRegister& r : readable_) {
      if (const scenario::Value* v = sc["results"].find(r.name)) st.results.emplace_back(r, static_cast<uint32_t>(v->as_int()));
    }
    for (const auto& [group, regs] : result_groups_) {
      const scenario::Value* v = sc["results"].find(group);
      if (v == nullptr) continue;
      const std::vector<uint32_t> words = npy_words(sc, (*v)["npy"], group, regs.size());
      for (std::size_t i = 0; i < regs.size(); ++i) st.results.emplace_back(regs[i], words[i]);
    }
    if (!st.results.empty() && st.wait == "none") sc["results"].fail("results are read after the wait; with wait: none there is none");
    w.summary = "call: " + std::to_string(st.writes.size()) + " arguments, " + std::to_string(st.buffers.size()) +
                " buffers, " + std::to_string(st.streams.size()) + " streams, wait " + st.wait +
                (st.calls > 1 ? ", " + std::to_string(st.calls) + " calls" : "");
    return st;
  }

  trace::Trace compile(const scenario::Scenario& sc, const Workload& w, const CallState& st) const override {
    (void)w;
    const uint64_t budget = sc.testbench.timeout_cycles;
    trace::Trace t;
    t.target = sc.target;
    for (const Transfer& b : st.buffers) {
      if (b.data) t.mem_load(b.at, b.data->bytes(), b.name);
    }
    for (const Transfer& s : st.streams) {
      if (s.data) t.stream_send(s.name, s.data->bytes());
    }
    for (const auto& [offset, value] : st.writes) t.reg_write(offset, value);
    if (st.wait == "irq") {
      t.reg_write(ap::kGie, 1);
      t.reg_write(ap::kIer, 1);  // ap_done
    }
    for (int64_t call = 0; call < (st.wait == "none" ? 0 : st.calls); ++call) {
      t.reg_write(ap::kCtrl, ap::kApStart);
      if (st.wait == "irq") {
        t.wait_irq(budget);
        // The interrupt drops: ISR toggles on write (ap_done's bit), or clears on a read (a poll
        // whose mask compares nothing: one read).
        if (isr_rc_) {
          t.reg_poll(ap::kIsr, 0, 0, budget, "ISR");
        } else {
          t.reg_write(ap::kIsr, 1);
        }
      }
      t.reg_poll(ap::kCtrl, ap::kApDone, ap::kApDone, budget, "CTRL");
      if (chain_) t.reg_write(ap::kCtrl, ap::kApContinue);  // ap_ctrl_chain: release the output
    }
    for (const auto& [reg, value] : st.results) t.reg_check(reg.offset, value, 0xffffffffu, reg.name);
    for (const Transfer& b : st.buffers) {
      if (b.expect) t.mem_check(b.at, *b.expect, b.name);
    }
    for (const Transfer& s : st.streams) {
      if (s.expect) t.stream_check(s.name, *s.expect, s.name);
    }
    return t;
  }

 private:
  // A buffer's or stream's name, data and expected values (`what` for the messages).
  static Transfer transfer(const scenario::Scenario& sc, const scenario::Value& v, const std::string& what,
                           Workload& w) {
    Transfer x;
    x.name = v["name"].as_string();
    bool ok = false;
    const DType dtype = trace::parse_dtype(v["dtype"].as_string(), &ok);
    const std::vector<int64_t> shape = v["shape"].as_ints();
    if (v.has("data")) x.data = scenario::make_tensor(sc, v["data"], dtype, shape, Layout::kAny, x.name);
    if (v.has("expect")) {
      if (!v["expect"].is_map() || !v["expect"].has("npy")) {
        v["expect"].fail("expected {npy: file}: the values the call must leave there, from your reference");
      }
      x.expect = scenario::make_tensor(sc, v["expect"], dtype, shape, Layout::kAny, x.name);
    }
    if (!x.data && !x.expect) v.fail("a " + what + " with neither data (put in) nor expect (checked)");
    if (w.inputs.count(x.name) != 0 || w.expected.count(x.name) != 0) {
      v["name"].fail("a second buffer or stream named '" + x.name + "'");
    }
    if (x.data) w.inputs[x.name] = *x.data;
    if (x.expect) w.expected[x.name] = *x.expect;
    return x;
  }

  // A buffer's DRAM address: its `at`, or else the base of the sram interface it is named after
  // (where an HLS array's element 0 lies; a kernel that puts its own addresses on the port, from
  // its arguments, reaches beyond the base, so an `at` is taken as given).
  uint64_t address_of(const scenario::Value& b, const std::string& name) const {
    const auto sram = ports_.sram_bases.find(name);
    if (!b.has("at")) {
      if (sram != ports_.sram_bases.end()) return sram->second;
      std::string known;
      for (const auto& [n, base] : ports_.sram_bases) known += (known.empty() ? "" : ", ") + n;
      b.fail("a buffer needs `at`, its DRAM address" +
             (known.empty() ? std::string() : ", or the name of an sram interface (" + known + ") to lie at its base"));
    }
    return static_cast<uint64_t>(b["at"].as_int());
  }

  // The registers of ports wider than 32 bits, by port: NAME_0, NAME_1, ... or NAME_LO, NAME_HI,
  // in word order (a name whose words are not 0 to n-1 makes no group).
  static std::map<std::string, std::vector<ArgRegister>> word_groups(const std::vector<ArgRegister>& regs) {
    std::map<std::string, std::map<int, ArgRegister>> found;
    for (const ArgRegister& r : regs) {
      const std::size_t cut = r.name.rfind('_');
      if (cut == std::string::npos || cut == 0 || cut + 1 == r.name.size()) continue;
      const std::string tail = r.name.substr(cut + 1);
      int word = tail == "LO" ? 0 : tail == "HI" ? 1 : -1;
      if (word < 0 && tail.size() < 5 && std::all_of(tail.begin(), tail.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; })) {
        word = std::stoi(tail);
      }
      if (word >= 0) found[r.name.substr(0, cut)].emplace(word, r);
    }
    std::map<std::string, std::vector<ArgRegister>> groups;
    for (auto& [port, words] : found) {
      const std::string& group = port;  // a register of that name keeps it (the group is left out)
      const bool taken = std::any_of(regs.begin(), regs.end(), [&group](const ArgRegister& r) { return r.name == group; });
      if (taken || words.size() < 2 || words.rbegin()->first + 1 != static_cast<int>(words.size())) continue;
      for (auto& [word, reg] : words) groups[port].push_back(reg);
    }
    return groups;
  }

  // The words of a port `words` registers wide from a .npy file's bytes (little-endian, zero-padded).
  static std::vector<uint32_t> npy_words(const scenario::Scenario& sc, const scenario::Value& npy,
                                         const std::string& port, std::size_t words) {
    const std::filesystem::path file = std::filesystem::path(npy.as_string()).is_absolute()
                                           ? std::filesystem::path(npy.as_string())
                                           : std::filesystem::path(sc.dir) / npy.as_string();
    Tensor t;
    try {
      t = read_npy(file.string());
    } catch (const InputError& e) {
      npy.fail(e.what());
    }
    if (t.nbytes() > 4 * words) {
      npy.fail(file.string() + " holds " + std::to_string(t.nbytes()) + " bytes, more than the " +
               std::to_string(4 * words) + " of " + port + "'s " + std::to_string(words) + " registers");
    }
    std::vector<uint32_t> out(words, 0);
    for (std::size_t b = 0; b < t.nbytes(); ++b) out[b / 4] |= static_cast<uint32_t>(t.bytes()[b]) << (8 * (b % 4));
    return out;
  }

  // A number, or a buffer's address: `name` (bits 31:0) or `name.hi` (63:32).
  static uint32_t argument(const scenario::Value& v, const std::map<std::string, uint64_t>& address) {
    if (!v.is_string()) return static_cast<uint32_t>(v.as_int());
    std::string name = v.as_string();
    const bool hi = name.size() > 3 && name.compare(name.size() - 3, 3, ".hi") == 0;
    if (hi) name.resize(name.size() - 3);
    const auto it = address.find(name);
    if (it == address.end()) {
      std::string known;
      for (const auto& [n, at] : address) known += (known.empty() ? "" : ", ") + n;
      v.fail("expected a number or a buffer's name (" + known + "), optionally with .hi, got '" + v.as_string() + "'");
    }
    return static_cast<uint32_t>(hi ? it->second >> 32 : it->second);
  }

  static constexpr int64_t kMaxCalls = 100000;
  std::vector<ArgRegister> args_, readable_;
  std::map<std::string, std::vector<ArgRegister>> arg_groups_, result_groups_;  // ports wider than 32 bits
  CallPorts ports_;
  bool isr_rc_, has_ctrl_, chain_;
};

}  // namespace ap_call_detail

// From the manifest's generated register table (dut/<name>_regs.hpp
// kRegisters: the writable registers from the arguments' offset, 0x10, on are
// the arguments, and every register from there may be named in `results`) and its control protocol (dut/<name>_pins.hpp
// Top::kControl: ap_ctrl_hs, ap_ctrl_chain, whose output the call releases
// with ap_continue, or none, whose call only moves data).
template <class Registers>
std::unique_ptr<Operator> make_ap_call_op(const Registers& regs, CallPorts ports) {
  std::vector<ArgRegister> args, readable;
  bool isr_rc = false;  // ISR clears on read (its manifest access rc) rather than toggling on write
  for (const auto& r : regs) {
    if (r.offset >= harness::ap_ctrl::kArgs && std::string(r.access).find('w') != std::string::npos) {
      args.push_back({r.name, r.offset});
    }
    if (r.offset >= harness::ap_ctrl::kArgs && std::string(r.access) != "wo") readable.push_back({r.name, r.offset});
    isr_rc = isr_rc || (r.offset == harness::ap_ctrl::kIsr && std::string(r.access) == "rc");
  }
  return std::make_unique<ap_call_detail::ApCallOp>(std::move(args), std::move(readable), std::move(ports), isr_rc);
}

// The same from the binding's top (dut/<name>_pins.hpp pins::Top): its control protocol, whether it
// has an interrupt, its sram interfaces' bases.
template <class Top, class Registers>
std::unique_ptr<Operator> make_ap_call_op(const Registers& regs) {
  CallPorts ports{Top::kControl, Top::Irqs::size > 0, {}};
  Top::Srams::for_each([&](auto bus) { ports.sram_bases[decltype(bus)::kName] = decltype(bus)::kBase; });
  return make_ap_call_op(regs, std::move(ports));
}

// The form a project made before the binding's ports were read (its NAME_call_op.cpp): the protocol only.
template <class Registers>
std::unique_ptr<Operator> make_ap_call_op(const Registers& regs, harness::ControlProtocol control) {
  return make_ap_call_op(regs, CallPorts{control, true, {}});
}

}  // namespace cosim::tb
