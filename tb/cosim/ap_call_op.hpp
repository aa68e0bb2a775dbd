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
//     - {name: res_v_data_*_v, dtype: uint16, shape: [100, 16], expect: {npy: y.npy}}
//     - {name: in, dtype: uint8, shape: [20, 160], data: {npy: m.npy}, packets: true}
//       # sent a packet a row (its first dimension), TLAST on each's last beat; under expect,
//       # the DUT must end a packet (TLAST) after each row and nowhere else
//       # streams numbered alike from 0 (an array HLS split into a stream an element): the
//       # file's last dimension is their count, stream k takes element k of each row
//   wait: poll      # or irq (GIE, IER, the interrupt, ISR), or none: no start, no wait
//                   # (the default for a kernel without the control map, control: none)
//   calls: 1        # ap_start and the wait that many times (a kernel that takes one item of
//                   # its streams a call); the arguments are written once, the checks come last
//   overlap: false  # true: each call's ap_start as soon as the last one was taken (ap_start
//                   # read back low), not after its ap_done: a pipelined or dataflow kernel runs
//                   # calls at its own interval (the console's `one taken every`); after the last,
//                   # CTRL is polled for ap_idle, then the checks
//   results: {AP_RETURN: 42}   # registers the call must leave so (a returned scalar), read
//                              # after the wait
// A port wider than 32 bits is several registers, NAME_0, NAME_1, ... (NAME_LO, NAME_HI): under
// args or results, NAME: {npy: x.npy} gives all its words at once, the file's bytes in order
// (little-endian words, the last zero-padded), as a vector packed into one port. Ports numbered
// alike (OUT_0_V, OUT_1_V, ...: an array HLS partitioned into ports) are one more such name,
// OUT_*_V, whose file's elements are shared out among them in order. With `per_call: true` the
// file holds one row a call (its first dimension `calls`): call i writes, or is checked against,
// row i, so one scenario runs a batch of samples through a kernel of register arguments. With
// `bits: N` its elements are N-bit fields packed from bit 0 (HLS's packing of an ap_fixed<N,..>
// array), results compared on those bits only.
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
#include <set>
#include <string>
#include <type_traits>
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
  std::vector<std::string> streams;            // the AXI-Stream and FIFO interfaces by name, in and out
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
  bool packets = false;  // a stream a packet a row of its first dimension (TLAST on each's last beat): sent, or checked
};

using Writes = std::vector<std::pair<uint32_t, uint32_t>>;          // (offset, value)
// A register the call must leave so: its value under a mask (a file's fields of `bits` compare
// only those bits).
struct RegisterCheck {
  ArgRegister reg;
  uint32_t value = 0;
  uint32_t mask = 0xffffffffu;
};
using Checks = std::vector<RegisterCheck>;

