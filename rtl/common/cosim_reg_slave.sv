// Register-bus slave: the one host register protocol of every DUT.
//
// Host side (the DUT top's reg_* ports):
//   request   reg_req_valid_i / reg_req_ready_o, with reg_write_i,
//             reg_addr_i (a byte address) and reg_wdata_i;
//   response  reg_rsp_valid_o / reg_rsp_ready_i, with reg_rdata_o.
// One response per request, in order. The response is registered: it is
// valid the cycle after the request handshake and carries the register's
// value as it was when the request was taken (for a write: before the
// write). A new request is taken while the response slot is empty or being
// emptied, so a host holding reg_rsp_ready_i high does one access per cycle.
//
// Register-block side: acc_valid_o is high for exactly the cycle a request
// is taken; the block decodes acc_addr_o, applies acc_wdata_o at that clock
// edge when acc_write_o, and returns the addressed value on acc_rdata_i
// (combinational from acc_addr_o).
`include "cosim_assert.svh"
`include "cosim_ports.svh"
`timescale 1ps/1ps  // vendor RTL carries timescales and Verilator wants every module to have one; 1ps keeps the default (message and dump times unchanged)
module cosim_reg_slave #(
  parameter int unsigned AddrWidth = 8,
  localparam int unsigned DataWidth = 32  // the bus's (cosim_ports.svh)
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,

  `COSIM_REG_SLAVE_PORTS(AddrWidth),

  output logic                 acc_valid_o,
  output logic                 acc_write_o,
  output logic [AddrWidth-1:0] acc_addr_o,
  output logic [DataWidth-1:0] acc_wdata_o,
  input  logic [DataWidth-1:0] acc_rdata_i
);

  logic                 rsp_valid_q, rsp_valid_d;
  logic [DataWidth-1:0] rsp_rdata_q, rsp_rdata_d;
  logic                 req_fire;

  assign reg_req_ready_o = !rsp_valid_q || reg_rsp_ready_i;
  assign req_fire        = reg_req_valid_i && reg_req_ready_o;

  always_comb begin
    rsp_valid_d = rsp_valid_q;
    rsp_rdata_d = rsp_rdata_q;
    if (rsp_valid_q && reg_rsp_ready_i) rsp_valid_d = 1'b0;
    if (req_fire) begin
      rsp_valid_d = 1'b1;
      rsp_rdata_d = acc_rdata_i;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rsp_valid_q <= 1'b0;
      rsp_rdata_q <= '0;
    end else begin
      rsp_valid_q <= rsp_valid_d;
      rsp_rdata_q <= rsp_rdata_d;
    end
  end

  assign acc_valid_o     = req_fire;
  assign acc_write_o     = req_fire && reg_write_i;
  assign acc_addr_o      = reg_addr_i;
  assign acc_wdata_o     = reg_wdata_i;
  assign reg_rsp_valid_o = rsp_valid_q;
  assign reg_rdata_o     = rsp_rdata_q;

  // ---- Assertions (Verilated with --assert) --------------------------------
  // A response is held, with stable data, until the host takes it; a stalled
  // request keeps its write flag, address and data.
  cosim_assert_held #(.Width(DataWidth), .Name("cosim_reg_slave response")) u_rsp_held (
    .clk_i, .rst_ni, .clr_i(1'b0),
    .valid_i(reg_rsp_valid_o), .ready_i(reg_rsp_ready_i), .payload_i(reg_rdata_o)
  );
  cosim_assert_held #(.Width(1 + AddrWidth + DataWidth), .Name("cosim_reg_slave request")) u_req_held (
    .clk_i, .rst_ni, .clr_i(1'b0),
    .valid_i(reg_req_valid_i), .ready_i(reg_req_ready_o),
    .payload_i({reg_write_i, reg_addr_i, reg_wdata_i})
  );
  // Every taken request gets its response in the next cycle, and the bus
  // stays defined out of reset.
  logic fired_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) fired_q <= 1'b0;
    else         fired_q <= req_fire;
  end
  `COSIM_ASSERT_IF(a_rsp_follows, reg_rsp_valid_o, fired_q,
                   ("cosim_reg_slave: request taken without a response"))
  `COSIM_ASSERT_KNOWN(a_known, {reg_req_valid_i, reg_rsp_ready_i})

endmodule
