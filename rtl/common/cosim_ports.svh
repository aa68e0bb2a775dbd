// Port lists shared by every DUT: the register bus and the AXI4 master. The
// testbench binds pins by name (tb/harness: reg_*, m_axi_*), so every top
// declares them here once instead of retyping them. Macros rather than
// SystemVerilog interfaces or structs: the Verilated top must expose plain
// pins to the binders. Found through the include path rtl/common (every DUT
// build and scripts/lint.sh pass -I for it).
`ifndef COSIM_PORTS_SVH_
`define COSIM_PORTS_SVH_

// The common register bus, slave side (rtl/common/cosim_reg_slave): a
// valid/ready request with a byte address, a valid/ready response with the
// read data (also for writes).
`define COSIM_REG_SLAVE_PORTS(AddrW) \
  input  logic                reg_req_valid_i, \
  output logic                reg_req_ready_o, \
  input  logic                reg_write_i, \
  input  logic [(AddrW)-1:0]  reg_addr_i, \
  input  logic [31:0]         reg_wdata_i, \
  output logic                reg_rsp_valid_o, \
  input  logic                reg_rsp_ready_i, \
  output logic [31:0]         reg_rdata_o

// The same ports passed on by name, in an instance's connection list.
`define COSIM_REG_SLAVE_CONNECT \
  .reg_req_valid_i, .reg_req_ready_o, .reg_write_i, .reg_addr_i, .reg_wdata_i, \
  .reg_rsp_valid_o, .reg_rsp_ready_i, .reg_rdata_o

// The register block dutgen generates from a top's manifest
// (<Prefix>_reg_top), instantiated as every top does: its reg2hw / hw2reg
// structs declared, the register bus passed on by name, then the block's
// own inputs in `Extra` (e.g. `.idle_i (!busy)`, the manifest's perf ports).
`define COSIM_REG_TOP(Prefix, Extra) \
  Prefix``_reg2hw_t reg2hw; \
  Prefix``_hw2reg_t hw2reg; \
  Prefix``_reg_top u_regs ( \
    .clk_i, .rst_ni, \
    `COSIM_REG_SLAVE_CONNECT, \
    .reg2hw_o (reg2hw), \
    .hw2reg_i (hw2reg), \
    Extra \
  )

// The register bus's slave (rtl/common/cosim_reg_slave) for a register
// block whose reads have no side effect: a write arrives as Wr with Addr and
// WData, and the block returns the value at Addr on RData (combinationally).
`define COSIM_REG_SLAVE_INST(AddrW, Wr, Addr, WData, RData) \
  logic unused_acc_valid; \
  cosim_reg_slave #(.AddrWidth(AddrW)) u_slave ( \
    .clk_i, .rst_ni, \
    `COSIM_REG_SLAVE_CONNECT, \
    .acc_valid_o (unused_acc_valid), \
    .acc_write_o (Wr), \
    .acc_addr_o  (Addr), \
    .acc_wdata_o (WData), \
    .acc_rdata_i (RData) \
  )

// An AXI4 master (INCR bursts, full-width beats): read address and data,
// write address, data and response. IDs are IdW bits wide; a DUT that uses
// one ID drives 0 and ignores rid / bid.
`define COSIM_AXI_MASTER_PORTS(AddrW, DataW, IdW) \
  output logic                  m_axi_arvalid_o, \
  input  logic                  m_axi_arready_i, \
  output logic [(AddrW)-1:0]    m_axi_araddr_o, \
  output logic [7:0]            m_axi_arlen_o, \
  output logic [2:0]            m_axi_arsize_o, \
  output logic [1:0]            m_axi_arburst_o, \
  output logic [(IdW)-1:0]      m_axi_arid_o, \
  input  logic                  m_axi_rvalid_i, \
  output logic                  m_axi_rready_o, \
  input  logic [(DataW)-1:0]    m_axi_rdata_i, \
  input  logic [1:0]            m_axi_rresp_i, \
  input  logic                  m_axi_rlast_i, \
  input  logic [(IdW)-1:0]      m_axi_rid_i, \
  output logic                  m_axi_awvalid_o, \
  input  logic                  m_axi_awready_i, \
  output logic [(AddrW)-1:0]    m_axi_awaddr_o, \
  output logic [7:0]            m_axi_awlen_o, \
  output logic [2:0]            m_axi_awsize_o, \
  output logic [1:0]            m_axi_awburst_o, \
  output logic [(IdW)-1:0]      m_axi_awid_o, \
  output logic                  m_axi_wvalid_o, \
  input  logic                  m_axi_wready_i, \
  output logic [(DataW)-1:0]    m_axi_wdata_o, \
  output logic [(DataW)/8-1:0]  m_axi_wstrb_o, \
  output logic                  m_axi_wlast_o, \
  input  logic                  m_axi_bvalid_i, \
  output logic                  m_axi_bready_o, \
  input  logic [1:0]            m_axi_bresp_i, \
  input  logic [(IdW)-1:0]      m_axi_bid_i

// A read client of a shared AXI read channel (behind an arbiter): one
// address request of ar_len_o + 1 beats, then its R beats with last and
// response.
`define COSIM_AXI_READ_CLIENT_PORTS(AddrW, DataW) \
  output logic                  ar_valid_o, \
  input  logic                  ar_ready_i, \
  output logic [(AddrW)-1:0]    ar_addr_o, \
  output logic [7:0]            ar_len_o, \
  input  logic                  r_valid_i, \
  input  logic [(DataW)-1:0]    r_data_i, \
  input  logic                  r_last_i, \
  input  logic [1:0]            r_resp_i

