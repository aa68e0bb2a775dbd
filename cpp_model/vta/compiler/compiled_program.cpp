#include "vta/compiler/compiled_program.hpp"

#include <cstddef>
#include <stdexcept>
#include <variant>

#include "common/error.hpp"
#include "vta/disasm.hpp"
#include "vta/compiler/layout_transform.hpp"

namespace cosim::vta {

void write_int32_region(std::vector<uint8_t>& dram, const DramRegion& region, const std::vector<int32_t>& values,
                        uint64_t image_base) {
  std::vector<uint8_t> bytes(values.size() * 4);
  for (std::size_t i = 0; i < values.size(); ++i)
    for (int k = 0; k < 4; ++k) bytes[4 * i + k] = static_cast<uint8_t>(static_cast<uint32_t>(values[i]) >> (8 * k));
  write_region(dram, region, bytes.data(), bytes.size(), 0, image_base);
}

uint64_t CompiledProgram::compute_load_cycles() const {
  constexpr uint64_t kBeatBytes = 16;
  uint64_t cycles = 0;
  for (const Insn& i : insns) {
    const auto* m = std::get_if<MemInsn>(&i);
    if (m == nullptr || m->opcode != Opcode::kLoad) continue;
    // The loader writes one beat of a data element, or one whole padding
    // element, per cycle.
    const uint64_t elems = static_cast<uint64_t>(m->y_size + m->y_pad_0 + m->y_pad_1) *
                           static_cast<uint64_t>(m->x_size + m->x_pad_0 + m->x_pad_1);
    const uint64_t data = static_cast<uint64_t>(m->y_size) * m->x_size;
    if (m->mem_type == MemType::kUop) cycles += data;
    if (m->mem_type == MemType::kAcc) cycles += data * (kAccElemBytes / kBeatBytes) + (elems - data);
    if (m->mem_type == MemType::kAcc8) cycles += elems;
  }
  return cycles;
}

RawProgram CompiledProgram::raw() const {
  RawProgram r{std::vector<uint8_t>(image_base, 0), insn_addr, insn_count};
  r.dram.insert(r.dram.end(), dram.begin(), dram.end());
  return r;
}

Tensor CompiledProgram::extract_output(const std::vector<uint8_t>& image) const {
  if (output.byte_addr + output.bytes > image.size()) {
    throw InputError("VTA " + op + ": DRAM image of " + std::to_string(image.size()) +
                     " bytes does not cover the output region [" + std::to_string(output.byte_addr) + ", " +
                     std::to_string(output.byte_addr + output.bytes) + ")");
  }
  const uint8_t* src = image.data() + output.byte_addr;
  if (output.kind != OutputLayout::Kind::kFlat) {
    // Blocked NHWC (16-channel blocks): the layout transform's inverse.
    return unpack_activations(std::vector<uint8_t>(src, src + output.bytes), output.shape);
  }
  Tensor t(DType::kInt8, output.shape, Layout::kAny);
  int8_t* y = t.data<int8_t>();
  for (int64_t i = 0; i < t.numel(); ++i) y[i] = static_cast<int8_t>(src[i]);
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
