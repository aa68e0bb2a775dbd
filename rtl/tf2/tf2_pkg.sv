// TF2 shift-accumulate engine: configuration, descriptor layout, register map
// and the arithmetic shared by the PE and the requantizer. Bit-exact with
// shared/spec/tf2.md and the golden model in cpp_model/tf2.
//
// AXI4 master (one port, tf2_top m_axi_*): 128-bit data, full-width INCR
// bursts of at most 256 beats that never cross a 4 KB boundary. Read IDs:
// 0 descriptor fetch, 1 Filter Loader, 2 Feature Loader, 3 Writer (residual
// map); writes use ID 0. One read burst is outstanding at a time (lowest ID
// first); writes are posted (B counted).
//
// Host register port (tf2_top reg_*): valid/ready request (write flag, byte
// address, 32-bit data); a one-cycle response carries the read data (also
// for writes). The register map and the ERR_INFO codes (err_e) are described
// once in tf2.yaml and generated into tf2_reg_pkg, which this package exports
// (scripts/dutgen.py; C++: dut/tf2_regs.hpp).
package tf2_pkg;

  // Registers and err_e: generated from tf2.yaml.
  import tf2_reg_pkg::*;
  export tf2_reg_pkg::*;

  // Fixed widths.
  parameter int unsigned CVec         = 16;   // input channels per PE and cycle
  parameter int unsigned AxiDataWidth = 128;  // one beat = 16 channels of a pixel
  parameter int unsigned AxiAddrWidth = 64;
  parameter int unsigned AxiIdWidth   = 2;
  parameter int unsigned AddrW        = 32;   // internal byte addresses
  parameter int unsigned DimW         = 16;   // h, w, c fields

  // Default configuration (tf2_top parameters).
  parameter int unsigned DefNPe         = 16;
  parameter int unsigned DefOCol3D      = 5;
  parameter int unsigned DefKTap        = 3;
  parameter int unsigned DefOCol2D      = 7;
  parameter int unsigned DefFeatDepth   = 4096;
  parameter int unsigned DefFilterDepth = 2048;
  parameter int unsigned DefRingSlot    = 512;   // Writer's reorder ring: output pixels per filter bank
  // The band plan, shared by the Feature Loader and the controller: the
  // input map loads in bands of BandFirst rows, then BandRows rows; the
  // first EarlyGroups groups' filters wait for the first band, the next
  // group's for the second, later ones for no rows.
  parameter int unsigned BandFirst      = 3;
  parameter int unsigned BandRows       = 8;
  parameter int unsigned EarlyGroups    = 3;
  parameter int unsigned MaxK           = 7;
  parameter int unsigned MaxDim         = 1024;

  parameter logic [7:0] OpConv = 8'd1;

  // Decoded descriptor (see cpp_model/tf2/compiler.hpp for the byte layout).
  typedef struct packed {
    logic [7:0]       op;
    logic             relu;
    logic             residual;  // add the residual map before ReLU
    logic             sat_requant;  // requantize without the 32-bit wrap (descriptor w0[11])
    logic [DimW-1:0]  c_in;
    logic [DimW-1:0]  c_out;
    logic [DimW-1:0]  h_in;
    logic [DimW-1:0]  w_in;
    logic [DimW-1:0]  h_out;
    logic [DimW-1:0]  w_out;
    logic [7:0]       k;
    logic [7:0]       stride;
    logic [7:0]       pad;
    logic signed [7:0] min_exp;
    logic [AddrW-1:0] in_addr;
    logic [AddrW-1:0] wgt_addr;  // weight records (parameters and codes per output channel)
    logic [AddrW-1:0] out_addr;
    logic [AddrW-1:0] res_addr;  // residual map (row by row like the output, its shape and Q)
    logic [AddrW-1:0] qin_addr;  // input-Q table (one int8 per input channel, C16)
  } desc_t;

  // One weight's shift parameters: qbase = 15 + Q_out - Q_in of its output
  // and input channel, and the layer's min_exp.
  typedef struct packed {
    logic signed [9:0] qbase;
    logic signed [7:0] min_exp;
  } shift_cfg_t;

  // 4-bit weight code -> product with an int8 feature, as the original's
  // loader and PE compute it (spec/tf2.md): a weight 2^e (e = min_exp +
  // index) below 1e-5 (e <= -17) is zero; it matches 2^-n for n = -e in
  // 0 .. 14, otherwise n = 0; s = qbase - n in 8 bits, negative s -> 0; a
  // code with bit 6 of s set is zero, else the shift is s & 31. Negation is done in 8 bits so -(-128) stays -128; the
  // result wraps modulo 2^32 like the golden model.
  function automatic logic [31:0] sac_product(logic [7:0] x, logic [3:0] code, shift_cfg_t cfg);
    logic [7:0]        xn;
    logic signed [9:0] e;
    /* verilator lint_off UNUSEDSIGNAL */  // s keeps its low 8 bits
    logic signed [9:0] sw;
    /* verilator lint_on UNUSEDSIGNAL */
    logic signed [7:0] s;
    logic [2:0]        idx;
    logic              neg;
    if (code == 4'd7 || code == 4'd15) return '0;
    neg = !code[3];
    idx = code[2:0];
    e   = 10'(cfg.min_exp) + 10'(idx);
    if (e < -10'sd16) return '0;  // |w| < 1e-5: the zero code
    sw  = (e > 10'sd0 || e < -10'sd14) ? cfg.qbase : cfg.qbase + e;
    s   = sw[7:0];  // computed in 8 bits
    xn  = neg ? (8'd0 - x) : x;
    if (s < 0) s = '0;
    if (s[6]) return '0;
    return {{24{xn[7]}}, xn} << s[4:0];
  endfunction

  // Output requantization: t = (acc * alpha) >>> 20 kept in 32 bits (the
  // original stores it in an int), y = (((t + beta) >>> 14) + 1) >>> 1 in
  // 32-bit wrapping arithmetic, saturate, optional ReLU. With `wide` (the
  // scenario key requant: saturate, for designs that fixed the original's
  // overflow) t and y keep all their bits (64) and only the result saturates.
  function automatic logic [7:0] requant(logic [31:0] acc, logic [31:0] alpha, logic [31:0] beta, logic relu,
                                         logic wide);
    logic signed [63:0] prod;
    logic signed [63:0] sum;
    logic signed [63:0] y;
    prod = $signed({{32{acc[31]}}, acc}) * $signed({{32{alpha[31]}}, alpha});
    sum  = (prod >>> 20) + 64'($signed(beta));
    // t kept in 32 bits and t + beta wrapped in 32 bits: both leave the low
    // 32 bits of the full sum.
    if (!wide) sum = 64'($signed(sum[31:0]));
    y    = ((sum >>> 14) + 64'sd1) >>> 1;
    if (y > 64'sd127) y = 64'sd127;
    if (y < -64'sd128) y = -64'sd128;
    if (relu && y < 0) y = '0;
    return y[7:0];
  endfunction

  // Residual ADD of two int8 values with the same Q: saturating add, then
  // optional ReLU.
  function automatic logic [7:0] res_add(logic [7:0] a, logic [7:0] b, logic relu);
    logic signed [8:0] sum;
    sum = $signed({a[7], a}) + $signed({b[7], b});
    if (sum > 9'sd127) sum = 9'sd127;
    if (sum < -9'sd128) sum = -9'sd128;
    if (relu && sum < 0) sum = '0;
    return sum[7:0];
  endfunction

endpackage
