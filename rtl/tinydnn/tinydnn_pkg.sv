// tiny-dnn bfloat16 convolution accelerator: sizes, types and register map.
// The arithmetic is fixed by shared/spec/tinydnn.md; the C++ twin of these
// constants is cpp_model/tinydnn/program.hpp.
package tinydnn_pkg;

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

  // Register word addresses.
  parameter logic [3:0] RegCtrl    = 4'd0;
  parameter logic [3:0] RegMode    = 4'd1;
  parameter logic [3:0] RegKw      = 4'd2;
  parameter logic [3:0] RegKh      = 4'd3;
  parameter logic [3:0] RegIw      = 4'd4;
  parameter logic [3:0] RegIh      = 4'd5;
  parameter logic [3:0] RegId      = 4'd6;
  parameter logic [3:0] RegOw      = 4'd7;
  parameter logic [3:0] RegOh      = 4'd8;
  parameter logic [3:0] RegOd      = 4'd9;
  parameter logic [3:0] RegSamples = 4'd10;
  parameter logic [3:0] RegCycles  = 4'd11;
  parameter logic [3:0] RegMacs    = 4'd12;

  // What the stream receiver does with a packet.
  typedef enum logic [1:0] {
    RxSample  = 2'd0,  // source bank, then (dW) delta into the weight banks
    RxWeights = 2'd1,  // weight bank 0, core-major
    RxBias    = 2'd2   // one bf16 per core
  } rx_kind_e;

  // Controller states for the testbench's hang diagnosis (a debug port of the
  // top, read by the DUT wrapper; no function in the datapath).
  typedef struct packed {
    logic [1:0]  batch_state;  // 0 idle, 1 loading weights / bias, 2 running a mini-batch
    logic        rx_busy;      // receiving a packet
    logic        cmp_busy;     // a sample is being computed
    logic        tx_busy;      // a result packet is being sent
    logic        ctl_busy;     // sample controller issuing MAC steps
    logic        post_busy;    // normaliser draining the hold registers
    logic [1:0]  src_full;     // source banks holding a received sample
    logic [1:0]  dst_full;     // destination banks holding results
    logic [15:0] rx_cnt;       // samples received in this run
    logic [15:0] cmp_cnt;      // samples computed
    logic [15:0] tx_cnt;       // result packets sent
  } dbg_t;

endpackage
