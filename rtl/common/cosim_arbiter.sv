// Arbiter: NumReq requesters, each with a valid/ready handshake and a
// DataWidth payload (an unpacked array: picking one is a plain copy), share
// one valid/ready output. The grant is the output handshake: requester i is
// accepted (ready_o[i]) in the cycle its payload leaves on the output (or
// enters the output register, OutReg).
//
//   RoundRobin  1: the first requester after the last one granted (requester
//                  0 counts as granted after reset, so requester 1 comes
//                  first); 0: fixed priority, the lowest index wins.
//   LockIn      1: a choice presented on the output but not accepted is held
//                  until accepted (the output stays stable, as AXI needs for
//                  AxVALID); the requester must keep its valid up meanwhile.
//   OutReg      1: the winner is registered into a one-entry output slot,
//                  reloaded whenever it is empty or being accepted; the output
//                  is stable by construction, one cycle later.
`include "cosim_assert.svh"
`timescale 1ps/1ps  // vendor RTL carries timescales and Verilator wants every module to have one; 1ps keeps the default (message and dump times unchanged)
module cosim_arbiter #(
  parameter int unsigned NumReq     = 2,
  parameter int unsigned DataWidth  = 32,
  parameter bit          RoundRobin = 1'b1,
  parameter bit          LockIn     = 1'b0,
  parameter bit          OutReg     = 1'b0,
  localparam int unsigned IdxWidth  = (NumReq > 1) ? $clog2(NumReq) : 1
) (
  input  logic                              clk_i,
  input  logic                              rst_ni,

  input  logic [NumReq-1:0]                 valid_i,
  output logic [NumReq-1:0]                 ready_o,
  input  logic [DataWidth-1:0]              data_i [NumReq],

  output logic                              valid_o,
  input  logic                              ready_i,
  output logic [DataWidth-1:0]              data_o,
  output logic [IdxWidth-1:0]               idx_o
);

  // ---- Choice ----------------------------------------------------------------
  logic [IdxWidth-1:0] last_q;        // last requester granted (RoundRobin)
  logic                lock_q;        // a presented choice waits (LockIn)
  logic [IdxWidth-1:0] lock_idx_q;
  logic                pick_valid;
  logic [IdxWidth-1:0] pick;

  always_comb begin
    pick_valid = 1'b0;
    pick       = '0;
    for (int unsigned k = 0; k < NumReq; k++) begin
      logic [IdxWidth-1:0] c;
      c = IdxWidth'(RoundRobin ? (32'(last_q) + k + 1) % NumReq : k);
      if (!pick_valid && valid_i[c]) begin
        pick_valid = 1'b1;
        pick       = c;
      end
    end
    if (LockIn && lock_q) begin
      pick_valid = 1'b1;
      pick       = lock_idx_q;
    end
  end

  // The choice is taken when the output (or its empty / leaving slot) accepts.
  logic take, grant;
  assign grant = pick_valid && take;

  always_comb begin
    ready_o = '0;
    if (grant) ready_o[pick] = 1'b1;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      last_q     <= '0;
      lock_q     <= 1'b0;
      lock_idx_q <= '0;
    end else begin
      if (RoundRobin && grant) last_q <= pick;
      if (LockIn) begin
        lock_q     <= pick_valid && !take;
        lock_idx_q <= pick;
      end
    end
  end

  // ---- Output ----------------------------------------------------------------
  if (OutReg) begin : g_out_reg
    logic                 slot_valid_q;
    logic [DataWidth-1:0] slot_data_q;
    logic [IdxWidth-1:0]  slot_idx_q;

    assign take = !slot_valid_q || ready_i;

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        slot_valid_q <= 1'b0;
        slot_data_q  <= '0;
        slot_idx_q   <= '0;
      end else if (take) begin
        slot_valid_q <= pick_valid;
        if (pick_valid) begin
          slot_data_q <= data_i[pick];
          slot_idx_q  <= pick;
        end
      end
    end

    assign valid_o = slot_valid_q;
    assign data_o  = slot_data_q;
    assign idx_o   = slot_idx_q;
  end else begin : g_out_comb
    assign take    = ready_i;
    assign valid_o = pick_valid;
    assign data_o  = data_i[pick];
    assign idx_o   = pick;
  end

  // ---- Assertions (Verilated with --assert) --------------------------------
  // A stable output (LockIn, OutReg): valid stays up with the same payload
  // and index until accepted.
  if (LockIn || OutReg) begin : g_stable_asrt
    cosim_assert_held #(.Width(DataWidth + IdxWidth), .Name("cosim_arbiter output")) u_out_held (
      .clk_i, .rst_ni, .clr_i(1'b0),
      .valid_i(valid_o), .ready_i, .payload_i({data_o, idx_o})
    );
  end
  // LockIn: the requester whose choice is held keeps requesting.
  if (LockIn) begin : g_lock_asrt
    // lock_q is cleared in reset: no reset gate.
    `COSIM_ASSERT_IF(a_lock_held, valid_i[lock_idx_q], lock_q,
                     ("cosim_arbiter: requester %0d withdrew a request being presented", lock_idx_q),
                     clk_i, 1'b0)
  end
`ifdef COSIM_ASSERT_FULL
  // The full set (the primitive's own tests; a DUT pays for each assertion in
  // simulation speed): at most one requester is accepted per cycle, and only
  // one that requests.
  `COSIM_ASSERT(a_one_grant, $onehot0(ready_o),
                ("cosim_arbiter: more than one requester granted"))
  `COSIM_ASSERT(a_grant_requested, (ready_o & ~valid_i) == '0,
                ("cosim_arbiter: a requester without valid granted"))
`endif

endmodule
