// Read-address arbiter for the single AXI4 master: NumClients burst splitters
// compete round-robin for one registered AR slot (so the AR payload is stable
// while arvalid waits for arready); client i uses ARID i. R beats are routed
// back by RID; every client takes its beats in order.
module vta_axi_rd_arb #(
  parameter int unsigned NumClients = 3,
  parameter int unsigned AddrWidth  = 64,
  parameter int unsigned IdWidth    = 2
) (
  input  logic                                 clk_i,
  input  logic                                 rst_ni,

  input  logic [NumClients-1:0]                ar_valid_i,
  output logic [NumClients-1:0]                ar_ready_o,
  input  logic [NumClients-1:0][AddrWidth-1:0] ar_addr_i,
  input  logic [NumClients-1:0][7:0]           ar_len_i,

  output logic [NumClients-1:0]                r_valid_o,
  input  logic [NumClients-1:0]                r_ready_i,

  // AXI4 AR / R (burst INCR and size are constant, driven by the top).
  output logic                                 m_arvalid_o,
  input  logic                                 m_arready_i,
  output logic [AddrWidth-1:0]                 m_araddr_o,
  output logic [7:0]                           m_arlen_o,
  output logic [IdWidth-1:0]                   m_arid_o,
  input  logic                                 m_rvalid_i,
  output logic                                 m_rready_o,
  input  logic [IdWidth-1:0]                   m_rid_i
);

  localparam int unsigned SelW = $clog2(NumClients);

  logic                 slot_valid_q;
  logic [AddrWidth-1:0] slot_addr_q;
  logic [7:0]           slot_len_q;
  logic [IdWidth-1:0]   slot_id_q;
  logic [SelW-1:0]      last_q;

  // Round-robin pick: first requester after last_q.
  logic            pick_valid;
  logic [SelW-1:0] pick;
  always_comb begin
    pick_valid = 1'b0;
    pick       = '0;
    for (int unsigned k = 1; k <= NumClients; k++) begin
      logic [SelW-1:0] c;
      c = SelW'((32'(last_q) + k) % NumClients);
      if (!pick_valid && ar_valid_i[c]) begin
        pick_valid = 1'b1;
        pick       = c;
      end
    end
  end

  logic load;
  assign load = !slot_valid_q || m_arready_i;
  always_comb begin
    ar_ready_o = '0;
    if (load && pick_valid) ar_ready_o[pick] = 1'b1;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      slot_valid_q <= 1'b0;
      slot_addr_q  <= '0;
      slot_len_q   <= '0;
      slot_id_q    <= '0;
      last_q       <= '0;
    end else if (load) begin
      slot_valid_q <= pick_valid;
      if (pick_valid) begin
        slot_addr_q <= ar_addr_i[pick];
        slot_len_q  <= ar_len_i[pick];
        slot_id_q   <= IdWidth'(pick);
        last_q      <= pick;
      end
    end
  end

  assign m_arvalid_o = slot_valid_q;
  assign m_araddr_o  = slot_addr_q;
  assign m_arlen_o   = slot_len_q;
  assign m_arid_o    = slot_id_q;

  always_comb begin
    r_valid_o  = '0;
    m_rready_o = 1'b0;
    for (int unsigned c = 0; c < NumClients; c++) begin
      if (m_rid_i == IdWidth'(c)) begin
        r_valid_o[c] = m_rvalid_i;
        m_rready_o   = r_ready_i[c];
      end
    end
  end

  // ---- Assertions (Verilated with --assert) --------------------------------
  // AXI: ARVALID stays up with a stable ARADDR / ARLEN / ARID until ARREADY.
  a_ar_stable: assert property (@(posedge clk_i) disable iff (!rst_ni)
    m_arvalid_o && !m_arready_i |=>
      m_arvalid_o && $stable(m_araddr_o) && $stable(m_arlen_o) && $stable(m_arid_o))
    else $error("vta_axi_rd_arb: ARVALID dropped or AR payload changed before ARREADY");

endmodule
