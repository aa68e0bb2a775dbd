// Sample controller: walks one sample's outputs and, per output, its MAC
// steps, generating the im2col source and weight addresses on the fly
// (stage 1). Orders follow the spec because they change the bits:
//   forward : outputs (oy, ox), steps (c, ky, kx), then bias
//   backward: outputs (oy, ox), steps (c, ky, kx) over the rotated kernel,
//             taps outside the source plane issue no MAC step, then bias
//   dW      : outputs (ch, oy, ox), steps (ky, kx) over the delta plane
// The last step of an output waits until the shared normaliser has drained
// the previous output from the cores' hold registers.
`include "cosim_assert.svh"
module tinydnn_sample_ctrl
  import tinydnn_pkg::*;
(
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                start_i,
  // OD and the sample count belong to the post pipeline and batch controller.
  /* verilator lint_off UNUSEDSIGNAL */
  input  cfg_t                cfg_i,
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic                backward_i,
  input  logic                dw_i,
  input  logic                en_bias_i,
  input  logic                src_bank_i,
  input  logic                w_bank_i,
  input  logic                post_busy_i,
  output logic [SrcAddrW-1:0] src_raddr_o,
  output logic [WAddrW-1:0]   w_raddr_o,
  // Stage-2 step flags, aligned with the memories' read data.
  output logic                step_valid_o,
  output logic                step_first_o,
  output logic                step_last_o,
  output logic                step_bias_o,
  output logic [CntW-1:0]     step_pos_o,   // output position of step_last_o
  output logic                busy_o
);

  logic            run_q;
  logic [DimW-1:0] ox_q, oy_q, ch_q, kx_q, ky_q, c_q;
  logic            bias_ph_q;
  logic [CntW-1:0] pos_q;
  logic            src_bank_q, w_bank_q;

  logic            p_valid_q, p_first_q, p_last_q, p_bias_q, p_any_q;
  logic [CntW-1:0] p_pos_q;

  logic            kx_end, ky_end, c_end, ox_end, oy_end, ch_end, steps_end, out_end;
  logic            step_last, stall, issue;
  logic signed [11:0] sy, sx;
  logic            in_range;
  logic [DimW-1:0] cc, wky, wkx;
  // Wide products for the address math; only the low bits address memory.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [31:0]     src_off, w_off;
  /* verilator lint_on UNUSEDSIGNAL */

  always_comb begin
    kx_end    = (kx_q == cfg_i.kw - 8'd1);
    ky_end    = (ky_q == cfg_i.kh - 8'd1);
    c_end     = dw_i || (c_q == cfg_i.id - 8'd1);
    ox_end    = (ox_q == cfg_i.ow - 8'd1);
    oy_end    = (oy_q == cfg_i.oh - 8'd1);
    ch_end    = !dw_i || (ch_q == cfg_i.id - 8'd1);
    steps_end = kx_end && ky_end && c_end;
    out_end   = ox_end && oy_end && ch_end;
    step_last = en_bias_i ? bias_ph_q : steps_end;
    // The hold registers are free only when no finished output is in flight
    // to them and the normaliser has read them all.
    stall     = step_last && (p_last_q || post_busy_i);
    issue     = run_q && !stall;

    cc = dw_i ? ch_q : c_q;
    if (backward_i) begin
      sy = $signed({4'd0, oy_q}) + $signed({4'd0, ky_q}) - $signed({4'd0, cfg_i.kh}) + 12'sd1;
      sx = $signed({4'd0, ox_q}) + $signed({4'd0, kx_q}) - $signed({4'd0, cfg_i.kw}) + 12'sd1;
    end else begin
      sy = $signed({4'd0, oy_q}) + $signed({4'd0, ky_q});
      sx = $signed({4'd0, ox_q}) + $signed({4'd0, kx_q});
    end
    in_range = !sy[11] && !sx[11] &&
               (sy < $signed({4'd0, cfg_i.ih})) && (sx < $signed({4'd0, cfg_i.iw}));
    src_off  = (({24'd0, cc} * {24'd0, cfg_i.ih}) + {{20{sy[11]}}, sy}) * {24'd0, cfg_i.iw} +
               {{20{sx[11]}}, sx};
    // Backward reads the kernel rotated by 180 degrees.
    wky = backward_i ? cfg_i.kh - 8'd1 - ky_q : ky_q;
    wkx = backward_i ? cfg_i.kw - 8'd1 - kx_q : kx_q;
    if (dw_i) w_off = {24'd0, ky_q} * {24'd0, cfg_i.kw} + {24'd0, kx_q};
    else      w_off = (({24'd0, c_q} * {24'd0, cfg_i.kh}) + {24'd0, wky}) * {24'd0, cfg_i.kw} +
                      {24'd0, wkx};
  end

  assign src_raddr_o = {src_bank_q, src_off[SrcAddrW-2:0]};
  assign w_raddr_o   = {w_bank_q, w_off[WAddrW-2:0]};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      run_q      <= 1'b0;
      {ox_q, oy_q, ch_q, kx_q, ky_q, c_q} <= '0;
      bias_ph_q  <= 1'b0;
      pos_q      <= '0;
      src_bank_q <= 1'b0;
      w_bank_q   <= 1'b0;
      p_valid_q  <= 1'b0;
      p_first_q  <= 1'b0;
      p_last_q   <= 1'b0;
      p_bias_q   <= 1'b0;
      p_any_q    <= 1'b0;
      p_pos_q    <= '0;
    end else begin
      p_any_q   <= issue;
      p_valid_q <= issue && (bias_ph_q || in_range);
      p_first_q <= issue && !bias_ph_q && (kx_q == '0) && (ky_q == '0) && (c_q == '0);
      p_last_q  <= issue && step_last;
      p_bias_q  <= issue && bias_ph_q;
      if (issue) p_pos_q <= pos_q;

      if (start_i && !run_q) begin
        run_q      <= 1'b1;
        {ox_q, oy_q, ch_q, kx_q, ky_q, c_q} <= '0;  // the loops from the start
        bias_ph_q  <= 1'b0;
        pos_q      <= '0;
        src_bank_q <= src_bank_i;
        w_bank_q   <= w_bank_i;
      end else if (issue) begin
        if (!bias_ph_q && !steps_end) begin
          // Next step of this output: kx innermost, then ky, then c.
          kx_q <= kx_end ? '0 : kx_q + 8'd1;
          if (kx_end) begin
            ky_q <= ky_end ? '0 : ky_q + 8'd1;
            if (ky_end) c_q <= c_q + 8'd1;
          end
        end else if (!bias_ph_q && en_bias_i) begin
          bias_ph_q <= 1'b1;
        end else begin
          // Output done: clear the step counters, move to the next output.
          bias_ph_q <= 1'b0;
          kx_q      <= '0;
          ky_q      <= '0;
          c_q       <= '0;
          pos_q     <= pos_q + 1'b1;
          ox_q      <= ox_end ? '0 : ox_q + 8'd1;
          if (ox_end) begin
            oy_q <= oy_end ? '0 : oy_q + 8'd1;
            if (oy_end) ch_q <= ch_q + 8'd1;
          end
          if (out_end) run_q <= 1'b0;
        end
      end
    end
  end

  assign step_valid_o = p_valid_q;
  assign step_first_o = p_first_q;
  assign step_last_o  = p_last_q;
  assign step_bias_o  = p_bias_q;
  assign step_pos_o   = p_pos_q;
  assign busy_o       = run_q || p_any_q;

  // ---- Assertions (Verilated with --assert) --------------------------------
  // The cores' hold registers are a one-entry buffer towards the shared
  // normaliser: an output finishes into them only once the previous one has
  // been drained (overflow).
  `COSIM_ASSERT_IF(a_hold_no_overflow, !p_last_q && !post_busy_i, issue && step_last,
                   ("tinydnn_sample_ctrl: output finished into hold registers still being drained"))

endmodule
