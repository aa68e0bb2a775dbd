// A free-running streaming kernel for the install test (install_test.sh,
// step 8): each 32-bit lane l of a 128-bit beat of s0 plus word l % 2 of a
// 64-bit beat of s2 plus STEP, forever (STEP an input the manifest ties to
// 1, ports.tie; s0 and s2 joined beat by beat: one is taken only with the
// other; a 64-bit stream is the width the built-in targets share), with no control
// port, no ap_start and no ap_done (a Vitis ap_ctrl_none kernel): the
// manifest says `control: none`, and the host's stream check waits for the
// words it wants. TKEEP and TLAST pass through with their beat, so a packet
// whose last beat is short leaves short. One output register.
`timescale 1ns/1ps
`include "@NAME@_joined_ports.svh"
module @NAME@ (
  input  logic         ap_clk,
  input  logic         ap_rst_n,
  `@NAME@_JOINED_STREAM_PORTS
);
  logic         valid_q, last_q;
  logic [127:0] data_q;
  logic [15:0]  keep_q;

  logic [127:0] incremented;
  always_comb begin
    for (int l = 0; l < 4; l++) incremented[32*l +: 32] = s0_TDATA[32*l +: 32] + s2_TDATA[32*(l%2) +: 32] + STEP;
  end

  logic room, take;
  assign room      = !valid_q || s1_TREADY;
  assign s0_TREADY = room && s2_TVALID;
  assign s2_TREADY = room && s0_TVALID;
  assign take      = s0_TVALID && s2_TVALID && room;
  assign {s1_TVALID, s1_TDATA, s1_TKEEP, s1_TLAST} = {valid_q, data_q, keep_q, last_q};

  always_ff @(posedge ap_clk) begin
    if (!ap_rst_n) begin
      valid_q <= 1'b0;
      {data_q, keep_q, last_q} <= '0;
    end else begin
      if (take) {data_q, keep_q, last_q} <= {incremented, s0_TKEEP, s0_TLAST};
      valid_q <= take || (valid_q && !s1_TREADY);
    end
  end
endmodule