struct CallState {
  Writes writes;                   // before the first call, in register order
  Checks results;                  // after the last wait
  std::vector<Writes> call_writes;  // per_call files: before call i's ap_start (empty without)
  std::vector<Checks> call_results;  // and after its wait
  std::vector<Transfer> buffers, streams;
  std::string wait;
  int64_t calls = 1;
  bool overlap = false;  // each ap_start once the last was taken, not after its ap_done
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
    arg_groups_ = port_names(args_);
    result_groups_ = port_names(readable_);
  }

  std::string name() const override { return "call"; }

  scenario::Schema schema() const override {
    using scenario::Schema;
    Schema args = Schema::map();
    for (const ArgRegister& a : args_) {
      args.optional(a.name, Schema::any_of({Schema::integer(0, 0xffffffffll), Schema::string(), file_schema()}));
    }
    Schema results = Schema::map();
    const auto words = [] { return file_schema(); };
    for (const ArgRegister& r : readable_) results.optional(r.name, Schema::any_of({Schema::integer(0, 0xffffffffll), words()}));
    for (const auto& [group, regs] : arg_groups_) {
      if (regs.size() > 1 || regs[0].name != group) args.optional(group, words());
    }
    for (const auto& [group, regs] : result_groups_) {
      if (regs.size() > 1 || regs[0].name != group) results.optional(group, words());
    }
    const auto transfer = [] {
      return Schema::map()
          .required("name", Schema::string())
          .required("dtype", Schema::one_of({"int8", "int16", "int32", "int64", "bf16", "fp32", "uint8", "uint16", "uint32", "uint64"}))
          .required("shape", Schema::shape(1, 8))
          .optional("data", scenario::schemas::data_source())
          .optional("expect", scenario::schemas::data_source());
    };
    return Schema::map()
        .optional("args", args, "{}")
        .optional("buffers", Schema::list(transfer().optional("at", Schema::integer(0, 0xffffffffffll)), 0, 64), "[]")
        .optional("streams", Schema::list(transfer().optional("packets", Schema::boolean(), "false"), 0, 64), "[]")
        .optional("wait", Schema::one_of({"poll", "irq", "none"}), has_ctrl_ ? "poll" : "none")
        .optional("calls", Schema::integer(1, kMaxCalls), "1")
        .optional("overlap", Schema::boolean(), "false")
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
    if (sc["buffers"].items.empty() && sc["streams"].items.empty() && sc["results"].map.empty()) {
      sc["buffers"].fail("a call with no buffer, no stream and no results: nothing to put in or check");
    }
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
      s.packets = v["packets"].as_bool();
      if (s.name.find('*') == std::string::npos) {
        st.streams.push_back(std::move(s));
        continue;
      }
      const std::vector<std::string> members = stream_members(v["name"]);
      const Tensor& whole = s.data ? *s.data : *s.expect;
      if (whole.shape().back() != static_cast<int64_t>(members.size())) {
        v["shape"].fail("its last dimension, " + std::to_string(whole.shape().back()) + ", is the number of streams " +
                        s.name + " names: " + std::to_string(members.size()) + " (" + members.front() + " to " +
                        members.back() + ")");
      }
      for (std::size_t k = 0; k < members.size(); ++k) {
        Transfer member{members[k], 0, {}, {}, s.packets};
        (s.data ? member.data : member.expect) = column(whole, k);
        st.streams.push_back(std::move(member));
      }
    }
    const scenario::Value& args = sc["args"];
    std::map<uint32_t, std::string> given;  // a word's offset -> the key that gave it
    for (const ArgRegister& a : args_) {
      const scenario::Value* v = args.find(a.name);
      if (v != nullptr && !v->is_map()) add_words(given, *v, a.name, {a}, {argument(*v, address)}, {}, st.writes);
    }
    for (const auto& [port, regs] : arg_groups_) {
      const scenario::Value* v = args.find(port);
      if (v == nullptr || !v->is_map()) continue;
      from_file(sc, *v, port, regs, st.calls, given, st.writes, st.call_writes);
    }
    given.clear();
    for (const ArgRegister& r : readable_) {
      const scenario::Value* v = sc["results"].find(r.name);
      if (v != nullptr && !v->is_map()) {
        add_words(given, *v, r.name, {r}, {static_cast<uint32_t>(v->as_int())}, {0xffffffffu}, st.results);
      }
    }
    for (const auto& [port, regs] : result_groups_) {
      const scenario::Value* v = sc["results"].find(port);
      if (v == nullptr || !v->is_map()) continue;
      from_file(sc, *v, port, regs, st.calls, given, st.results, st.call_results);
    }
    std::sort(st.writes.begin(), st.writes.end());
    st.overlap = sc["overlap"].as_bool();
    if (st.overlap) check_overlap(sc, st);
    if (st.wait == "none" && (!st.results.empty() || !st.call_results.empty() || !st.call_writes.empty())) {
      sc["results"].fail("results are read after the wait, and per-call arguments written before ap_start; with wait: none there is neither");
    }
    w.summary = "call: " + std::to_string(st.writes.size()) + " arguments, " + std::to_string(st.buffers.size()) +
                " buffers, " + std::to_string(st.streams.size()) + " streams, wait " + st.wait +
                (st.calls > 1 ? ", " + std::to_string(st.calls) + " calls" : "") + (st.overlap ? ", overlapping" : "");
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
      if (s.data) send(t, s);
    }
    for (const auto& [offset, value] : st.writes) t.reg_write(offset, value);
    if (st.wait == "irq") {
      t.reg_write(ap::kGie, 1);
      t.reg_write(ap::kIer, 1);  // ap_done
    }
    for (int64_t call = 0; call < (st.wait == "none" ? 0 : st.calls); ++call) {
      if (!st.call_writes.empty()) {
        for (const auto& [offset, value] : st.call_writes[call]) t.reg_write(offset, value);
      }
      t.reg_write(ap::kCtrl, ap::kApStart);
      if (st.overlap) {
        // The next start once the kernel took this one (ap_start reads back low: the adapters
        // clear it then), not after its ap_done. Not auto_restart: a start beyond the calls would
        // hold HLS's pipelines waiting for more input, and the last call's output with them.
        t.reg_poll(ap::kCtrl, 0, ap::kApStart, budget, "CTRL");
        continue;
      }
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
      if (!st.call_results.empty()) {
        for (const RegisterCheck& c : st.call_results[call]) {
          t.reg_check(c.reg.offset, c.value, c.mask, c.reg.name + ".call" + std::to_string(call));
        }
      }
    }
    if (st.overlap) t.reg_poll(ap::kCtrl, ap::kApIdle, ap::kApIdle, budget, "CTRL");  // the last call ended
    for (const RegisterCheck& c : st.results) t.reg_check(c.reg.offset, c.value, c.mask, c.reg.name);
    for (const Transfer& b : st.buffers) {
      if (b.expect) t.mem_check(b.at, *b.expect, b.name);
    }
    for (const Transfer& s : st.streams) {
      if (!s.expect) continue;
      const uint64_t packet_bytes = s.packets ? s.expect->nbytes() / s.expect->shape().front() : 0;  // a row each
      t.stream_check(s.name, *s.expect, s.name, packet_bytes);
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

  // What overlapping calls need: ap_ctrl_hs (ap_ctrl_chain waits for ap_continue a call), a poll
  // (of ap_idle after the last), no register read a call (there is no wait for its ap_done);
  // per-call arguments are written before each start.
  void check_overlap(const scenario::Scenario& sc, const CallState& st) const {
    const scenario::Value& v = sc["overlap"];
    if (!has_ctrl_ || chain_) {
      v.fail("overlapping calls are for ap_ctrl_hs; this kernel's control is " +
             std::string(chain_ ? "ap_ctrl_chain (an ap_continue a call, after its ap_done)" : "none"));
    }
    if (st.wait != "poll") {
      v.fail("overlapping calls poll CTRL for each start taken and for ap_idle at the end: wait: poll");
    }
    if (!st.call_results.empty()) {
      v.fail("per_call results are read after each call's ap_done; overlapping calls do not wait for it");
    }
  }

  // A stream's data: one packet, or with `packets` one a row of its first dimension.
  static void send(trace::Trace& t, const Transfer& s) {
    const std::vector<uint8_t>& bytes = s.data->bytes();
    const std::size_t rows = s.packets ? static_cast<std::size_t>(s.data->shape().front()) : 1;
    const std::size_t each = bytes.size() / rows;
    for (std::size_t r = 0; r < rows; ++r) {
      t.stream_send(s.name, std::vector<uint8_t>(bytes.begin() + static_cast<std::ptrdiff_t>(r * each),
                                                 bytes.begin() + static_cast<std::ptrdiff_t>((r + 1) * each)));
    }
  }

  // The kernel's streams a name with a '*' stands for, by the number in its place, 0 to n-1.
  std::vector<std::string> stream_members(const scenario::Value& name) const {
    const std::string pattern = name.as_string();
    const std::size_t star = pattern.find('*');
    const std::string head = pattern.substr(0, star), tail = pattern.substr(star + 1);
    std::map<int, std::string> found;
    for (const std::string& s : ports_.streams) {
      if (s.size() <= head.size() + tail.size() || s.compare(0, head.size(), head) != 0 ||
          s.compare(s.size() - tail.size(), tail.size(), tail) != 0) {
        continue;
      }
      const int index = number(s.substr(head.size(), s.size() - head.size() - tail.size()));
      if (index >= 0) found.emplace(index, s);
    }
    if (found.empty() || found.rbegin()->first + 1 != static_cast<int>(found.size())) {
      std::string known;
      for (const std::string& s : ports_.streams) known += (known.empty() ? "" : ", ") + s;
      name.fail("names no streams numbered from 0 (the kernel's streams: " + (known.empty() ? "none" : known) + ")");
    }
    std::vector<std::string> members;
    for (const auto& [index, s] : found) members.push_back(s);
    return members;
  }

  // Element k of each row of `t` (its last dimension), a tensor of the leading dimensions.
  static Tensor column(const Tensor& t, std::size_t k) {
    std::vector<int64_t> shape(t.shape().begin(), t.shape().end() - 1);
    if (shape.empty()) shape.push_back(1);
    Tensor c(t.dtype(), shape);
    const std::size_t size = dtype_size(t.dtype()), count = static_cast<std::size_t>(t.shape().back());
    for (std::size_t row = 0; row * size < c.nbytes(); ++row) {
      std::copy_n(t.bytes().begin() + static_cast<std::ptrdiff_t>((row * count + k) * size), size,
                  c.bytes().begin() + static_cast<std::ptrdiff_t>(row * size));
    }
    return c;
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

  // The names a file may fill, each with its registers in word order: every register (one word, a
  // word of a wider port too), every port wider than 32 bits (NAME_0, NAME_1, ... or NAME_LO,
  // NAME_HI; a name whose words are not 0 to n-1 makes none), and every array of such ports or lone
  // registers numbered alike from 0 (OUT_0_V, OUT_1_V, ... as OUT_*_V; OUT_0, OUT_1 as OUT_*),
  // members of one width.
  static std::map<std::string, std::vector<ArgRegister>> port_names(const std::vector<ArgRegister>& regs) {
    std::map<std::string, std::map<int, ArgRegister>> found;
    for (const ArgRegister& r : regs) {
      const std::size_t cut = r.name.rfind('_');
      if (cut == std::string::npos || cut == 0) continue;
      const std::string tail = r.name.substr(cut + 1);
      const int word = tail == "LO" ? 0 : tail == "HI" ? 1 : number(tail);
      if (word >= 0) found[r.name.substr(0, cut)].emplace(word, r);
    }
    std::map<std::string, std::vector<ArgRegister>> names;
    std::set<std::string> grouped;  // registers that are a word of a wider port
    for (auto& [port, words] : found) {
      const std::string& name = port;  // a register of that name keeps it (the port is left out)
      const bool taken = std::any_of(regs.begin(), regs.end(), [&name](const ArgRegister& r) { return r.name == name; });
      if (taken || words.size() < 2 || words.rbegin()->first + 1 != static_cast<int>(words.size())) continue;
      for (auto& [word, reg] : words) {
        names[port].push_back(reg);
        grouped.insert(reg.name);
      }
    }
    for (const ArgRegister& r : regs) {
      if (grouped.count(r.name) == 0) names[r.name] = {r};
    }
    // Arrays: a number between underscores (or at the end) of a port's name, replaced by '*'.
    std::map<std::string, std::map<int, std::string>> arrays;
    for (const auto& [port, words] : names) {
      for (std::size_t at = port.find('_'); at != std::string::npos; at = port.find('_', at + 1)) {
        const std::size_t end = std::min(port.find('_', at + 1), port.size());
        const int index = number(port.substr(at + 1, end - at - 1));
        if (index >= 0) arrays[port.substr(0, at + 1) + "*" + port.substr(end)].emplace(index, port);
      }
    }
    for (const auto& [array, members] : arrays) {
      const std::size_t width = names[members.begin()->second].size();
      const bool alike = std::all_of(members.begin(), members.end(),
                                     [&](const auto& m) { return names[m.second].size() == width; });
      if (names.count(array) != 0 || members.size() < 2 || members.rbegin()->first + 1 != static_cast<int>(members.size()) || !alike) {
        continue;
      }
      for (const auto& [index, port] : members) {
        const std::vector<ArgRegister>& words = names[port];
        names[array].insert(names[array].end(), words.begin(), words.end());
      }
    }
    for (const ArgRegister& r : regs) names.emplace(r.name, std::vector<ArgRegister>{r});  // a word of a port too
    return names;
  }

  // A short decimal number (an index or a word), or -1.
  static int number(const std::string& s) {
    if (s.empty() || s.size() > 4) return -1;
    if (!std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; })) return -1;
    return std::stoi(s);
  }

  // A file's entry under args or results: its path, one row a call or not, elements of `bits` each.
  static scenario::Schema file_schema() {
    using scenario::Schema;
    return Schema::map()
        .required("npy", Schema::string())
        .optional("per_call", Schema::boolean(), "false")
        .optional("bits", Schema::integer(1, 64));
  }

  // Words given under `key` for `regs` (results: under `masks`), each offset once across the keys
  // (`given`).
  template <class To>
  static void add_words(std::map<uint32_t, std::string>& given, const scenario::Value& at, const std::string& key,
                        const std::vector<ArgRegister>& regs, const std::vector<uint32_t>& words,
                        const std::vector<uint32_t>& masks, To& to) {
    for (std::size_t i = 0; i < regs.size(); ++i) {
      const auto [it, fresh] = given.emplace(regs[i].offset, key);
      if (!fresh) at.fail(key + " gives " + regs[i].name + ", which " + it->second + " gives already");
      if constexpr (std::is_same_v<To, Writes>) {
        to.emplace_back(regs[i].offset, words[i]);
      } else {
        to.push_back({regs[i], words[i], masks[i]});
      }
    }
  }

  // Element `flat` of an integer tensor as its two's-complement bits.
  static uint64_t element_bits(const Tensor& t, int64_t flat) {
    switch (t.dtype()) {
      case DType::kInt8: return static_cast<uint64_t>(int64_t{t.data<int8_t>()[flat]});
      case DType::kInt16: return static_cast<uint64_t>(int64_t{t.data<int16_t>()[flat]});
      case DType::kInt32: return static_cast<uint64_t>(int64_t{t.data<int32_t>()[flat]});
      case DType::kInt64: return static_cast<uint64_t>(t.data<int64_t>()[flat]);
      case DType::kUint8: return t.data<uint8_t>()[flat];
      case DType::kUint16: return t.data<uint16_t>()[flat];
      case DType::kUint32: return t.data<uint32_t>()[flat];
      case DType::kUint64: return t.data<uint64_t>()[flat];
      case DType::kBf16:
      case DType::kFp32: break;
    }
    return 0;
  }

  static bool is_signed(DType d) {
    return d == DType::kInt8 || d == DType::kInt16 || d == DType::kInt32 || d == DType::kInt64;
  }

  // {npy: file, per_call: bool, bits: n} for the registers `regs` (a port, or an array of ports): the
  // file's bytes, or with `bits` its elements as fields of n bits each (packed from bit 0 of the port,
  // results compared on those bits only), or with per_call its row i for call i; into `once` or
  // `each`[i].
  template <class To>
  static void from_file(const scenario::Scenario& sc, const scenario::Value& v, const std::string& key,
                        const std::vector<ArgRegister>& regs, int64_t calls, std::map<uint32_t, std::string>& given,
                        To& once, std::vector<To>& each) {
    const scenario::Value& npy = v["npy"];
    const bool per_call = v["per_call"].as_bool();
    const int bits = v.has("bits") ? static_cast<int>(v["bits"].as_int()) : 0;
    const Tensor t = load_npy(sc, npy);
    const std::size_t rows = per_call ? static_cast<std::size_t>(calls) : 1;
    if (per_call && (t.shape().empty() || t.shape()[0] != calls)) {
      npy.fail(npy.as_string() + ": per_call wants one row a call, a first dimension of " + std::to_string(calls) +
               " (calls), got shape " + shape_text(t.shape()));
    }
    if (bits > 0 && (t.dtype() == DType::kFp32 || t.dtype() == DType::kBf16)) {
      v["bits"].fail(npy.as_string() + " holds " + dtype_name(t.dtype()) + ": fields of bits are an integer file's elements");
    }
    const std::size_t members = members_of(key, regs);  // ports sharing the row's elements
    const std::size_t port_words = regs.size() / members;
    const std::size_t elements = t.nbytes() / dtype_size(t.dtype()) / rows;  // a row's
    const std::size_t element_bits_each = bits > 0 ? static_cast<std::size_t>(bits) : 8 * dtype_size(t.dtype());
    if (elements % members != 0 || elements / members * element_bits_each > 32 * port_words) {
      npy.fail(npy.as_string() + ": " + std::to_string(elements) + " elements of " + std::to_string(element_bits_each) +
               " bits " + (per_call ? "a row" : "in all") + " for " + key +
               (members > 1 ? ", " + std::to_string(members) + " ports of " : ", ") + std::to_string(32 * port_words) +
               " bits" + (members > 1 ? " each: a row's elements must share out evenly" : ""));
    }
    if (per_call && each.empty()) each.resize(rows);
    for (std::size_t row = 0; row < rows; ++row) {
      const auto [words, masks] = pack_row(t, npy, row, elements, members, port_words, bits);
      if (per_call) {
        std::map<uint32_t, std::string> mine(given);  // each row checks against the once-given words
        add_words(mine, v, key, regs, words, masks, each[row]);
        if (row + 1 == rows) given.swap(mine);
      } else {
        add_words(given, v, key, regs, words, masks, once);
      }
    }
  }

  // Row `row` of `t` (`elements` long) shared out evenly among `members` ports of `port_words` words:
  // each element its bytes, or with `bits` a field of that many bits; (words, the bits that count).
  static std::pair<std::vector<uint32_t>, std::vector<uint32_t>> pack_row(const Tensor& t, const scenario::Value& npy,
                                                                          std::size_t row, std::size_t elements,
                                                                          std::size_t members, std::size_t port_words,
                                                                          int bits) {
    const std::size_t width = bits > 0 ? static_cast<std::size_t>(bits) : 8 * dtype_size(t.dtype());
    const std::size_t share = elements / members;  // elements of the row each port takes
    std::vector<uint32_t> words(members * port_words, 0), masks(members * port_words, bits > 0 ? 0u : 0xffffffffu);
    for (std::size_t m = 0; m < members; ++m) {
      for (std::size_t e = 0; e < share; ++e) {
        const auto flat = static_cast<int64_t>(row * elements + m * share + e);
        uint64_t value = element_bits(t, flat);
        if (bits > 0 && bits < 64) {
          // Its bits beyond the field: all 0, or all 1 for a negative signed element.
          const uint64_t high = value >> bits, ones = ~uint64_t{0} >> bits;
          if (high != 0 && !(is_signed(t.dtype()) && high == ones && (value >> (bits - 1) & 1) != 0)) {
            npy.fail(npy.as_string() + ": element " + std::to_string(flat) + " does not fit " + std::to_string(bits) + " bits");
          }
          value &= (uint64_t{1} << bits) - 1;
        }
        for (std::size_t b = 0; b < width; ++b) {
          const std::size_t at = e * width + b, word = m * port_words + at / 32;
          words[word] |= static_cast<uint32_t>((value >> b) & 1) << (at % 32);
          if (bits > 0) masks[word] |= 1u << (at % 32);
        }
      }
    }
    return {words, masks};
  }

  // How many ports an array name (a '*' in it) spans; 1 for a port.
  static std::size_t members_of(const std::string& key, const std::vector<ArgRegister>& regs) {
    if (key.find('*') == std::string::npos) return 1;
    std::set<std::string> ports;
    const std::size_t at = key.find('*');
    for (const ArgRegister& r : regs) {
      const std::size_t end = r.name.find('_', at);
      ports.insert(r.name.substr(0, end == std::string::npos ? r.name.size() : end));
    }
    return ports.size();
  }

  // A file, or the array Python gave in its place (cosim.run(..., inputs={"X": x})).
  static Tensor load_npy(const scenario::Scenario& sc, const scenario::Value& npy) {
    const auto memory = sc.memory_npy.find(npy.as_string());
    if (memory != sc.memory_npy.end()) return memory->second;
    const std::filesystem::path file = std::filesystem::path(npy.as_string()).is_absolute()
                                           ? std::filesystem::path(npy.as_string())
                                           : std::filesystem::path(sc.dir) / npy.as_string();
    try {
      return read_npy(file.string());
    } catch (const InputError& e) {
      npy.fail(e.what());
    }
  }

  static std::string shape_text(const std::vector<int64_t>& shape) {
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "]";
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
  std::map<std::string, std::vector<ArgRegister>> arg_groups_, result_groups_;  // names a file may fill (port_names)
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
// has an interrupt, its sram interfaces' bases, its streams' names.
template <class Top, class Registers>
std::unique_ptr<Operator> make_ap_call_op(const Registers& regs) {
  CallPorts ports{Top::kControl, Top::Irqs::size > 0, {}, {}};
  Top::Srams::for_each([&](auto bus) { ports.sram_bases[decltype(bus)::kName] = decltype(bus)::kBase; });
  const auto stream = [&](auto bus) { ports.streams.push_back(decltype(bus)::kName); };
  Top::AxisIns::for_each(stream);
  Top::AxisOuts::for_each(stream);
  return make_ap_call_op(regs, std::move(ports));
}

// The form a project made before the binding's ports were read (its NAME_call_op.cpp): the protocol only.
template <class Registers>
std::unique_ptr<Operator> make_ap_call_op(const Registers& regs, harness::ControlProtocol control) {
  return make_ap_call_op(regs, CallPorts{control, true, {}, {}});
}

}  // namespace cosim::tb
