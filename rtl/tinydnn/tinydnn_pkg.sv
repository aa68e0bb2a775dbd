// tiny-dnn bfloat16 convolution accelerator: sizes and types. The register
// map and the debug port layout (dbg_t) are described once in tinydnn.yaml and
// generated into tinydnn_reg_pkg, which this package exports.
// The arithmetic is fixed by shared/spec/tinydnn.md; the C++ twin of these
// constants is cpp_model/tinydnn/program.hpp.
package tinydnn_pkg;

  // Register word addresses and dbg_t: generated from tinydnn.yaml.
  import tinydnn_reg_pkg::*;
  export tinydnn_reg_pkg::*;

  parameter int unsigned NumCores     = 16;
  parameter int unsigned WBankDepth   = 1024;  // bf16 per weight bank (2 banks per core)
  parameter int unsigned SrcBankDepth = 4096;  // bf16 per source bank (2 banks)
  parameter int unsigned DstBankDepth = 4096;  // float32 per destination bank (2 banks)

  parameter int unsigned WAddrW   = $clog2(2 * WBankDepth);    // bank bit on top
  parameter int unsigned SrcAddrW = $clog2(2 * SrcBankDepth);
  parameter int unsigned DstAddrW = $clog2(2 * DstBankDepth);  // float32 word address
  parameter int unsigned CoreW    = $clog2(NumCores);
  parameter int unsigned DimW     = 8;   // width of each size register
  parameter int unsigned CntW     = 13;  // element counters up to 2 * 4096

  parameter logic [15:0] Bf16One = 16'h3F80;  // d of the bias step

  // The running sum: value = (-1)^s * a * 2^(e - 268), e and a two's complement.
  typedef struct packed {
    logic        s;
    logic [9:0]  e;
    logic [31:0] a;
  } sum_t;

  // Mode register bits (bit 0 first).
  typedef struct packed {
    logic last_sample;  // bit 6: dW run ends the mini-batch, stream dW out
    logic dw;           // bit 5
    logic backward;     // bit 4
    logic en_bias;      // bit 3
    logic run;          // bit 2
    logic wr_bias;      // bit 1
    logic wr_weights;   // bit 0
  } mode_t;

  typedef struct packed {
    logic [DimW-1:0] kw, kh, iw, ih, id, ow, oh, od;
    logic [15:0]     samples;
  } cfg_t;

  // What the stream receiver does with a packet.
  typedef enum logic [1:0] {
    RxSample  = 2'd0,  // source bank, then (dW) delta into the weight banks
    RxWeights = 2'd1,  // weight bank 0, core-major
    RxBias    = 2'd2   // one bf16 per core
  } rx_kind_e;

endpackage
