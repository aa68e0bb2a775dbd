// Counters on three further clocks, for the harness's clock schedule
// (tests/clocks/clocks_test.cpp): each counts its own clock's rising edges,
// so the test can compare them with the edges the ratios promise.
//  - main_edges_o: rising edges of clk since rst_n was released;
//  - fast_edges_o / fast_reset_edges_o: rising edges of clk_fast after /
//    under rst_fast_n (a synchronous reset of clk_fast's domain);
//  - slow_edges_o: every rising edge of clk_slow (no reset of its own);
//  - x2_edges_o: every rising edge of clk_2x;
//  - x2_saw_main_o: main_edges_o as clk_2x's last rising edge sampled it,
//    main_saw_x2_o: x2_edges_o as clk's last rising edge sampled it. clk_2x
//    rises with every edge of clk, so both sample across a simultaneous edge:
//    each must see the other's value from before that edge;
//  - x2_saw_clk_o: clk's level as clk_2x's last rising edge read it as data
//    (after an edge they share: the level after it);
//  - main_saw_fast_o: fast_edges_o as clk's last rising edge sampled it
//    (clk_fast has edges between clk's falling and rising ones);
//  - early_*: the same for clk_2x_early, whose edges come just before clk's
//    where they meet (`early: true`): main_saw_early_o sees its count after
//    the shared edge, early_saw_clk_o clk's level before it.
module clocks_top (
  input  logic        clk,
  input  logic        rst_n,
  input  logic        clk_fast,
  input  logic        rst_fast_n,
  input  logic        clk_slow,
  input  logic        clk_2x,
  input  logic        clk_2x_early,
  // The counters.
  output logic [31:0] main_edges_o, fast_edges_o, fast_reset_edges_o, slow_edges_o, x2_edges_o, early_edges_o,
  // What one domain sampled of another.
  output logic [31:0] x2_saw_main_o, main_saw_x2_o, early_saw_main_o, main_saw_early_o, main_saw_fast_o,
  output logic        x2_saw_clk_o, early_saw_clk_o
);
  initial begin
    fast_reset_edges_o = '0;
    slow_edges_o = '0;
    x2_edges_o = '0;
    early_edges_o = '0;
  end

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      main_edges_o     <= '0;
      main_saw_x2_o    <= '0;
      main_saw_early_o <= '0;
      main_saw_fast_o  <= '0;
    end else begin
      main_edges_o     <= main_edges_o + 1;
      main_saw_x2_o    <= x2_edges_o;
      main_saw_early_o <= early_edges_o;
      main_saw_fast_o  <= fast_edges_o;
    end
  end

  always_ff @(posedge clk_fast) begin
    if (!rst_fast_n) begin
      fast_edges_o       <= '0;
      fast_reset_edges_o <= fast_reset_edges_o + 1;
    end else begin
      fast_edges_o <= fast_edges_o + 1;
    end
  end

  always_ff @(posedge clk_slow) slow_edges_o <= slow_edges_o + 1;

  always_ff @(posedge clk_2x) begin
    x2_edges_o    <= x2_edges_o + 1;
    x2_saw_main_o <= main_edges_o;
    x2_saw_clk_o  <= clk;
  end

  always_ff @(posedge clk_2x_early) begin
    early_edges_o    <= early_edges_o + 1;
    early_saw_main_o <= main_edges_o;
    early_saw_clk_o  <= clk;
  end
endmodule
