// Writes the VTA program of a CONV_2D the core convolves directly (internal
// to vta_compiler; compile_conv2d checks the operands and takes the host
// im2col path first). The schedule is the one conv2d_compiler.hpp describes;
// each section of it is one method, the state they share is the members.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "vta/golden/vta_quant.hpp"
#include "tensor/tensor.hpp"
#include "vta/program_builder.hpp"
#include "vta/compiler/compiled_program.hpp"
#include "vta/compiler/conv2d_compiler.hpp"
#include "vta/compiler/conv2d_geometry.hpp"
#include "vta/compiler/fused_requant.hpp"
#include "vta/compiler/tflite_requant_program.hpp"

namespace cosim::vta::conv2d {

class Conv2dProgramWriter {
 public:
  // The operands as compile_conv2d checked them, `g` their geometry; `tfl`
  // null: the VTA 16-bit `plans`, else the TFLite program (and `plans` only
  // give the harmless 16-bit vectors). Throws cosim::InputError when the
  // layer does not fit the buffers or the DRAM limit. The references must
  // outlive the writer.
  Conv2dProgramWriter(const Tensor& input, const Tensor& filter, const Tensor& bias, const Geo& g, int32_t zp_in,
                      const std::vector<quant::VtaRequantPlan>& plans, const TfliteRequantProgram* tfl,
                      const CompileOptions& opt);

  // The whole program; call once.
  CompiledProgram write();

 private:
  // One output tile of a group, in program order.
  struct TilePos {
    int64_t n, r0, rr, c0, cw;
    int64_t pix() const { return rr * cw; }
    int64_t rows_in(const Geo& g) const { return g.in_rows(rr); }
    int64_t cols_in(const Geo& g) const { return (cw - 1) * g.sw + g.kw; }
  };
  // Output rows [first, end) of a tile, and the input window rows [0,
  // window_rows) they read.
  struct RowPart {
    int64_t first, end, window_rows;
  };
  // The output-channel group being written: its first block, its block
  // count, its WGT base.
  struct Group {
    int64_t index, ob0, gn, wbase;
  };
  using SliceRuns = std::vector<std::pair<int64_t, int64_t>>;
  // What every section of one tile reads: where it sits, its input window
  // in the image (rows / columns of padding and of data), its ACC base and
  // its work unit.
  struct Tile {
    const TilePos* pos;
    const Group* group;
    int64_t t, rows_in, cols_in, pix, ab;
    int64_t y0, yi, ysz, x0, xi, xsz, x1;
    bool split_store;
    SliceRuns runs;
    bool first_of_chunked;
    std::string desc;
    WorkUnit wu;
  };

  // ---- set-up: DRAM, the per-channel vectors, the SRAM plan --------------
  void check_dram_budget() const;
  void allocate_regions();
  int32_t& param(int64_t ob, int64_t entry, int64_t lane);
  std::vector<int64_t> tap_sums(int64_t o) const;
  void fill_plan_vectors(std::vector<int64_t>& bias_terms, std::vector<std::vector<int64_t>>& corrections);
  void fill_border_corrections(int64_t o, const std::vector<int64_t>& tap, int64_t total,
                               std::vector<std::vector<int64_t>>& corrections);
  void write_fused_starts();
  void write_tflite_vectors();
  void summarize_plans();
  void plan_sram();
  void list_tiles();
  void check_instruction_floor() const;

