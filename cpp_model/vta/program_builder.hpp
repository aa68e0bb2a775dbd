// Building VTA programs the way a runtime does: 2-D loads and stores with
// padding and strides, micro-op kernels with two loop levels, GEMM and ALU
// instructions, dependency tokens between the three engines, FINISH; plus a
// DRAM layout helper that places data, micro-ops and the instruction stream
// in one flat DRAM image.
//
//   DramLayout layout;
//   DramRegion in = layout.alloc("input", MemType::kInp, 64);
//   ProgramBuilder b;
//   b.load_2d(MemType::kInp, 0, in.elem_base(), 4, 16, 16, Pad{1, 1, 0, 0});
//   b.push(Engine::kLoad, Engine::kCompute);
//   b.pop(Engine::kLoad, Engine::kCompute);
//   UopRange k = b.load_uops({{0, 0, 0}, {1, 1, 0}});
//   b.gemm(k, Loop{4, 2, 2, 0});
//   ...
//   b.finish();
//   BuiltProgram p = b.build(layout);
//   std::vector<uint8_t> dram = layout.make_image();
//   place(p, dram);
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "vta/isa.hpp"

namespace cosim::vta {

// ---- DRAM layout ------------------------------------------------------------
struct DramRegion {
  std::string name;
  MemType type = MemType::kInp;  // element type: dram_base counts these
  uint64_t byte_addr = 0;
  uint64_t elements = 0;
  uint64_t bytes() const { return elements * dram_element_bytes(type); }
  uint64_t end() const { return byte_addr + bytes(); }
  // dram_base of element i (throws cosim::InputError past 32 bits).
  uint32_t elem(uint64_t i = 0) const;
  uint32_t elem_base() const { return elem(0); }
};

// Bump allocator over the DRAM image. Each region is aligned to its element
// size (WGT to 256 bytes, ACC to 64, ...) and at least to 16 bytes.
class DramLayout {
 public:
  explicit DramLayout(uint64_t base_addr = 0) : base_(base_addr), next_(base_addr) {}
  DramRegion alloc(const std::string& name, MemType type, uint64_t elements);
  // Raw bytes (e.g. the instruction stream); `type` only documents the use.
  DramRegion alloc_bytes(const std::string& name, uint64_t bytes, uint64_t align = 16);
  uint64_t size() const { return next_; }  // the end address of the last region
  uint64_t base() const { return base_; }
  const std::vector<DramRegion>& regions() const { return regions_; }
  // Throws std::out_of_range for an unknown name.
  const DramRegion& find(const std::string& name) const;
  // A zeroed image covering every region, from base(): a layout placed high
  // in DRAM (a network's later layers) gets no image of the bytes below it.
  std::vector<uint8_t> make_image() const { return std::vector<uint8_t>(next_ - base_, 0); }

 private:
  uint64_t base_;
  uint64_t next_;
  std::vector<DramRegion> regions_;
};

// Copies bytes into a region of the image (throws cosim::InputError when they
// do not fit the region or the image).
// `dram` holds the image from address `image_base` (DramLayout::make_image).
void write_region(std::vector<uint8_t>& dram, const DramRegion& region, const void* data, uint64_t bytes,
                  uint64_t offset_bytes = 0, uint64_t image_base = 0);

// ---- program builder --------------------------------------------------------
struct Pad {
  uint8_t y0 = 0, y1 = 0, x0 = 0, x1 = 0;  // 0..15 each
};

// One loop level of a micro-op kernel: extent and per-iteration index steps.
struct Loop {
  uint32_t extent = 1;
  uint32_t dst_factor = 0;
  uint32_t src_factor = 0;
  uint32_t wgt_factor = 0;  // GEMM only
};

// A range [bgn, end) of the on-chip micro-op buffer.
struct UopRange {
  uint32_t bgn = 0, end = 0;
  uint32_t size() const { return end - bgn; }
};

struct BuiltProgram {
  std::vector<Insn> insns;
  std::vector<Uop> uops;  // the micro-op image, placed at uop_region
  DramRegion insn_region;
  DramRegion uop_region;
  std::vector<uint8_t> insn_bytes() const { return to_bytes(insns); }
};

// Writes the instruction stream and the micro-ops into the image, growing it
// when needed.
void place(const BuiltProgram& program, std::vector<uint8_t>& dram, uint64_t image_base = 0);

class ProgramBuilder {
 public:
  // -- memory (field widths are checked here; cosim::InputError names the field)
  void load_2d(MemType type, uint32_t sram_base, uint32_t dram_base, uint32_t y_size, uint32_t x_size,
               uint32_t x_stride, const Pad& pad = {});
  void load_1d(MemType type, uint32_t sram_base, uint32_t dram_base, uint32_t count) {
    load_2d(type, sram_base, dram_base, 1, count, count);
  }
  // STORE OUT: ACC entries sram_base + y*x_size + x -> DRAM element dram_base + y*x_stride + x.
  void store_2d(uint32_t sram_base, uint32_t dram_base, uint32_t y_size, uint32_t x_size, uint32_t x_stride);