// These ports of read client Id in a top's connection list (unlike the
// *_CONNECT macros, which pass ports on by name): the address handshake on
// entry Id of the top's per-client arrays ar_valid, ar_ready, ar_addr,
// ar_len and r_valid (its read arbiter's side), the R data, last and
// response straight from the top's AXI4 master pins.
`define COSIM_AXI_READ_CLIENT_AT(Id) \
  .ar_valid_o (ar_valid[Id]), .ar_ready_i (ar_ready[Id]), .ar_addr_o (ar_addr[Id]), .ar_len_o (ar_len[Id]), \
  .r_valid_i (r_valid[Id]), .r_data_i (m_axi_rdata_i), .r_last_i (m_axi_rlast_i), .r_resp_i (m_axi_rresp_i)

// A request to the AXI burst primitives (rtl/common/cosim_axi_burst_split,
// cosim_axi_write_bursts), slave side: req_beats_i (> 0) full-width beats
// from each of NumAddr byte addresses.
`define COSIM_BURST_REQUEST_PORTS(AddrW, BeatsW, NumAddr) \
  input  logic                  req_valid_i, \
  output logic                  req_ready_o, \
  input  logic [(NumAddr)-1:0][(AddrW)-1:0] req_addr_i, \
  input  logic [(BeatsW)-1:0]   req_beats_i

// The handshakes, address and WLAST of an AXI4 master's write channels (AW,
// W, B; WDATA, WSTRB and BRESP are not among them): the ports of
// rtl/common/cosim_axi_write_bursts, which drives them for a write client.
`define COSIM_AXI_WRITE_HANDSHAKE_PORTS(AddrW) \
  output logic                  m_awvalid_o, \
  input  logic                  m_awready_i, \
  output logic [(AddrW)-1:0]    m_awaddr_o, \
  output logic [7:0]            m_awlen_o, \
  output logic                  m_wvalid_o, \
  input  logic                  m_wready_i, \
  output logic                  m_wlast_o, \
  input  logic                  m_bvalid_i, \
  output logic                  m_bready_o

// A write client that owns the AXI write channels of a master (the AW, W and
// B signals of COSIM_AXI_MASTER_PORTS, m_ without axi_): the top passes them
// on to its master ports; the handshakes come from its
// cosim_axi_write_bursts, connected with COSIM_AXI_WRITE_HANDSHAKE_CONNECT.
`define COSIM_AXI_WRITE_CLIENT_PORTS(AddrW, DataW) \
  `COSIM_AXI_WRITE_HANDSHAKE_PORTS(AddrW), \
  output logic [(DataW)-1:0]    m_wdata_o, \
  output logic [(DataW)/8-1:0]  m_wstrb_o, \
  input  logic [1:0]            m_bresp_i

// The same handshake ports passed on by name, in an instance's connection list.
`define COSIM_AXI_WRITE_HANDSHAKE_CONNECT \
  .m_awvalid_o, .m_awready_i, .m_awaddr_o, .m_awlen_o, .m_wvalid_o, .m_wready_i, .m_wlast_o, \
  .m_bvalid_i, .m_bready_o

// A read client of a DMA that splits requests into bursts itself: a request
// of req_beats_o beats from req_addr_o, then the beats in order.
`define COSIM_DMA_READ_CLIENT_PORTS(AddrW, DataW) \
  output logic                  req_valid_o, \
  input  logic                  req_ready_i, \
  output logic [(AddrW)-1:0]    req_addr_o, \
  output logic [31:0]           req_beats_o, \
  input  logic                  rvalid_i, \
  input  logic [(DataW)-1:0]    rdata_i, \
  output logic                  rready_o

// These ports of DMA read client Id in a top's connection list, like
// COSIM_AXI_READ_CLIENT_AT: on entry Id of the top's per-client arrays
// req_valid, req_ready, req_addr, req_beats (its request), r_valid and
// r_ready (its beats), the data straight from the top's m_axi_rdata_i.
`define COSIM_DMA_READ_CLIENT_AT(Id) \
  .req_valid_o (req_valid[Id]), .req_ready_i (req_ready[Id]), .req_addr_o (req_addr[Id]), \
  .req_beats_o (req_beats[Id]), .rvalid_i (r_valid[Id]), .rdata_i (m_axi_rdata_i), .rready_o (r_ready[Id])

`endif  // COSIM_PORTS_SVH_
