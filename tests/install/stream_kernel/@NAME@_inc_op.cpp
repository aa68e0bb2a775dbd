// The install test's op `inc` for the free-running kernel (install_test.sh,
// step 8): words sent on s0 (128-bit beats with TKEEP) and s2 (64-bit,
// without), their sums + 1 checked on s1; no register, no ap_done: the check waits
// for its words. The expected
// words are computed here, not by the kernel's model.
//
//   op: inc
//   shapes: {input: [N]}          # int32 words
//   data: {in: random}
#include <cstdint>
#include <cstring>
#include <memory>

#include "cosim/operator.hpp"

namespace cosim::tb::@NAME@ {

namespace {

struct IncState {};

class IncOp : public tb::TypedOperator<IncState> {
 public:
  std::string name() const override { return "inc"; }

  scenario::Schema schema() const override {
    return scenario::schemas::input_tensors({"in", "add"});
  }

  IncState prepare(const scenario::Scenario& sc, tb::Workload& w) const override {
    Tensor in = scenario::make_tensor(sc, sc["data"]["in"], DType::kInt32, sc["shapes"]["input"].as_ints(),
                                      Layout::kAny, "in");
    // s2: one 8-byte beat (two words) per 16-byte beat of s0, added to its lanes 0, 2 and 1, 3.
    const int64_t words = static_cast<int64_t>(in.nbytes() / 4);
    Tensor add = scenario::make_tensor(sc, sc["data"]["add"], DType::kInt32, {(words + 3) / 4 * 2}, Layout::kAny, "add");
    Tensor out = in;
    for (std::size_t i = 0; i < in.nbytes(); i += 4) {
      uint32_t v, a;
      std::memcpy(&v, in.bytes().data() + i, 4);
      const std::size_t word = i / 4;
      std::memcpy(&a, add.bytes().data() + 4 * (word / 4 * 2 + word % 2), 4);
      v += a + 1;  // wraps as the kernel's 32-bit adders do; STEP is tied to 1
      std::memcpy(out.bytes().data() + i, &v, 4);
    }
    w.summary = "inc " + std::to_string(words) + " int32";
    w.expected["out"] = std::move(out);
    w.inputs["in"] = std::move(in);
    w.inputs["add"] = std::move(add);
    return {};
  }

  trace::Trace compile(const scenario::Scenario&, const tb::Workload& w, const IncState&) const override {
    trace::Trace t;
    t.target = "@NAME@";
    t.stream_send("s0", w.inputs.at("in").bytes());
    t.stream_send("s2", w.inputs.at("add").bytes());
    t.stream_check("s1", w.expected.at("out"), "out");
    return t;
  }
};

}  // namespace

std::unique_ptr<tb::Operator> make_inc_op() { return std::make_unique<IncOp>(); }

}  // namespace cosim::tb::@NAME@
