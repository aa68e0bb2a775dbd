// @NAME@'s port lists, each written once: a Vitis kernel's upper-case AXI4
// master m_axi_<bus>_* (the signals this kernel uses: no size, burst, ID or
// response) and its AXI4-Lite slave, <prefix>AWVALID ... (the top's
// s_axi_control_*, the control module's unprefixed AWVALID ...). Macros, not
// SystemVerilog interfaces: the kernel's top keeps plain pins, as Vitis and
// the testbench's binding want them. Found on the include path (the DUT's
// own folder), like rtl/common/cosim_ports.svh.
`ifndef @NAME@_PORTS_SVH_
`define @NAME@_PORTS_SVH_

`define @NAME@_M_AXI_PORTS(Bus, AddrW, DataW) \
  output logic                   m_axi_``Bus``_AWVALID, \
  input  logic                   m_axi_``Bus``_AWREADY, \
  output logic [(AddrW)-1:0]     m_axi_``Bus``_AWADDR, \
  output logic [7:0]             m_axi_``Bus``_AWLEN, \
  output logic                   m_axi_``Bus``_WVALID, \
  input  logic                   m_axi_``Bus``_WREADY, \
  output logic [(DataW)-1:0]     m_axi_``Bus``_WDATA, \
  output logic [(DataW)/8-1:0]   m_axi_``Bus``_WSTRB, \
  output logic                   m_axi_``Bus``_WLAST, \
  input  logic                   m_axi_``Bus``_BVALID, \
  output logic                   m_axi_``Bus``_BREADY, \
  output logic                   m_axi_``Bus``_ARVALID, \
  input  logic                   m_axi_``Bus``_ARREADY, \
  output logic [(AddrW)-1:0]     m_axi_``Bus``_ARADDR, \
  output logic [7:0]             m_axi_``Bus``_ARLEN, \
  input  logic                   m_axi_``Bus``_RVALID, \
  output logic                   m_axi_``Bus``_RREADY, \
  input  logic [(DataW)-1:0]     m_axi_``Bus``_RDATA, \
  input  logic                   m_axi_``Bus``_RLAST

`define @NAME@_S_AXI_LITE_PORTS(Prefix, AddrW, DataW) \
  input  logic                   Prefix``AWVALID, \
  output logic                   Prefix``AWREADY, \
  input  logic [(AddrW)-1:0]     Prefix``AWADDR, \
  input  logic                   Prefix``WVALID, \
  output logic                   Prefix``WREADY, \
  input  logic [(DataW)-1:0]     Prefix``WDATA, \
  input  logic [(DataW)/8-1:0]   Prefix``WSTRB, \
  output logic                   Prefix``BVALID, \
  input  logic                   Prefix``BREADY, \
  output logic [1:0]             Prefix``BRESP, \
  input  logic                   Prefix``ARVALID, \
  output logic                   Prefix``ARREADY, \
  input  logic [(AddrW)-1:0]     Prefix``ARADDR, \
  output logic                   Prefix``RVALID, \
  input  logic                   Prefix``RREADY, \
  output logic [(DataW)-1:0]     Prefix``RDATA, \
  output logic [1:0]             Prefix``RRESP

// The AXI4-Lite slave's ports connected to the top's <Prefix>* pins.
`define @NAME@_S_AXI_LITE_CONNECT(Prefix) \
  .AWVALID(Prefix``AWVALID), .AWREADY(Prefix``AWREADY), .AWADDR(Prefix``AWADDR), \
  .WVALID(Prefix``WVALID), .WREADY(Prefix``WREADY), .WDATA(Prefix``WDATA), .WSTRB(Prefix``WSTRB), \
  .BVALID(Prefix``BVALID), .BREADY(Prefix``BREADY), .BRESP(Prefix``BRESP), \
  .ARVALID(Prefix``ARVALID), .ARREADY(Prefix``ARREADY), .ARADDR(Prefix``ARADDR), \
  .RVALID(Prefix``RVALID), .RREADY(Prefix``RREADY), .RDATA(Prefix``RDATA), .RRESP(Prefix``RRESP)

// The parameters of the top's AXI4-Lite control port s_axi_control_*.
`define @NAME@_CONTROL_PARAMS \
  parameter integer C_S_AXI_CONTROL_ADDR_WIDTH = 6, \
  parameter integer C_S_AXI_CONTROL_DATA_WIDTH = 32

// The kernel's control block (@NAME@_control_s_axi) on the top's
// s_axi_control_* pins, ap_clk, ap_rst_n and interrupt, with what it gives
// the kernel declared: the block-level handshake ap_start, ap_done, ap_ready,
// ap_idle and the arguments arg_a, arg_b, arg_c (64 bits) and arg_length.
`define @NAME@_CONTROL \
  logic        ap_start, ap_done, ap_ready, ap_idle; \
  logic [63:0] arg_a, arg_b, arg_c; \
  logic [31:0] arg_length; \
  @NAME@_control_s_axi #( \
    .C_S_AXI_ADDR_WIDTH(C_S_AXI_CONTROL_ADDR_WIDTH), .C_S_AXI_DATA_WIDTH(C_S_AXI_CONTROL_DATA_WIDTH) \
  ) u_control ( \
    .ACLK(ap_clk), .ARESET_N(ap_rst_n), \
    `@NAME@_S_AXI_LITE_CONNECT(s_axi_control_), \
    .interrupt, \
    .ap_start, .ap_done, .ap_ready, .ap_idle, \
    .a(arg_a), .b(arg_b), .c(arg_c), .length(arg_length) \
  )

`endif  // @NAME@_PORTS_SVH_
