#include "vta/program_builder.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "common/error.hpp"

namespace cosim::vta {

namespace {

uint16_t fit16(uint32_t v, const char* what) {
  if (v > 0xffffu) throw InputError(std::string("VTA builder: ") + what + " = " + std::to_string(v) + " exceeds 16 bits");
  return static_cast<uint16_t>(v);
}

uint8_t fit4(uint8_t v, const char* what) {
  if (v > 15) throw InputError(std::string("VTA builder: ") + what + " = " + std::to_string(v) + " exceeds 4 bits");
  return v;
}

// Which dep flag a token between two engines uses on each side.
struct TokenFlags {
  bool DepFlags::*push;
  bool DepFlags::*pop;
};

TokenFlags token_flags(Engine from, Engine to) {
  if (from == Engine::kLoad && to == Engine::kCompute) return {&DepFlags::push_next, &DepFlags::pop_prev};
  if (from == Engine::kCompute && to == Engine::kLoad) return {&DepFlags::push_prev, &DepFlags::pop_next};
  if (from == Engine::kCompute && to == Engine::kStore) return {&DepFlags::push_next, &DepFlags::pop_prev};
  if (from == Engine::kStore && to == Engine::kCompute) return {&DepFlags::push_prev, &DepFlags::pop_next};
  throw std::logic_error(std::string("VTA builder: no token queue from ") + engine_name(from) + " to " +
                         engine_name(to));
}

}  // namespace

uint32_t DramRegion::elem(uint64_t i) const {
  const uint64_t e = byte_addr / dram_element_bytes(type) + i;
  if (e > 0xffffffffu) throw InputError("DRAM region '" + name + "': element address exceeds 32 bits");
  return static_cast<uint32_t>(e);
}

DramRegion DramLayout::alloc(const std::string& name, MemType type, uint64_t elements) {
  const uint64_t align = std::max<uint64_t>(16, dram_element_bytes(type));
  DramRegion r;
  r.name = name;
  r.type = type;
  r.byte_addr = (next_ + align - 1) / align * align;
  r.elements = elements;
  next_ = r.end();
  regions_.push_back(r);
  return r;
}

DramRegion DramLayout::alloc_bytes(const std::string& name, uint64_t bytes, uint64_t align) {
  if (align == 0) align = 1;
  align = std::max<uint64_t>(align, 16);
  DramRegion r;
  r.name = name;
  r.type = MemType::kOut;  // 16-byte elements
  r.byte_addr = (next_ + align - 1) / align * align;
  r.elements = (bytes + 15) / 16;
  next_ = r.byte_addr + bytes;
  regions_.push_back(r);
  return r;
}

const DramRegion& DramLayout::find(const std::string& name) const {
  for (const auto& r : regions_) {
    if (r.name == name) return r;
  }
  throw std::out_of_range("DramLayout: no region named '" + name + "'");
}

void write_region(std::vector<uint8_t>& dram, const DramRegion& region, const void* data, uint64_t bytes,
                  uint64_t offset_bytes, uint64_t image_base) {
  if (offset_bytes + bytes > region.bytes()) {
    throw InputError("DRAM region '" + region.name + "': writing " + std::to_string(bytes) + " bytes at offset " +
                     std::to_string(offset_bytes) + " overflows its " + std::to_string(region.bytes()) + " bytes");
  }
  if (region.byte_addr < image_base || region.byte_addr + offset_bytes + bytes > image_base + dram.size()) {
    throw InputError("DRAM region '" + region.name + "' lies outside the image of " + std::to_string(dram.size()) +
                     " bytes from address " + std::to_string(image_base));
  }
  const uint64_t at = region.byte_addr - image_base + offset_bytes;
  if (bytes) std::memcpy(&dram[at], data, bytes);
}

void place(const BuiltProgram& p, std::vector<uint8_t>& dram, uint64_t image_base) {
  if ((!p.insns.empty() && p.insn_region.byte_addr < image_base) ||
      (!p.uops.empty() && p.uop_region.byte_addr < image_base)) {
    throw std::logic_error("place: the program lies below the image's base address");
  }
  const uint64_t need = std::max(p.insn_region.byte_addr + p.insns.size() * kInsnBytes,
                                 p.uop_region.byte_addr + p.uops.size() * kUopBytes);
  if (image_base + dram.size() < need) dram.resize(need - image_base, 0);
  const std::vector<uint8_t> ib = to_bytes(p.insns);
  if (!ib.empty()) std::memcpy(&dram[p.insn_region.byte_addr - image_base], ib.data(), ib.size());
  for (std::size_t i = 0; i < p.uops.size(); ++i) {
    const uint32_t w = encode_uop(p.uops[i]);
    for (int b = 0; b < 4; ++b) {
      dram[p.uop_region.byte_addr - image_base + 4 * i + b] = static_cast<uint8_t>(w >> (8 * b));
    }
  }
}

void ProgramBuilder::emit(Insn insn) {
  const Engine e = engine_of(insn);
  DepFlags& d = dep_of(insn);
  const DepFlags& p = pending(e);
  d.pop_prev = d.pop_prev || p.pop_prev;
  d.pop_next = d.pop_next || p.pop_next;
  pending(e) = DepFlags{};
  encode(insn);  // validates field widths now, where the caller can be named
  const uint64_t bytes = (uint64_t{insns_.size()} + 1) * 16 + uint64_t{uop_image_.size()} * 4;
  if (bytes > budget_) {
    throw InputError(budget_who_ + ": the program outgrows the DRAM left beside its data (" +
                     std::to_string(budget_) + " bytes) at instruction " + std::to_string(insns_.size()) +
                     ", with " + std::to_string(uop_image_.size()) + " micro-ops");
  }
  last_[static_cast<int>(e)] = static_cast<long>(insns_.size());
  insns_.push_back(insn);
  uop_load_.push_back(false);
}

void ProgramBuilder::load_2d(MemType type, uint32_t sram_base, uint32_t dram_base, uint32_t y_size, uint32_t x_size,
                             uint32_t x_stride, const Pad& pad) {
  if (type == MemType::kOut || !is_defined(type)) {
    throw InputError(std::string("VTA builder: cannot LOAD memory type ") + mem_type_name(type));
  }
  MemInsn m;
  m.opcode = Opcode::kLoad;
  m.mem_type = type;
  m.sram_base = fit16(sram_base, "sram_base");
  m.dram_base = dram_base;
  m.y_size = fit16(y_size, "y_size");
  m.x_size = fit16(x_size, "x_size");
  m.x_stride = fit16(x_stride, "x_stride");
  m.y_pad_0 = fit4(pad.y0, "y_pad_0");
  m.y_pad_1 = fit4(pad.y1, "y_pad_1");
  m.x_pad_0 = fit4(pad.x0, "x_pad_0");
  m.x_pad_1 = fit4(pad.x1, "x_pad_1");
  const uint64_t xt = uint64_t{pad.x0} + x_size + pad.x1;
  const uint64_t end = sram_base + (uint64_t{pad.y0} + y_size + pad.y1) * xt;
  if (x_size != 0 && end > sram_depth(type)) {
    throw InputError(std::string("VTA builder: LOAD ") + mem_type_name(type) + " SRAM entries [" +
                     std::to_string(sram_base) + ", " + std::to_string(end) + ") exceed the buffer depth " +
                     std::to_string(sram_depth(type)));
  }
  if (type == MemType::kUop && x_size != 0) resident_.clear();  // an explicit uop load may overwrite kernels
  emit(m);
}

void ProgramBuilder::store_2d(uint32_t sram_base, uint32_t dram_base, uint32_t y_size, uint32_t x_size,
                              uint32_t x_stride) {
  MemInsn m;
  m.opcode = Opcode::kStore;
  m.mem_type = MemType::kOut;
  m.sram_base = fit16(sram_base, "sram_base");
  m.dram_base = dram_base;
  m.y_size = fit16(y_size, "y_size");
  m.x_size = fit16(x_size, "x_size");
  m.x_stride = fit16(x_stride, "x_stride");
  if (x_size != 0 && sram_base + uint64_t{y_size} * x_size > kAccDepth) {
    throw InputError("VTA builder: STORE reads ACC entries past the buffer depth " + std::to_string(kAccDepth));
  }
  emit(m);
}

UopRange ProgramBuilder::load_uops(const std::vector<Uop>& uops) {
  for (const auto& r : resident_) {
    if (r.uops == uops) return r.range;
  }
  if (uops.size() > kUopDepth) throw InputError("VTA builder: a kernel of " + std::to_string(uops.size()) + " uops exceeds the uop buffer");
  if (uop_next_ + uops.size() > kUopDepth) uop_next_ = 0;  // wrap; compute runs in order, old kernels are done
  return load_uops(uops, uop_next_);
}

void ProgramBuilder::load_uop_kernels(const std::vector<std::vector<Uop>>& kernels) {
  std::vector<const std::vector<Uop>*> missing;
  std::vector<Uop> all;
  for (const auto& k : kernels) {
    const bool resident = std::any_of(resident_.begin(), resident_.end(), [&](const Resident& r) { return r.uops == k; });
    const bool repeated = std::any_of(missing.begin(), missing.end(), [&](const std::vector<Uop>* m) { return *m == k; });
    if (resident || repeated || k.empty()) continue;
    missing.push_back(&k);
    all.insert(all.end(), k.begin(), k.end());
  }
  if (all.empty()) return;
  const UopRange whole = load_uops(all);
  uint32_t at = whole.bgn;
  for (const std::vector<Uop>* k : missing) {
    resident_.push_back({*k, UopRange{at, at + static_cast<uint32_t>(k->size())}});
    at += static_cast<uint32_t>(k->size());
  }
}

UopRange ProgramBuilder::load_uops(const std::vector<Uop>& uops, uint32_t sram_base) {
  if (sram_base + uops.size() > kUopDepth) {
    throw InputError("VTA builder: uops [" + std::to_string(sram_base) + ", " + std::to_string(sram_base + uops.size()) +
                     ") exceed the uop buffer depth " + std::to_string(kUopDepth));
  }
  UopRange range{sram_base, static_cast<uint32_t>(sram_base + uops.size())};
  if (uops.empty()) return range;
  for (const Uop& u : uops) encode_uop(u);  // field widths
  MemInsn m;
  m.opcode = Opcode::kLoad;
  m.mem_type = MemType::kUop;
  m.sram_base = fit16(sram_base, "uop sram_base");
  m.dram_base = static_cast<uint32_t>(uop_image_.size());  // relative; fixed in build()
  m.y_size = 1;
  m.x_size = fit16(static_cast<uint32_t>(uops.size()), "uop count");
  m.x_stride = m.x_size;
  uop_image_.insert(uop_image_.end(), uops.begin(), uops.end());
  emit(m);
  uop_load_.back() = true;
  // Drop kernels this load overwrites, then remember this one.
  resident_.erase(std::remove_if(resident_.begin(), resident_.end(),
                                 [&](const Resident& r) { return r.range.bgn < range.end && range.bgn < r.range.end; }),
                  resident_.end());
  resident_.push_back({uops, range});
  uop_next_ = range.end;
  return range;
}

void ProgramBuilder::add_loop_insn(bool alu, AluOp op, bool use_imm, int32_t imm, bool reset, UopRange uops,
                                   const Loop& outer, const Loop& inner) {
  auto fit = [](uint32_t v, unsigned bits, const char* what) {
    if (v >= (1u << bits)) {
      throw InputError(std::string("VTA builder: ") + what + " = " + std::to_string(v) + " exceeds " +
                       std::to_string(bits) + " bits");
    }
    return static_cast<uint16_t>(v);
  };
  LoopNest l;
  l.uop_bgn = fit(uops.bgn, 13, "uop_bgn");
  l.uop_end = fit(uops.end, 14, "uop_end");
  l.iter_out = fit(outer.extent, 14, "outer extent");
  l.iter_in = fit(inner.extent, 14, "inner extent");
  l.dst_factor_out = fit(outer.dst_factor, 11, "outer dst_factor");
  l.dst_factor_in = fit(inner.dst_factor, 11, "inner dst_factor");
  l.src_factor_out = fit(outer.src_factor, 11, "outer src_factor");
  l.src_factor_in = fit(inner.src_factor, 11, "inner src_factor");
  if (alu) {
    if (imm < -32768 || imm > 32767) throw InputError("VTA builder: ALU immediate " + std::to_string(imm) + " exceeds 16 bits");
    AluInsn a;
    a.loop = l;
    a.op = op;
    a.use_imm = use_imm;
    a.imm = static_cast<int16_t>(imm);
    emit(a);
  } else {
    GemmInsn g;
    g.loop = l;
    g.reset = reset;
    g.wgt_factor_out = fit(outer.wgt_factor, 10, "outer wgt_factor");
    g.wgt_factor_in = fit(inner.wgt_factor, 10, "inner wgt_factor");
    emit(g);
  }
}

void ProgramBuilder::gemm(UopRange uops, const Loop& outer, const Loop& inner) {
  add_loop_insn(false, AluOp::kAdd, false, 0, false, uops, outer, inner);
}

void ProgramBuilder::gemm_reset(UopRange uops, const Loop& outer, const Loop& inner) {
  add_loop_insn(false, AluOp::kAdd, false, 0, true, uops, outer, inner);
}

void ProgramBuilder::alu_imm(AluOp op, int32_t imm, UopRange uops, const Loop& outer, const Loop& inner) {
  add_loop_insn(true, op, true, imm, false, uops, outer, inner);
}

void ProgramBuilder::alu_reg(AluOp op, UopRange uops, const Loop& outer, const Loop& inner) {
  add_loop_insn(true, op, false, 0, false, uops, outer, inner);
}

void ProgramBuilder::noop(Engine e) {
  MemInsn m;
  m.x_size = 0;
  switch (e) {
    case Engine::kLoad:
      m.opcode = Opcode::kLoad;
      m.mem_type = MemType::kInp;
      break;
    case Engine::kCompute:
      m.opcode = Opcode::kLoad;
      m.mem_type = MemType::kUop;
      break;
    case Engine::kStore:
      m.opcode = Opcode::kStore;
      m.mem_type = MemType::kOut;
      break;
  }
  emit(m);
}

void ProgramBuilder::push(Engine from, Engine to) {
  const TokenFlags f = token_flags(from, to);
  const long last = last_[static_cast<int>(from)];
  if (last >= 0 && !(dep_of(insns_[last]).*f.push)) {
    dep_of(insns_[last]).*f.push = true;
    return;
  }
  noop(from);
  dep_of(insns_.back()).*f.push = true;
}

void ProgramBuilder::pop(Engine from, Engine to) {
  const TokenFlags f = token_flags(from, to);
  if (pending(to).*f.pop) {
    throw std::logic_error(std::string("VTA builder: ") + engine_name(to) + " already has a pending pop from " +
                           engine_name(from));
  }
  pending(to).*f.pop = true;
}

void ProgramBuilder::finish() {
  if (pending(Engine::kCompute).any()) noop(Engine::kCompute);  // carry the caller's pops first
  if (last_[static_cast<int>(Engine::kLoad)] >= 0) sync(Engine::kLoad, Engine::kCompute);
  if (last_[static_cast<int>(Engine::kStore)] >= 0) sync(Engine::kStore, Engine::kCompute);
  emit(FinishInsn{});
}

BuiltProgram ProgramBuilder::build(DramLayout& layout) const {
  for (int e = 0; e < 3; ++e) {
    if (pending_[e].any()) {
      throw std::logic_error(std::string("VTA builder: a pop on the ") + engine_name(static_cast<Engine>(e)) +
                             " engine has no instruction to carry it");
    }
  }
  BuiltProgram p;
  p.insns = insns_;
  p.uops = uop_image_;
  p.uop_region = layout.alloc("uops", MemType::kUop, uop_image_.size());
  p.insn_region = layout.alloc_bytes("insns", insns_.size() * kInsnBytes, 16);
  for (std::size_t i = 0; i < p.insns.size(); ++i) {
    if (!uop_load_[i]) continue;
    auto& m = std::get<MemInsn>(p.insns[i]);
    m.dram_base = p.uop_region.elem(m.dram_base);
  }
  return p;
}

}  // namespace cosim::vta
