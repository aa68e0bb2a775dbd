// The `@NAME@` target's op `vadd`, C = A + B over int32 with wraparound
// (rtl/@NAME@), DRAM to DRAM, driven as an XRT host drives a Vitis kernel:
// arguments into the control map, ap_start, then either polling CTRL for
// ap_done or waiting for the interrupt (GIE, IER, then ISR read and cleared).
// Register reads along the way are checks: LENGTH reads back, ap_done clears
// on read, ISR toggles on write. The expected C comes from cpp_model/@NAME@.
//
//   target: @NAME@
//   op: vadd
//   shapes: {input: [1024]}                    # int32 elements, a multiple of 4 (16-byte beats)
//   data: {a: random, b: random}               # or {npy: file.npy}
//   addresses: {a: 0x1000, b: 0x80000, c: 0x100000}
//   wait: poll                                 # or irq
//   fault: none                                # no_start: never set ap_start (hang test)
//
// One operator, one file: its schema, its typed state (VaddState), the
// workload (inputs and the golden output), the trace. It is registered by a
// line in @NAME@_ops.def; a new operator is a new @NAME@_<op>_op.cpp defining
// make_<op>_op() and its line there (tb/README.md, "Adding an operator").
#include <memory>
#include <vector>

#include "@NAME@/@NAME@_model.hpp"
#include "cosim/operator.hpp"
#include "dut/@NAME@_regs.hpp"
#include "scenario/buffer_addresses.hpp"

namespace cosim::tb::@NAME@ {

namespace {

namespace regs = cosim::@NAME@::regs;

struct VaddState {
  uint64_t a = 0, b = 0, c = 0;
  bool irq = false;
  bool start = true;
};

const uint64_t kDramBytes = tb::TbConfig{}.dram_size;
constexpr uint32_t kBeatBytes = 16;

class VaddOp : public tb::TypedOperator<VaddState> {
 public:
  std::string name() const override { return "vadd"; }

  scenario::Schema schema() const override {
    using scenario::Schema;
    return scenario::schemas::input_tensors({"a", "b"})
        .optional("addresses",
                  scenario::buffer_addresses_schema({{"a", "0x1000"}, {"b", "0x80000"}, {"c", "0x100000"}}), "{}")
        .optional("wait", Schema::one_of({"poll", "irq"}), "poll")
        .optional("fault", Schema::one_of({"none", "no_start"}), "none");
  }

  VaddState prepare(const scenario::Scenario& sc, tb::Workload& w) const override {
    const scenario::Value& shape_v = sc["shapes"]["input"];
    const std::vector<int64_t> shape = shape_v.as_ints();
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    const uint64_t len = static_cast<uint64_t>(n) * 4;
    if (len % kBeatBytes != 0) {
      shape_v.fail("expected a multiple of 4 elements (the kernel moves 16-byte beats), got " + std::to_string(n));
    }
    const std::vector<uint64_t> addr = scenario::buffer_addresses(sc, {"a", "b", "c"}, len, kBeatBytes, kDramBytes);
    Tensor a = scenario::make_tensor(sc, sc["data"]["a"], DType::kInt32, shape, Layout::kAny, "a");
    Tensor b = scenario::make_tensor(sc, sc["data"]["b"], DType::kInt32, shape, Layout::kAny, "b");
    w.summary = "vadd " + std::to_string(n) + " int32, " + sc["wait"].as_string();
    w.expected["c"] = cosim::@NAME@::vadd_wrap(a, b);
    w.inputs["a"] = std::move(a);
    w.inputs["b"] = std::move(b);
    return VaddState{addr[0], addr[1], addr[2], sc["wait"].as_string() == "irq",
                        sc["fault"].as_string() != "no_start"};
  }

  trace::Trace compile(const scenario::Scenario& sc, const tb::Workload& w, const VaddState& st) const override {
    const Tensor& a = w.inputs.at("a");
    const uint64_t budget = sc.testbench.timeout_cycles;
    namespace ctrl = regs::ctrl;
    trace::Trace t;
    t.target = "@NAME@";
    t.mem_load(st.a, a.bytes(), "a");
    t.mem_load(st.b, w.inputs.at("b").bytes(), "b");
    const std::pair<uint32_t, uint64_t> args[] = {{regs::kALo, st.a}, {regs::kBLo, st.b}, {regs::kCLo, st.c}};
    for (const auto& [lo, value] : args) {
      t.reg_write(lo, static_cast<uint32_t>(value));
      t.reg_write(lo + 4, static_cast<uint32_t>(value >> 32));
    }
    t.reg_write(regs::kLength, static_cast<uint32_t>(a.nbytes()));
    t.reg_check(regs::kLength, static_cast<uint32_t>(a.nbytes()), 0xffffffffu, "LENGTH");
    t.reg_check(regs::kCtrl, ctrl::kApIdleMask, ctrl::kApIdleMask | ctrl::kApStartMask, "CTRL");
    if (st.irq) {
      t.reg_write(regs::kGie, 1);
      t.reg_write(regs::kIer, 1);  // ap_done
    }
    if (st.start) t.reg_write(regs::kCtrl, ctrl::kApStartMask);
    if (st.irq) {
      t.wait_irq(budget);
      t.reg_check(regs::kIsr, 1, 3, "ISR");
      t.reg_write(regs::kIsr, 1);  // toggle on write: clears ap_done's status, the interrupt drops
      t.reg_check(regs::kIsr, 0, 3, "ISR");
      // Not read yet: ap_done is still set, and reading it clears it.
      t.reg_check(regs::kCtrl, ctrl::kApDoneMask | ctrl::kApIdleMask, ctrl::kApDoneMask | ctrl::kApIdleMask, "CTRL");
    } else {
      t.reg_poll(regs::kCtrl, ctrl::kApDoneMask, ctrl::kApDoneMask, budget, "CTRL");
    }
    // ap_done cleared on read, the kernel idle and ap_start taken.
    t.reg_check(regs::kCtrl, ctrl::kApIdleMask, ctrl::kApDoneMask | ctrl::kApIdleMask | ctrl::kApStartMask, "CTRL");
    t.mem_check(st.c, w.expected.at("c"), "c");
    return t;
  }
};

}  // namespace

std::unique_ptr<tb::Operator> make_vadd_op() { return std::make_unique<VaddOp>(); }

}  // namespace cosim::tb::@NAME@