  // ---- uop kernels ---------------------------------------------------------
  int64_t inp_base(int64_t t) const { return t * inp_half_; }
  int64_t acc_base(int64_t t) const { return acc_params_ + t * acc_half_; }
  // ALU loop over a group's gn blocks of `pix` accumulators (the source
  // steps through the blocks' parameter entries).
  Loop over_blocks(int64_t gn, int64_t pix) const;
  SliceRuns slice_runs(int64_t count) const;
  std::vector<Uop> gemm_kernel(const TilePos& tp, int64_t t, int64_t gn, int64_t wbase) const;
  std::vector<RowPart> first_tile_parts(const TilePos& tp) const;
  std::vector<Uop> rows_down(std::vector<Uop> k, const TilePos& tp, int64_t a) const;
  std::vector<std::vector<Uop>> first_part_kernels(const TilePos& tp, int64_t gn, int64_t wbase) const;
  std::vector<Uop> alu_kernel(int64_t t) const;
  std::vector<Uop> split_kernel(const TilePos& tp, int64_t t, int64_t gn) const;
  std::vector<Uop> reset_kernel(int64_t t) const;
  std::map<int64_t, std::vector<Uop>> start_kernels(const TilePos& tp, int64_t t) const;

  // ---- the program ---------------------------------------------------------
  void note(const WorkUnit& u);
  void load_pop_until(int64_t need);
  void write_group(int64_t grp);
  bool params_go_late(const Group& gr, bool chunked) const;
  void load_params(const Group& gr);
  void start_program(const Group& gr, bool params_late);
  void reset_accumulators();
  std::vector<std::vector<Uop>> first_kernels(const Group& gr) const;
  Tile make_tile(const Group& gr, const TilePos& tp) const;
  std::vector<RowPart> row_parts(const Tile& tile, int64_t q_lo) const;
  void load_tile_input(Tile& tile);
  void load_window_rows(const Tile& tile, int64_t q_lo, int64_t q_hi, int64_t lo, int64_t hi);
  void compute_tile(Tile& tile);
  void emit_start(const TilePos& tp, int64_t t, int64_t gn);
  void requantize_tile(Tile& tile);
  void correct_borders(const Tile& tile);
  void requantize_tflite(const Tile& tile);
  void requantize_vta(const Tile& tile);
  int emit_requant_steps(UopRange ak, const Loop& outer, const Loop& inner, const Loop& all);
  void store_tile(Tile& tile);
  WorkUnit store_unit(const Tile& tile, int64_t c0, int64_t c1) const;
  void finish();
  void write_dram_data();
  std::string describe_tiling() const;

  // The operands and the layer's shape and tiling.
  const Tensor& input_;
  const Tensor& filter_;
  const Tensor& bias_;
  const std::vector<quant::VtaRequantPlan>& plans_;
  const TfliteRequantProgram* tfl_;
  const CompileOptions& opt_;
  const Geo g_;
  const int32_t zp_in_;
  const Borders bd_;
  const Conv2dTiling tl_;
  const int64_t ps_;       // ACC parameter entries per output block
  const int64_t threads_;
  const uint64_t data_bytes_;

  // The program being written, its DRAM regions and its builder.
  CompiledProgram cp_;
  DramRegion r_in_, r_w_, r_p_, r_out_;
  ProgramBuilder b_;

  // The per-channel vectors (host) and what the plans have in common.
  std::vector<int32_t> par_;
  std::optional<FusedRequant> fused_;
  bool any_pre_ = false, any_post_ = false, same_zp_ = true, same_min_ = true, same_max_ = true;
  bool any_offset_ = false;
  bool trim_params_ = false;
  int64_t dram_ps_ = 0;  // DRAM parameter entries per block

  // The SRAM plan and the tiles.
  int64_t nob_ = 0, inp_half_ = 0, acc_params_ = 0, acc_half_ = 0;
  int64_t slices_ = 0, first_chunks_ = 0, first_run_slices_ = 0;
  std::vector<TilePos> tiles_;
  int64_t halves_used_ = 0;

  // Token accounting while the program is written.
  int64_t tile_idx_ = 0, c2l_popped_ = 0, s2c_popped_ = 0;
  std::vector<int64_t> group_first_;  // first tile index of each group
  bool load_pop_pending_ = false;
  bool input_waits_for_start_ = false;  // the first input load takes COMPUTE's start token
};

}  // namespace cosim::vta::conv2d
