#include "vta_compiler/compiled_program.hpp"

#include "common/error.hpp"
#include "vta/disasm.hpp"

namespace cosim::vta {

Tensor CompiledProgram::extract_output(const std::vector<uint8_t>& image) const {
  if (output.byte_addr + output.bytes > image.size()) {
    throw InputError("VTA " + op + ": DRAM image of " + std::to_string(image.size()) +
                     " bytes does not cover the output region [" + std::to_string(output.byte_addr) + ", " +
                     std::to_string(output.byte_addr + output.bytes) + ")");
  }
  Tensor t(DType::kInt8, output.shape, output.kind == OutputLayout::Kind::kBlockedNhwc ? Layout::kNHWC : Layout::kAny);
  int8_t* y = t.data<int8_t>();
  const uint8_t* src = image.data() + output.byte_addr;
  if (output.kind == OutputLayout::Kind::kFlat) {
    for (int64_t i = 0; i < t.numel(); ++i) y[i] = static_cast<int8_t>(src[i]);
    return t;
  }
  const int64_t n = output.shape[0], h = output.shape[1], w = output.shape[2], c = output.shape[3];
  const int64_t cb = (c + kBlock - 1) / kBlock;
  for (int64_t in = 0; in < n; ++in)
    for (int64_t ih = 0; ih < h; ++ih)
      for (int64_t iw = 0; iw < w; ++iw)
        for (int64_t ic = 0; ic < c; ++ic) {
          const int64_t blk = ((in * cb + ic / kBlock) * h + ih) * w + iw;
          *y++ = static_cast<int8_t>(src[blk * kBlock + ic % kBlock]);
        }
  return t;
}

std::optional<std::size_t> CompiledProgram::store_writing(const std::vector<int64_t>& index) const {
  for (std::size_t i = 0; i < work.size(); ++i) {
    const WorkUnit& u = work[i];
    if (!u.stores_output) continue;
    if (output.kind == OutputLayout::Kind::kFlat) {
      if (index.size() == 1 && index[0] >= u.e0 && index[0] < u.e1) return i;
    } else if (index.size() == 4 && index[0] == u.n && index[1] >= u.h0 && index[1] < u.h1 && index[2] >= u.w0 &&
               index[2] < u.w1 && index[3] >= u.c0 && index[3] < u.c1) {
      return i;
    }
  }
  return std::nullopt;
}

std::string CompiledProgram::listing() const {
  std::string s;
  for (std::size_t i = 0; i < insns.size(); ++i) {
    s += std::to_string(i) + ": " + disassemble(insns[i]);
    if (i < work.size() && !work[i].text.empty()) s += "  ; " + work[i].text;
    s += '\n';
  }
  return s;
}

}  // namespace cosim::vta
