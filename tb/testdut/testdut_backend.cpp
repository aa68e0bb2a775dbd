// The `testdut` target: op `copy` moves an int8 tensor from `addresses.src`
// to `addresses.dst` with the test DMA. It exercises the whole testbench
// path (trace player, register target, AXI slave, memory bridge, DRAM
// target, scoreboard) without an accelerator.
//
//   target: testdut
//   op: copy
//   shapes: {input: [1, 8, 8, 16]}     # bytes must be a multiple of 8
//   data: {input: random}              # or {npy: file.npy}
//   addresses: {src: 0x1000, dst: 0x100000}
//   fault: none                        # no_start: never write the start bit (hang test)
#include <memory>

#include "cosim/backend.hpp"
#include "dut/testdut_regs.hpp"
#include "testdut/testdut_wrapper.hpp"

namespace cosim::tb::testdut {

// The register map generated from rtl/testdut/testdut.yaml.
namespace regs = cosim::testdut::regs;

namespace {

struct CopyState {
  uint64_t src = 0;
  uint64_t dst = 0;
  bool start = true;
};

const uint64_t kDramBytes = tb::TbConfig{}.dram_size;

class TestDutBackend : public tb::TargetBackend {
 public:
  std::string name() const override { return "testdut"; }
  std::string description() const override { return "test DMA copy engine (exercises the TLM testbench)"; }
  std::vector<std::string> ops() const override { return {"copy"}; }

  scenario::Schema op_schema(const std::string& op) const override {
    (void)op;
    using scenario::Schema;
    return Schema::map()
        .required("shapes", Schema::map().required("input", Schema::shape(1, 4)))
        .optional("data", Schema::map().optional("input", scenario::schemas::data_source(), "random"), "{}")
        .optional("addresses",
                  Schema::map()
                      .optional("src", Schema::integer(0, 0xffffffffll), "0x1000")
                      .optional("dst", Schema::integer(0, 0xffffffffll), "0x100000"),
                  "{}")
        .optional("fault", Schema::one_of({"none", "no_start"}), "none");
  }

  tb::Workload prepare(const scenario::Scenario& sc) const override {
    const scenario::Value& shape_v = sc["shapes"]["input"];
    const std::vector<int64_t> shape = shape_v.as_ints();
    int64_t bytes = 1;
    for (int64_t d : shape) bytes *= d;
    if (bytes % 8 != 0) {
      shape_v.fail("expected a shape whose size is a multiple of 8 bytes (the DMA moves 64-bit beats), got " +
                   std::to_string(bytes) + " bytes");
    }
    const scenario::Value& src_v = sc["addresses"]["src"];
    const scenario::Value& dst_v = sc["addresses"]["dst"];
    const uint64_t src = static_cast<uint64_t>(src_v.as_int());
    const uint64_t dst = static_cast<uint64_t>(dst_v.as_int());
    if (src % 8 != 0) src_v.fail("expected an 8-byte aligned address");
    if (dst % 8 != 0) dst_v.fail("expected an 8-byte aligned address");
    const uint64_t len = static_cast<uint64_t>(bytes);
    if (src + len > kDramBytes) src_v.fail("expected the source to fit in DRAM (64 MiB)");
    if (dst + len > kDramBytes) dst_v.fail("expected the destination to fit in DRAM (64 MiB)");
    if (src < dst + len && dst < src + len) {
      dst_v.fail("expected a destination that does not overlap the source [" + std::to_string(src) + ", " +
                 std::to_string(src + len) + ")");
    }
    const Layout layout = shape.size() == 4 ? Layout::kNHWC : Layout::kAny;
    tb::Workload w;
    Tensor input = scenario::make_tensor(sc, sc["data"]["input"], DType::kInt8, shape, layout, "input");
    w.summary = "copy " + std::to_string(len) + " bytes";
    w.expected["output"] = input;  // the golden model of a copy
    w.references.push_back({"output", "identity", input});
    w.inputs["input"] = std::move(input);
    w.state = CopyState{src, dst, sc["fault"].as_string() != "no_start"};
    return w;
  }

  trace::Trace compile(const scenario::Scenario& sc, const tb::Workload& w) const override {
    const auto& st = std::any_cast<const CopyState&>(w.state);
    const Tensor& input = w.inputs.at("input");
    trace::Trace t;
    t.target = name();
    t.mem_load(st.src, input.bytes(), "input");
    t.reg_write(regs::kLength, static_cast<uint32_t>(input.nbytes()));
    t.reg_write(regs::kSrc, static_cast<uint32_t>(st.src));
    t.reg_write(regs::kDst, static_cast<uint32_t>(st.dst));
    if (st.start) t.reg_write(regs::kControl, regs::control::kStartMask);
    t.wait_done(sc.testbench.timeout_cycles);
    t.mem_check(st.dst, w.expected.at("output"), "output");
    return t;
  }

  std::unique_ptr<tb::DutWrapper> make_dut(const char* name, const tb::TbConfig& cfg) const override {
    return std::make_unique<TestDutWrapper>(name, cfg);
  }

  tb::Metrics metrics(const tb::Workload* w, const tb::SimOutcome& run) const override {
    tb::Metrics m;
    (void)w;
    const auto it = run.perf.find("busy_cycles");
    if (it != run.perf.end() && it->second > 0) {
      m.extra["bytes_per_busy_cycle"] =
          static_cast<double>(run.memory.write_bytes) / static_cast<double>(it->second);
    }
    return m;
  }
};

}  // namespace
}  // namespace cosim::tb::testdut

namespace cosim::backends {
std::unique_ptr<tb::TargetBackend> make_testdut() { return std::make_unique<tb::testdut::TestDutBackend>(); }
}  // namespace cosim::backends
