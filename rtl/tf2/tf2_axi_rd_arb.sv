// Read arbiter of the single AXI4 master: NumClients read streams compete
// with fixed priority (lowest index first) for the AR channel; the winner
// owns the R channel until RLAST, so exactly one burst is outstanding and R
// beats need no routing by ID. ARID is the client index.
module tf2_axi_rd_arb
  import tf2_pkg::*;
#(
  parameter int unsigned NumClients = 3,
  localparam int unsigned SelW = (NumClients > 1) ? $clog2(NumClients) : 1
) (
  input  logic                                 clk_i,
  input  logic                                 rst_ni,

  input  logic [NumClients-1:0]                ar_valid_i,
  output logic [NumClients-1:0]                ar_ready_o,
  input  logic [NumClients-1:0][AddrW-1:0]     ar_addr_i,
  input  logic [NumClients-1:0][7:0]           ar_len_i,
  output logic [NumClients-1:0]                r_valid_o,

  output logic                                 m_arvalid_o,
  input  logic                                 m_arready_i,
  output logic [AxiAddrWidth-1:0]              m_araddr_o,
  output logic [7:0]                           m_arlen_o,
  output logic [AxiIdWidth-1:0]                m_arid_o,
  input  logic                                 m_rvalid_i,
  output logic                                 m_rready_o,
  input  logic                                 m_rlast_i,
  // Diagnosis: a burst is in flight, and whose.
  output logic                                 busy_o,
  output logic [SelW-1:0]                      owner_o
);


  // Lock: a granted client keeps the bus from AR until its RLAST.
  logic            busy_q;
  logic [SelW-1:0] owner_q;
  logic            pick_valid;
  logic [SelW-1:0] pick;
  // AXI needs AR stable while ARVALID waits: a presented request is held.
  logic            hold_q;
  logic [SelW-1:0] held_q;

  always_comb begin
    pick_valid = 1'b0;
    pick       = '0;
    for (int unsigned c = 0; c < NumClients; c++) begin
      if (!pick_valid && ar_valid_i[c]) begin
        pick_valid = 1'b1;
        pick       = SelW'(c);
      end
    end
    if (hold_q) begin
      pick_valid = 1'b1;
      pick       = held_q;
    end
  end

  // AR: while not busy, the picked client drives AR straight through (its
  // payload is stable while it waits: tf2_rd_stream holds it in a register).
  assign m_arvalid_o = !busy_q && pick_valid;
  assign m_araddr_o  = AxiAddrWidth'(ar_addr_i[pick]);
  assign m_arlen_o   = ar_len_i[pick];
  assign m_arid_o    = AxiIdWidth'(pick);
  assign m_rready_o  = busy_q;
  assign busy_o      = busy_q;
  assign owner_o     = owner_q;

  always_comb begin
    ar_ready_o = '0;
    if (!busy_q && pick_valid) ar_ready_o[pick] = m_arready_i;
    r_valid_o = '0;
    if (busy_q) r_valid_o[owner_q] = m_rvalid_i;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q  <= 1'b0;
      owner_q <= '0;
      hold_q  <= 1'b0;
      held_q  <= '0;
    end else if (!busy_q) begin
      hold_q <= pick_valid && !m_arready_i;
      held_q <= pick;
      if (pick_valid && m_arready_i) begin
        busy_q  <= 1'b1;
        owner_q <= pick;
      end
    end else if (m_rvalid_i && m_rlast_i) begin
      busy_q <= 1'b0;
    end
  end

endmodule
