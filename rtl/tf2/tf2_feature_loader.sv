// Feature Loader: copies a layer's input map from DRAM (row by row,
// [h][ceil(c/16)][w][16], one 128-bit beat per 16-channel pixel vector) into
// the feature cache (channel group by channel group, word (cg*h + iy)*w + ix)
// in bands of input rows: BandFirst rows, then BandRows rows at a time, each
// band after the first once go_i is set. A band is one read command (its
// rows are contiguous in DRAM), so the whole map is one sequential stream,
// and rows_o counts the input rows loaded (every channel group of a row lands
// before the next row), so the Scheduler starts on each output row as soon as
// the rows it reads are in.
`include "cosim_assert.svh"
`include "cosim_ports.svh"

module tf2_feature_loader
  import tf2_pkg::*;
#(
  parameter int unsigned Depth    = DefFeatDepth,
  localparam int unsigned AW = $clog2(Depth)
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,

  input  logic                    start_i,    // pulse; the map's shape with it, each >= 1
  input  logic [AddrW-1:0]        addr_i,
  input  logic [DimW-1:0]         groups_i,   // ceil(c_in / 16)
  input  logic [DimW-1:0]         h_i,
  input  logic [DimW-1:0]         w_i,
  input  logic                    go_i,       // later bands may start (the first filters are in)
  output logic [DimW-1:0]         rows_o,     // input rows loaded in every channel group
  output logic                    band_end_o, // pulse: a band's last word
  output logic                    done_o,     // pulse after the last word
  output logic                    err_o,

  output logic                    we_o,
  output logic [AW-1:0]           waddr_o,
  output logic [CVec*8-1:0]       wdata_o,

  `COSIM_AXI_READ_CLIENT_PORTS(AddrW, AxiDataWidth)
);

  // The map being loaded, latched at start_i.
  typedef struct packed {
    logic [AddrW-1:0] base;
    logic [DimW-1:0]  groups, h, w;
  } map_t;
  map_t             map_q;
  logic             issue_q;    // the next band's command is due
  logic             busy_q;     // a command's beats are arriving
  logic [DimW-1:0]  y0_q;       // the band's first row
  logic [DimW-1:0]  rows_q;     // rows loaded; the row arriving
  logic [DimW-1:0]  cg_q, ix_q; // channel group and column of the next beat
  logic [AW-1:0]    plane_q;    // feature-cache offset of channel group cg_q, cg_q*h*w

  // The band's rows: BandFirst for the first, BandRows after it, fewer at
  // the bottom of the map.
  logic [DimW-1:0] nrows, brows;
  logic [19:0]     words;   // nrows * groups * w <= Depth (the controller checks the map fits)
  assign brows = (y0_q == '0) ? DimW'(BandFirst) : DimW'(BandRows);
  assign nrows = (32'(y0_q) + 32'(brows) > 32'(map_q.h)) ? map_q.h - y0_q : brows;
  assign words = 20'(32'(nrows) * 32'(map_q.groups) * 32'(map_q.w));

  logic                    cmd_ready, beat_valid, cmd_done;
  logic [AxiDataWidth-1:0] beat_data;
  tf2_rd_stream #(.BeatCntW(20)) u_stream (
    .clk_i, .rst_ni,
    .cmd_valid_i (issue_q && (y0_q == '0 || go_i)),
    .cmd_ready_o (cmd_ready),
    .cmd_addr_i  (map_q.base + ((32'(y0_q) * 32'(map_q.groups) * 32'(map_q.w)) << 4)),
    .cmd_beats_i (words),
    .beat_valid_o(beat_valid),
    .beat_data_o (beat_data),
    .done_o      (cmd_done),
    .err_o,
    .ar_valid_o, .ar_ready_i, .ar_addr_o, .ar_len_o,
    .r_valid_i, .r_data_i, .r_last_i, .r_resp_i
  );

  logic last_band, row_end;
  assign last_band = (32'(y0_q) + 32'(nrows) >= 32'(map_q.h));
  assign row_end   = beat_valid && (cg_q == map_q.groups - 1'b1) && (ix_q == map_q.w - 1'b1);

  assign we_o    = beat_valid;
  assign waddr_o = AW'(32'(plane_q) + 32'(rows_q) * 32'(map_q.w) + 32'(ix_q));
  assign wdata_o = beat_data;
  assign rows_o  = rows_q;
  assign band_end_o = busy_q && cmd_done;
  assign done_o  = busy_q && cmd_done && last_band;

  // Next state; the flops below only register it.
  map_t             map_d;
  logic [DimW-1:0]  y0_d, rows_d, cg_d, ix_d;
  logic             issue_d, busy_d;
  logic [AW-1:0]    plane_d;

  always_comb begin
    map_d = map_q;
    {issue_d, busy_d, y0_d, cg_d, ix_d, plane_d, rows_d} = {issue_q, busy_q, y0_q, cg_q, ix_q, plane_q, rows_q};
    if (start_i) begin
      map_d = '{base: addr_i, groups: groups_i, h: h_i, w: w_i};
      // A new map: its first band is due, nothing is loaded.
      issue_d = 1'b1;
      {busy_d, y0_d, cg_d, ix_d, plane_d, rows_d} = '0;
    end else begin
      if (issue_q && (y0_q == '0 || go_i) && cmd_ready) begin
        issue_d = 1'b0;
        busy_d  = 1'b1;
      end
      // Beats arrive column by column, channel group by channel group, row by row.
      if (beat_valid) begin
        if (ix_q != map_q.w - 1'b1) begin
          ix_d = ix_q + 1'b1;
        end else begin
          ix_d = '0;
          if (!row_end) begin
            cg_d    = cg_q + 1'b1;
            plane_d = plane_q + AW'(32'(map_q.h) * 32'(map_q.w));
          end else begin
            cg_d    = '0;
            plane_d = '0;
            rows_d  = rows_q + 1'b1;
          end
        end
      end
      if (busy_q && cmd_done) begin
        busy_d  = 1'b0;
        y0_d    = y0_q + nrows;
        issue_d = !last_band;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      map_q    <= '0;
      issue_q  <= 1'b0;
      busy_q   <= 1'b0;
      y0_q     <= '0;
      cg_q     <= '0;
      ix_q     <= '0;
      plane_q  <= '0;
      rows_q   <= '0;
    end else begin
      map_q    <= map_d;
      issue_q  <= issue_d;
      busy_q   <= busy_d;
      y0_q     <= y0_d;
      cg_q     <= cg_d;
      ix_q     <= ix_d;
      plane_q  <= plane_d;
      rows_q   <= rows_d;
    end
  end

  // ---- Assertions (Verilated with --assert) --------------------------------
  `COSIM_ASSERT_IF(a_start_idle, !issue_q && !busy_q, start_i, ("tf2_feature_loader: started while loading"))

endmodule