  // -- micro-ops. The uops go into the builder's uop image (placed in DRAM by
  // build()) and a LOAD UOP brings them into the buffer, at `sram_base` or at
  // the next free position. A kernel still resident in the buffer is reused
  // without reloading.
  UopRange load_uops(const std::vector<Uop>& uops);
  UopRange load_uops(const std::vector<Uop>& uops, uint32_t sram_base);
  // Several kernels in one LOAD UOP (one DRAM request instead of one each);
  // afterwards each is resident on its own, as if loaded by load_uops.
  void load_uop_kernels(const std::vector<std::vector<Uop>>& kernels);

  // -- compute: for i < outer.extent, j < inner.extent, each uop in range.
  void gemm(UopRange uops, const Loop& outer = {}, const Loop& inner = {});
  void gemm_reset(UopRange uops, const Loop& outer = {}, const Loop& inner = {});
  void alu_imm(AluOp op, int32_t imm, UopRange uops, const Loop& outer = {}, const Loop& inner = {});
  void alu_reg(AluOp op, UopRange uops, const Loop& outer = {}, const Loop& inner = {});

  // -- dependency tokens between neighbouring engines (LOAD<->COMPUTE,
  // COMPUTE<->STORE). push(): the last instruction of `from` pushes a token
  // (a no-op is added when `from` has none or already pushes that queue).
  // pop(): the next instruction of `to` waits for and takes the token.
  void push(Engine from, Engine to);
  void pop(Engine from, Engine to);
  // push + pop: everything before on `from` happens before what follows on `to`.
  void sync(Engine from, Engine to) {
    push(from, to);
    pop(from, to);
  }
  // A no-op on engine e (LOAD/STORE with x_size 0), carrying pending pops.
  void noop(Engine e);
  // Orders FINISH after every LOAD and STORE and appends it.
  void finish();

  // Allocates "uops" and "insns" regions in the layout and fixes up the LOAD
  // UOP addresses. Throws std::logic_error when pops are still pending.
  BuiltProgram build(DramLayout& layout) const;

  const std::vector<Insn>& insns() const { return insns_; }
  std::size_t size() const { return insns_.size(); }

  // The DRAM the instructions (16 bytes each) and micro-ops (4 bytes each)
  // may take: InputError from `who` as soon as the program outgrows it, so a
  // layer too large for the DRAM is refused while it is being built, not
  // after millions of instructions are held in memory.
  void set_dram_budget(uint64_t bytes, std::string who) {
    budget_ = bytes;
    budget_who_ = std::move(who);
  }

 private:
  void emit(Insn insn);
  DepFlags& pending(Engine e) { return pending_[static_cast<int>(e)]; }
  void add_loop_insn(bool alu, AluOp op, bool use_imm, int32_t imm, bool reset, UopRange uops, const Loop& outer,
                     const Loop& inner);

  struct Resident {
    std::vector<Uop> uops;
    UopRange range;
  };

  std::vector<Insn> insns_;
  std::vector<bool> uop_load_;  // instruction i is a LOAD UOP whose dram_base is relative to the uop image
  std::vector<Uop> uop_image_;
  std::vector<Resident> resident_;
  uint32_t uop_next_ = 0;
  std::array<DepFlags, 3> pending_{};
  std::array<long, 3> last_{-1, -1, -1};  // last instruction index per engine
  uint64_t budget_ = UINT64_MAX;
  std::string budget_who_;
};

}  // namespace cosim::vta
