// @NAME@: a Vitis-style RTL kernel, C[i] = A[i] + B[i] over 32-bit integers
// (wrapping), with the interface a Vitis RTL kernel has: ap_clk, ap_rst_n,
// the AXI4-Lite control port s_axi_control_* (ap_ctrl_hs map, see
// @NAME@_control_s_axi.sv), two AXI4 masters m_axi_gmem0_* (reads A, writes
// C) and m_axi_gmem1_* (reads B), and the interrupt pin. The testbench binds
// these ports through the manifest, with no shell around the kernel.
//
// Per round: a burst of A on gmem0 and the same burst of B on gmem1, read at
// the same time into two buffers; then C's burst on gmem0 and its write
// response. A burst has at most MaxBurst beats and never crosses a 4 KiB
// boundary of A, B or C. LENGTH is in bytes, a multiple of the beat size.
// The port lists are macros of @NAME@_ports.svh.
`include "@NAME@_ports.svh"
`timescale 1ns/1ps
module @NAME@ #(
  `@NAME@_CONTROL_PARAMS,
  parameter integer C_M_AXI_GMEM0_ADDR_WIDTH   = 64,
  parameter integer C_M_AXI_GMEM0_DATA_WIDTH   = 128,
  parameter integer C_M_AXI_GMEM1_ADDR_WIDTH   = 64,
  parameter integer C_M_AXI_GMEM1_DATA_WIDTH   = 128
) (
  input  logic                                    ap_clk,
  input  logic                                    ap_rst_n,
  `@NAME@_M_AXI_PORTS(gmem0, C_M_AXI_GMEM0_ADDR_WIDTH, C_M_AXI_GMEM0_DATA_WIDTH),  // A in, C out
  `@NAME@_M_AXI_PORTS(gmem1, C_M_AXI_GMEM1_ADDR_WIDTH, C_M_AXI_GMEM1_DATA_WIDTH),  // B in (its write channels stay idle)
  `@NAME@_S_AXI_LITE_PORTS(s_axi_control_, C_S_AXI_CONTROL_ADDR_WIDTH, C_S_AXI_CONTROL_DATA_WIDTH),
  output logic                                    interrupt
);

  localparam integer DW       = C_M_AXI_GMEM0_DATA_WIDTH;
  localparam integer BeatB    = DW / 8;           // bytes per beat
  localparam integer BeatSh   = $clog2(BeatB);
  localparam integer MaxBurst = 16;
  localparam integer Lanes    = DW / 32;

  typedef enum logic [2:0] {
    StIdle, StRead, StWriteAddr, StWriteData, StWriteResp
  } state_e;

  `@NAME@_CONTROL;

  state_e      state_q;
  logic [63:0] a_q, b_q, c_q;          // next burst's addresses
  logic [31:0] beats_left_q;           // beats not yet written
  logic [4:0]  burst_q;                // beats in this burst (1..MaxBurst)
  logic [4:0]  a_beat_q, b_beat_q, w_beat_q;
  logic        ar0_q, ar1_q;           // read address still to send
  logic [DW-1:0] buf_a [MaxBurst];
  logic [DW-1:0] buf_b [MaxBurst];

  // Beats to the next 4 KiB boundary of an address.
  function automatic logic [31:0] to_4k(logic [11:0] offset);
    logic [12:0] room;
    room = 13'h1000 - {1'b0, offset};
    return 32'(room) >> BeatSh;
  endfunction
  function automatic logic [31:0] min2(logic [31:0] x, logic [31:0] y);
    return x < y ? x : y;
  endfunction
  logic [4:0] next_burst;
  always_comb begin
    next_burst = 5'(min2(min2(beats_left_q, MaxBurst),
                         min2(to_4k(a_q[11:0]), min2(to_4k(b_q[11:0]), to_4k(c_q[11:0])))));
  end

  logic reads_done, in_burst, take_a, take_b;
  assign reads_done = a_beat_q == burst_q && b_beat_q == burst_q;
  assign in_burst   = state_q == StRead && burst_q != 0;
  assign take_a     = m_axi_gmem0_RVALID && m_axi_gmem0_RREADY;  // a beat of A arrives
  assign take_b     = m_axi_gmem1_RVALID && m_axi_gmem1_RREADY;  // and of B
  assign ap_idle    = state_q == StIdle;
  assign ap_ready   = state_q == StIdle && ap_start;

  // Next state (rtl/README.md: decided here, registered below).
  state_e      state_d;
  logic [63:0] a_d, b_d, c_d;
  logic [31:0] beats_left_d;
  logic [4:0]  burst_d, a_beat_d, b_beat_d, w_beat_d;
  logic        ar0_d, ar1_d, ap_done_d;
  always_comb begin
    state_d      = state_q;
    {a_d, b_d, c_d} = {a_q, b_q, c_q};
    beats_left_d = beats_left_q;
    burst_d      = burst_q;
    a_beat_d     = take_a ? a_beat_q + 5'd1 : a_beat_q;
    b_beat_d     = take_b ? b_beat_q + 5'd1 : b_beat_q;
    w_beat_d     = w_beat_q;
    ar0_d        = ar0_q && !(m_axi_gmem0_ARVALID && m_axi_gmem0_ARREADY);
    ar1_d        = ar1_q && !(m_axi_gmem1_ARVALID && m_axi_gmem1_ARREADY);
    ap_done_d    = 1'b0;
    unique case (state_q)
      StIdle: begin
        if (ap_start) begin
          {a_d, b_d, c_d} = {arg_a, arg_b, arg_c};
          beats_left_d    = arg_length >> BeatSh;
          burst_d         = '0;
          {a_beat_d, b_beat_d} = '0;
          {ar0_d, ar1_d}  = '0;
          state_d         = StRead;
        end
      end
      // Start a burst (both reads), collect both, then write.
      StRead: begin
        if (beats_left_q == 0) begin
          ap_done_d = 1'b1;
          state_d   = StIdle;
        end else if (burst_q == 0) begin
          burst_d        = next_burst;
          {ar0_d, ar1_d} = 2'b11;
          {a_beat_d, b_beat_d} = '0;
        end else if (reads_done) begin
          w_beat_d = '0;
          state_d  = StWriteAddr;
        end
      end
      StWriteAddr: if (m_axi_gmem0_AWREADY) state_d = StWriteData;
      StWriteData: begin
        if (m_axi_gmem0_WREADY) begin
          w_beat_d = w_beat_q + 5'd1;
          if (w_beat_d == burst_q) state_d = StWriteResp;
        end
      end
      StWriteResp: begin
        if (m_axi_gmem0_BVALID) begin
          a_d          = a_q + (64'(burst_q) << BeatSh);
          b_d          = b_q + (64'(burst_q) << BeatSh);
          c_d          = c_q + (64'(burst_q) << BeatSh);
          beats_left_d = beats_left_q - 32'(burst_q);
          burst_d      = '0;
          state_d      = StRead;
        end
      end
      default: state_d = StIdle;
    endcase
  end

  always_ff @(posedge ap_clk) begin
    if (!ap_rst_n) begin
      state_q      <= StIdle;
      {a_q, b_q, c_q} <= '0;
      beats_left_q <= '0;
      burst_q      <= '0;
      {a_beat_q, b_beat_q, w_beat_q} <= '0;
      {ar0_q, ar1_q} <= '0;
      ap_done      <= 1'b0;
    end else begin
      state_q      <= state_d;
      {a_q, b_q, c_q} <= {a_d, b_d, c_d};
      beats_left_q <= beats_left_d;
      burst_q      <= burst_d;
      {a_beat_q, b_beat_q, w_beat_q} <= {a_beat_d, b_beat_d, w_beat_d};
      {ar0_q, ar1_q} <= {ar0_d, ar1_d};
      ap_done      <= ap_done_d;
    end
  end

  // The burst buffers: each beat lands in its slot as it arrives.
  always_ff @(posedge ap_clk) begin
    if (take_a) buf_a[a_beat_q[3:0]] <= m_axi_gmem0_RDATA;
    if (take_b) buf_b[b_beat_q[3:0]] <= m_axi_gmem1_RDATA;
  end

  // C's beat: lane-wise 32-bit sums, wrapping.
  logic [DW-1:0] sum;
  always_comb begin
    for (int l = 0; l < Lanes; l++) begin
      sum[32*l +: 32] = buf_a[w_beat_q[3:0]][32*l +: 32] + buf_b[w_beat_q[3:0]][32*l +: 32];
    end
  end

  assign m_axi_gmem0_ARVALID = in_burst && ar0_q;
  assign m_axi_gmem0_ARADDR  = a_q;
  assign m_axi_gmem0_ARLEN   = 8'(burst_q) - 8'd1;
  assign m_axi_gmem0_RREADY  = in_burst && a_beat_q != burst_q;
  assign m_axi_gmem1_ARVALID = in_burst && ar1_q;
  assign m_axi_gmem1_ARADDR  = b_q;
  assign m_axi_gmem1_ARLEN   = 8'(burst_q) - 8'd1;
  assign m_axi_gmem1_RREADY  = in_burst && b_beat_q != burst_q;

  assign m_axi_gmem0_AWVALID = state_q == StWriteAddr;
  assign m_axi_gmem0_AWADDR  = c_q;
  assign m_axi_gmem0_AWLEN   = 8'(burst_q) - 8'd1;
  assign m_axi_gmem0_WVALID  = state_q == StWriteData;
  assign m_axi_gmem0_WDATA   = sum;
  assign m_axi_gmem0_WSTRB   = '1;
  assign m_axi_gmem0_WLAST   = state_q == StWriteData && w_beat_q + 5'd1 == burst_q;
  assign m_axi_gmem0_BREADY  = state_q == StWriteResp;

  // gmem1 only reads.
  assign m_axi_gmem1_AWVALID = 1'b0;
  assign m_axi_gmem1_AWADDR  = '0;
  assign m_axi_gmem1_AWLEN   = '0;
  assign m_axi_gmem1_WVALID  = 1'b0;
  assign m_axi_gmem1_WDATA   = '0;
  assign m_axi_gmem1_WSTRB   = '0;
  assign m_axi_gmem1_WLAST   = 1'b0;
  assign m_axi_gmem1_BREADY  = 1'b1;

  // The burst ends on the beat count; RLAST and the idle write channel's
  // handshakes carry nothing this kernel needs.
  logic unused;
  assign unused = ^{m_axi_gmem0_RLAST, m_axi_gmem1_RLAST, m_axi_gmem1_AWREADY, m_axi_gmem1_WREADY,
                    m_axi_gmem1_BVALID, arg_length[BeatSh-1:0], C_M_AXI_GMEM1_DATA_WIDTH, C_M_AXI_GMEM1_ADDR_WIDTH};

endmodule
