// libFuzzer target for trace directories (cpp_model/trace): the input is
// trace.txt, optionally followed by up to three blobs, each after a line
// "%%" (files b0.bin, b1.bin, b2.bin next to trace.txt). A trace that reads
// holds checks whose blobs match their tensors, whose memory layout math
// stays inside the span it reports, and it survives write_trace/read_trace;
// anything else is one line of cosim::InputError.
#include <cstddef>
#include <cstdint>
#include <string>

#include "../fuzz_common.hpp"
#include "trace/trace.hpp"

namespace {

using cosim::fuzz::require;
using cosim::trace::Op;
using cosim::trace::Step;
using cosim::trace::Trace;

void check_step(const Step& s) {
  if (s.op != Op::kMemCheck && s.op != Op::kStreamCheck) return;
  const auto& d = s.tensor;
  require(s.data.size() == d.nbytes(), "check blob size differs from its tensor");
  const cosim::Tensor t = Trace::expected_tensor(s);
  require(t.nbytes() == s.data.size(), "expected_tensor size");
  const int64_t n = d.numel();
  require(n > 0, "empty check tensor accepted");
  const std::size_t span = d.memory_bytes();
  require(span >= d.nbytes(), "memory span smaller than the tensor");
  const std::size_t esize = cosim::dtype_size(d.dtype);
  // First and last element (and one in the middle) sit inside the span.
  for (int64_t flat : {int64_t{0}, n / 2, n - 1}) require(d.memory_offset(flat) + esize <= span, "element outside the span");
}

bool same(const Trace& a, const Trace& b) {
  if (a.target != b.target || a.config != b.config || a.steps.size() != b.steps.size()) return false;
  for (std::size_t i = 0; i < a.steps.size(); ++i) {
    const Step& x = a.steps[i];
    const Step& y = b.steps[i];
    if (x.op != y.op || x.addr != y.addr || x.value != y.value || x.stream != y.stream || x.data != y.data) return false;
    if (x.op == Op::kMemDump && x.file != y.file) return false;
    if (x.expected != y.expected || x.mask != y.mask || x.reg_name != y.reg_name) return false;
    if (x.op == Op::kMemCheck || x.op == Op::kStreamCheck) {
      const auto& p = x.tensor;
      const auto& q = y.tensor;
      if (p.name != q.name || p.dtype != q.dtype || p.shape != q.shape || p.layout != q.layout ||
          p.channel_block != q.channel_block || p.row_pitch != q.row_pitch)
        return false;
    }
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  static cosim::fuzz::ScratchDir dir;
  dir.fresh();
  const std::vector<std::string> parts = cosim::fuzz::split_parts(data, size, 4);
  dir.write("in/trace.txt", parts[0]);
  for (std::size_t i = 1; i < parts.size(); ++i) dir.write("in/b" + std::to_string(i - 1) + ".bin", parts[i]);
  Trace t;
  try {
    t = cosim::trace::read_trace(dir.path() + "/in");
  } catch (const cosim::InputError& e) {
    cosim::fuzz::check_one_line(e);
    return 0;
  }
  for (const Step& s : t.steps) check_step(s);
  const std::string out = dir.path() + "/out";
  cosim::trace::write_trace(t, out);
  require(same(t, cosim::trace::read_trace(out)), "write_trace/read_trace round trip differs");
  return 0;
}
