// The `@NAME@` target's op `vadd` adds two int8 tensors element by element
// with saturation (rtl/@NAME@), DRAM to DRAM. The expected output comes from
// the golden model in cpp_model/@NAME@.
//
//   target: @NAME@
//   op: vadd
//   shapes: {input: [1, 8, 8, 16]}             # bytes must be a multiple of 8
//   data: {a: random, b: random}               # or {npy: file.npy}
//   addresses: {src_a: 0x1000, src_b: 0x40000, dst: 0x100000}
//   fault: none                                # no_start: never write the start bit (hang test)
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
  uint64_t src_a = 0;
  uint64_t src_b = 0;
  uint64_t dst = 0;
  bool start = true;
};

const uint64_t kDramBytes = tb::TbConfig{}.dram_size;

class VaddOp : public tb::TypedOperator<VaddState> {
 public:
  std::string name() const override { return "vadd"; }

  scenario::Schema schema() const override {
    return scenario::schemas::input_tensors({"a", "b"})
        .optional("addresses",
                  scenario::buffer_addresses_schema({{"src_a", "0x1000"}, {"src_b", "0x40000"}, {"dst", "0x100000"}}),
                  "{}")
        .optional("fault", scenario::Schema::one_of({"none", "no_start"}), "none");
  }

  VaddState prepare(const scenario::Scenario& sc, tb::Workload& w) const override {
    const scenario::Value& shape_v = sc["shapes"]["input"];
    const std::vector<int64_t> shape = shape_v.as_ints();
    int64_t bytes = 1;
    for (int64_t d : shape) bytes *= d;
    if (bytes % 8 != 0) {
      shape_v.fail("expected a shape whose size is a multiple of 8 bytes (the adder moves 64-bit beats), got " +
                   std::to_string(bytes) + " bytes");
    }
    const uint64_t len = static_cast<uint64_t>(bytes);
    const std::vector<uint64_t> addr = scenario::buffer_addresses(sc, {"src_a", "src_b", "dst"}, len, 8, kDramBytes);
    const Layout layout = shape.size() == 4 ? Layout::kNHWC : Layout::kAny;
    Tensor a = scenario::make_tensor(sc, sc["data"]["a"], DType::kInt8, shape, layout, "a");
    Tensor b = scenario::make_tensor(sc, sc["data"]["b"], DType::kInt8, shape, layout, "b");
    w.summary = "vadd " + std::to_string(len) + " int8";
    w.expected["output"] = cosim::@NAME@::vadd_sat(a, b);
    w.inputs["a"] = std::move(a);
    w.inputs["b"] = std::move(b);
    return VaddState{addr[0], addr[1], addr[2], sc["fault"].as_string() != "no_start"};
  }

  trace::Trace compile(const scenario::Scenario& sc, const tb::Workload& w, const VaddState& st) const override {
    const Tensor& a = w.inputs.at("a");
    const Tensor& b = w.inputs.at("b");
    trace::Trace t;
    t.target = "@NAME@";
    t.mem_load(st.src_a, a.bytes(), "a");
    t.mem_load(st.src_b, b.bytes(), "b");
    t.reg_write(regs::kLength, static_cast<uint32_t>(a.nbytes()));
    t.reg_write(regs::kSrcA, static_cast<uint32_t>(st.src_a));
    t.reg_write(regs::kSrcB, static_cast<uint32_t>(st.src_b));
    t.reg_write(regs::kDst, static_cast<uint32_t>(st.dst));
    if (st.start) t.reg_write(regs::kControl, regs::control::kStartMask);
    t.wait_done(sc.testbench.timeout_cycles);
    t.mem_check(st.dst, w.expected.at("output"), "output");
    return t;
  }
};

}  // namespace

std::unique_ptr<tb::Operator> make_vadd_op() { return std::make_unique<VaddOp>(); }

}  // namespace cosim::tb::@NAME@
