// VTA core: configuration, instruction and micro-op layouts, register map,
// performance counters and the debug status vector.
//
// The instruction layouts are bit-exact with shared/spec/vta-isa.md (128-bit
// words, word 0 = bits 63:0, little endian); they are described once in
// vta_isa.yaml and generated into vta_isa_pkg (scripts/dutgen_isa.py; C++:
// dut/vta_isa.hpp), which this package exports.
//
// Configuration: the buffer depths and the AXI data width are parameters of
// vta_top (defaults below) so that a smaller core can be verilated with -G;
// BATCH and BLOCK are fixed by the element byte sizes of the ISA's DRAM image.
//
// AXI4 master (one port, vta_top m_axi_*): INCR bursts of at most 256 beats
// that never cross a 4 KB boundary; full-width beats only (AxSIZE = log2 of the
// data bytes). Default data width 128 bits: one beat carries exactly one
// instruction, one INP or OUT element, a quarter of an ACC element and a
// sixteenth of a WGT element. Supported widths: 64 and 128 bits (every element
// except UOP is then a whole number of beats). Read IDs: 0 fetch, 1 LOAD engine,
// 2 COMPUTE engine (UOP / ACC loads); the STORE engine writes with ID 0.
//
// Host register port (vta_top reg_*): valid/ready request (write flag, byte
// address, 32-bit data) and a response carrying read data (also for writes).
// The register map (offsets, fields, the perf counter group), the ERR_INFO
// and engine-state enums and the debug status vector status_t are described
// once in vta.yaml and generated into vta_reg_pkg, which this package
// exports (scripts/dutgen.py; C++: dut/vta_regs.hpp).
// Behaviour the spec leaves open, fixed here:
//  - Errors (ERR_INFO codes, err_e) set the error flag and halt every engine:
//    undefined opcode / ALU opcode, a LOAD memory type other than UOP, WGT,
//    INP, ACC, ACC_8BIT, a STORE memory type other than OUT, INSN_ADDR not
//    16-byte aligned, a LOAD / STORE SRAM range beyond its buffer, uop_end
//    beyond the UOP buffer, a GEMM / ALU index beyond INP / WGT / ACC, and
//    SLVERR / DECERR responses.
//  - ALU SHR with |shift| >= 32: a right shift fills with the sign, a left
//    shift gives 0 (SystemVerilog >>> / << semantics).
//  - Each engine's instruction queue holds InsnQueueDepth instructions, and
//    the fetch stays at most MaxAhead (vta_fetch, 48) instructions ahead of
//    the engines, over all three queues. A program is safe when every pop's
//    token is pushed earlier in the stream (the oldest instruction left can
//    then always run); one needing more instructions queued ahead of a
//    token than that would deadlock, as on the original hardware with its
//    queue depth.
//  - Token queues count up to 2**TokenCountWidth - 1 and saturate.
//  - status_o (status_t) is a debug view for harnesses: engine states, the
//    head / current instruction's opcode and pop flags, token counts and
//    queue occupancies (the bare driver turns it into a timeout diagnosis).
package vta_pkg;

  // Registers, ERR_INFO / engine-state enums, status_t: generated from vta.yaml.
  import vta_reg_pkg::*;
  export vta_reg_pkg::*;
  // Word widths and instruction / micro-op layouts: generated from vta_isa.yaml.
  import vta_isa_pkg::*;
  export vta_isa_pkg::*;

  // ---------------------------------------------------------------------------
  // Configuration
  // ---------------------------------------------------------------------------
  parameter int unsigned Batch     = 1;
  parameter int unsigned BlockIn   = 16;
  parameter int unsigned BlockOut  = 16;
  parameter int unsigned InpBits   = 8;
  parameter int unsigned WgtBits   = 8;
  parameter int unsigned AccBits   = 32;
  parameter int unsigned OutBits   = 8;

  parameter int unsigned DefInpDepth  = 2048;  // entries of 1x16 int8
  parameter int unsigned DefWgtDepth  = 1024;  // entries of 16x16 int8
  parameter int unsigned DefAccDepth  = 2048;  // entries of 1x16 int32
  parameter int unsigned DefUopDepth  = 8192;  // micro-ops

  parameter int unsigned InpWidth  = Batch * BlockIn * InpBits;              // 128
  parameter int unsigned WgtWidth  = BlockOut * BlockIn * WgtBits;           // 2048
  parameter int unsigned AccWidth  = Batch * BlockOut * AccBits;             // 512
  parameter int unsigned OutWidth  = Batch * BlockOut * OutBits;             // 128

  parameter int unsigned AxiDataWidth = 128;
  parameter int unsigned AxiAddrWidth = 64;
  parameter int unsigned AxiIdWidth   = 2;

  parameter int unsigned InsnQueueDepth = 32;  // per engine (128 measured the same: the fetch stays 48 ahead)
  parameter int unsigned TokenCountWidth = 16;  // per token queue

  // AXI read IDs of the three read clients.
  parameter logic [AxiIdWidth-1:0] IdFetch   = 2'd0;
  parameter logic [AxiIdWidth-1:0] IdLoad    = 2'd1;
  parameter logic [AxiIdWidth-1:0] IdCompute = 2'd2;

  // ---------------------------------------------------------------------------
  // ISA encodings
  // ---------------------------------------------------------------------------
  // opcode_e, mem_e and alu_op_e: generated from vta.yaml into vta_reg_pkg.
  // InsnWidth, UopWidth and the layouts insn_hdr_t, insn_mem_t, insn_gemm_t,
  // insn_alu_t, insn_finish_t and uop_t: generated from vta_isa.yaml into
  // vta_isa_pkg.

  // DRAM bytes of one element of each memory type: log2.
  function automatic logic [3:0] elem_bytes_log2(logic [2:0] mt);
    unique case (mt)
      MemUop:  return 4'd2;
      MemWgt:  return 4'd8;
      MemInp:  return 4'd4;
      MemAcc:  return 4'd6;
      MemOut:  return 4'd4;
      MemAcc8: return 4'd4;
      default: return 4'd4;
    endcase
  endfunction



  function automatic logic [7:0] sat8(logic [31:0] v);
    return (v > 32'd255) ? 8'd255 : v[7:0];
  endfunction

endpackage
