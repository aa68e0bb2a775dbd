// Writer: takes a finished output block from the result slot (NPe channels
// x up to NCol columns of int32 sums), requantizes it (tf2_requant, ReLU),
// and writes it back to DRAM in C16HW order: one 128-bit beat per pixel,
// bytes oc0 % 16 .. + NPe under the strobe, channels >= c_out written as 0.
// The block's pixels are contiguous, so it goes out as INCR bursts split at
// 4 KB boundaries; B responses are counted, not waited for per burst.
module tf2_writer
  import tf2_pkg::*;
#(
  parameter int unsigned NPe    = DefNPe,
  parameter int unsigned OCol3D = DefOCol3D,
  parameter int unsigned OCol2D = DefOCol2D,
  localparam int unsigned NCol  = (OCol3D > OCol2D) ? OCol3D : OCol2D,
  localparam int unsigned PeW   = (NPe > 1) ? $clog2(NPe) : 1
) (
  input  logic                           clk_i,
  input  logic                           rst_ni,

  /* verilator lint_off UNUSEDSIGNAL */  // uses the output fields only
  input  desc_t                          desc_i,
  /* verilator lint_on UNUSEDSIGNAL */
  output logic                           idle_o,     // nothing latched, no B outstanding
  output logic                           err_o,      // pulse on BRESP != OKAY

  input  logic                           slot_valid_i,
  output logic                           slot_pop_o,
  input  logic [DimW-1:0]                slot_oc0_i,
  input  logic [DimW-1:0]                slot_y_i,
  input  logic [DimW-1:0]                slot_x0_i,
  input  logic [3:0]                     slot_ncols_i,
  input  logic [NPe-1:0][NCol-1:0][31:0] slot_acc_i,
  input  logic [NPe-1:0][31:0]           slot_alpha_i,
  input  logic [NPe-1:0][31:0]           slot_beta_i,

  output logic                           m_awvalid_o,
  input  logic                           m_awready_i,
  output logic [AxiAddrWidth-1:0]        m_awaddr_o,
  output logic [7:0]                     m_awlen_o,
  output logic                           m_wvalid_o,
  input  logic                           m_wready_i,
  output logic [AxiDataWidth-1:0]        m_wdata_o,
  output logic [AxiDataWidth/8-1:0]      m_wstrb_o,
  output logic                           m_wlast_o,
  input  logic                           m_bvalid_i,
  output logic                           m_bready_o,
  input  logic [1:0]                     m_bresp_i
);

  typedef enum logic [1:0] {StIdle, StAw, StW} state_e;
  state_e state_q, state_d;

  // Requantized block.
  logic [NPe-1:0][NCol-1:0][7:0] y;
  for (genvar p = 0; p < NPe; p++) begin : g_rq_pe
    for (genvar j = 0; j < NCol; j++) begin : g_rq_col
      tf2_requant u_rq (
        .acc_i  (slot_acc_i[p][j]),
        .alpha_i(slot_alpha_i[p]),
        .beta_i (slot_beta_i[p]),
        .relu_i (desc_i.relu),
        .y_o    (y[p][j])
      );
    end
  end

  logic [NCol-1:0][AxiDataWidth-1:0] buf_q;
  logic [AxiDataWidth/8-1:0]         strb_q;
  logic [AddrW-1:0]                  addr_q, addr_d;    // next pixel to write
  logic [3:0]                        left_q, left_d;    // pixels not yet in a burst
  logic [3:0]                        col_q, col_d;      // next pixel's buffer column
  logic [8:0]                        blen_q, blen_d;    // beats left in the burst
  logic [15:0]                       outst_q;           // bursts awaiting B

  logic [8:0] to_boundary, burst;
  assign to_boundary = 9'd256 - {1'b0, addr_q[11:4]};
  assign burst = (9'(left_q) < to_boundary) ? 9'(left_q) : to_boundary;

  assign slot_pop_o  = (state_q == StIdle) && slot_valid_i;
  assign m_awvalid_o = (state_q == StAw);
  assign m_awaddr_o  = AxiAddrWidth'(addr_q);
  assign m_awlen_o   = 8'(burst - 9'd1);
  assign m_wvalid_o  = (state_q == StW);
  assign m_wdata_o   = buf_q[col_q];
  assign m_wstrb_o   = strb_q;
  assign m_wlast_o   = (blen_q == 9'd1);
  assign m_bready_o  = 1'b1;
  assign err_o       = m_bvalid_i && (m_bresp_i != 2'b00);
  assign idle_o      = (state_q == StIdle) && (outst_q == '0);

  // Pixel address of the block start: out_addr + ((og*h_out + y)*w_out + x0)*16.
  logic [AddrW-1:0] blk_addr;
  assign blk_addr = desc_i.out_addr +
      ((AddrW'(slot_oc0_i[DimW-1:4]) * AddrW'(desc_i.h_out) + AddrW'(slot_y_i)) * AddrW'(desc_i.w_out) +
       AddrW'(slot_x0_i)) * 32'd16;

  always_comb begin
    state_d = state_q;
    addr_d  = addr_q;
    left_d  = left_q;
    col_d   = col_q;
    blen_d  = blen_q;
    unique case (state_q)
      StIdle: if (slot_valid_i) begin
        addr_d  = blk_addr;
        left_d  = slot_ncols_i;
        col_d   = '0;
        state_d = StAw;
      end
      StAw: if (m_awready_i) begin
        blen_d  = burst;
        left_d  = left_q - 4'(burst);
        state_d = StW;
      end
      StW: if (m_wready_i) begin
        col_d  = col_q + 4'd1;
        addr_d = addr_q + 32'd16;
        blen_d = blen_q - 9'd1;
        if (blen_q == 9'd1) state_d = (left_q == '0) ? StIdle : StAw;
      end
      default: state_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      addr_q  <= '0;
      left_q  <= '0;
      col_q   <= '0;
      blen_q  <= '0;
      outst_q <= '0;
      buf_q   <= '0;
      strb_q  <= '0;
    end else begin
      state_q <= state_d;
      addr_q  <= addr_d;
      left_q  <= left_d;
      col_q   <= col_d;
      blen_q  <= blen_d;
      if ((m_awvalid_o && m_awready_i) && !m_bvalid_i) outst_q <= outst_q + 16'd1;
      else if (!(m_awvalid_o && m_awready_i) && m_bvalid_i) outst_q <= outst_q - 16'd1;
      // Lanes of this group carry its channels; the group holding the last
      // channel also zeroes the rest of the pixel word (padding channels).
      if (slot_pop_o) begin
        for (int unsigned l = 0; l < CVec; l++) begin
          int unsigned ch, lo;
          logic mine, pad;
          lo   = 32'(slot_oc0_i) % CVec;
          ch   = 32'(slot_oc0_i) - lo + l;
          mine = (l >= lo) && (l < lo + NPe);
          pad  = (l >= lo) && (32'(slot_oc0_i) + NPe >= 32'(desc_i.c_out));
          strb_q[l] <= mine || pad;
          for (int unsigned j = 0; j < NCol; j++) begin
            buf_q[j][8*l +: 8] <= (mine && ch < 32'(desc_i.c_out)) ? y[PeW'(l - lo)][j] : 8'd0;
          end
        end
      end
    end
  end

endmodule
