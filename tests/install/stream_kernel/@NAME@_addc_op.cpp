// The install test's streaming op `addc` (install_test.sh, step 7): out = in
// + increment over int32 (wrapping), the words sent on stream p0 and checked
// on stream p1, the kernel started through its control map. The expected
// output is computed here, word by word, not by the kernel's model.
//
//   op: addc
//   shapes: {input: [N]}          # int32 words
//   data: {in: random}
//   increment: 7
//   fault: none                   # long / short: send one word more / fewer than LENGTH says;
//                                 # increment: write the increment + 1 (every word mismatches)
//   wait: poll                    # none: no ap_done; the check waits for the words, as for ap_ctrl_none
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "cosim/operator.hpp"
#include "dut/@NAME@_regs.hpp"

namespace cosim::tb::@NAME@ {

namespace {

namespace regs = cosim::@NAME@::regs;

struct AddcState {
  uint32_t increment = 0;
  std::string fault;
  bool poll = true;
};

class AddcOp : public tb::TypedOperator<AddcState> {
 public:
  std::string name() const override { return "addc"; }

  scenario::Schema schema() const override {
    using scenario::Schema;
    return scenario::schemas::input_tensors({"in"})
        .optional("increment", Schema::integer(-2147483648ll, 2147483647ll), "7")
        .optional("fault", Schema::one_of({"none", "long", "short", "increment"}), "none")
        .optional("wait", Schema::one_of({"poll", "none"}), "poll");
  }

  AddcState prepare(const scenario::Scenario& sc, tb::Workload& w) const override {
    const std::vector<int64_t> shape = sc["shapes"]["input"].as_ints();
    Tensor in = scenario::make_tensor(sc, sc["data"]["in"], DType::kInt32, shape, Layout::kAny, "in");
    const uint32_t inc = static_cast<uint32_t>(sc["increment"].as_int());
    Tensor out = in;
    const std::size_t n = in.nbytes() / 4;
    for (std::size_t i = 0; i < n; ++i) {
      uint32_t v;
      std::memcpy(&v, in.bytes().data() + 4 * i, 4);
      v += inc;  // unsigned: wraps as the kernel's 32-bit adder does
      std::memcpy(out.bytes().data() + 4 * i, &v, 4);
    }
    w.summary = "addc " + std::to_string(n) + " int32 + " + std::to_string(static_cast<int32_t>(inc));
    w.expected["out"] = std::move(out);
    w.inputs["in"] = std::move(in);
    return AddcState{inc, sc["fault"].as_string(), sc["wait"].as_string() == "poll"};
  }

  trace::Trace compile(const scenario::Scenario& sc, const tb::Workload& w, const AddcState& st) const override {
    const Tensor& in = w.inputs.at("in");
    namespace ctrl = regs::ctrl;
    trace::Trace t;
    t.target = "@NAME@";
    std::vector<uint8_t> words = in.bytes();
    if (st.fault == "long") words.insert(words.end(), 4, 0);
    if (st.fault == "short") words.resize(words.size() - 4);
    t.stream_send("p0", words);
    t.reg_write(regs::kALo, st.increment + (st.fault == "increment" ? 1 : 0));
    t.reg_write(regs::kLength, static_cast<uint32_t>(in.nbytes()));
    t.reg_write(regs::kCtrl, ctrl::kApStartMask);
    if (st.poll) t.reg_poll(regs::kCtrl, ctrl::kApDoneMask, ctrl::kApDoneMask, sc.testbench.timeout_cycles, "CTRL");
    t.stream_check("p1", w.expected.at("out"), "out");
    return t;
  }
};

}  // namespace

std::unique_ptr<tb::Operator> make_addc_op() { return std::make_unique<AddcOp>(); }

}  // namespace cosim::tb::@NAME@
