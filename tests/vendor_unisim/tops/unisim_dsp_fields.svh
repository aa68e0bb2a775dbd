// The per-slice fields of the DSP test tops (unisim_dsp_top.sv,
// unisim_dsp_e1_58_top.sv), included inside the module after its
// localparams AW, BW, PW, DW (the fields' widths): the arrays of each pin and
// their packing into in[n*InW +: InW] / out[n*OutW +: OutW], lowest first
// (A, B, C, D, ACIN, BCIN, PCIN, CARRYIN, CARRYCASCIN, MULTSIGNIN, ALUMODE,
// CARRYINSEL, INMODE, OPMODE, NEGATE, CE, RST; P, ACOUT, BCOUT, PCOUT,
// CARRYOUT, CARRYCASCOUT, MULTSIGNOUT, XOROUT, PATTERNDETECT,
// PATTERNBDETECT, OVERFLOW, UNDERFLOW).
  logic [AW-1:0] a[NUM], acin[NUM], acout[NUM];
  logic [BW-1:0] b[NUM], bcin[NUM], bcout[NUM];
  logic [PW-1:0] c[NUM], pcin[NUM], p[NUM], pcout[NUM];
  logic [DW-1:0] d[NUM];
  logic [3:0]  alumode[NUM], carryout[NUM];
  logic [2:0]  carryinsel[NUM], negate[NUM];
  logic [4:0]  inmode[NUM];
  logic [8:0]  opmode[NUM];
  logic [12:0] ce[NUM];
  logic [9:0]  rst[NUM];
  logic [7:0]  xorout[NUM];
  logic        carryin[NUM], carrycascin[NUM], multsignin[NUM];
  logic        carrycascout[NUM], multsignout[NUM], patdet[NUM], patbdet[NUM], overflow[NUM], underflow[NUM];

  for (genvar n = 0; n < NUM; n++) begin : g_pins
    logic [InW-1:0] v;
    assign v = in[n*InW +: InW];
    assign {rst[n], ce[n], negate[n], opmode[n], inmode[n], carryinsel[n], alumode[n], multsignin[n],
            carrycascin[n], carryin[n], pcin[n], bcin[n], acin[n], d[n], c[n], b[n], a[n]} = v;
    assign out[n*OutW +: OutW] = {underflow[n], overflow[n], patbdet[n], patdet[n], xorout[n], multsignout[n],
                                  carrycascout[n], carryout[n], pcout[n], bcout[n], acout[n], p[n]};
  end

  // Every slice's clock enables and resets, from its ce / rst fields.
`define DSP_CTRL(n) \
    .CEA1(ce[n][0]), .CEA2(ce[n][1]), .CEB1(ce[n][2]), .CEB2(ce[n][3]), .CEC(ce[n][4]), .CED(ce[n][5]), \
    .CEAD(ce[n][6]), .CEM(ce[n][7]), .CEP(ce[n][8]), .CEINMODE(ce[n][9]), .CECTRL(ce[n][10]), \
    .CEALUMODE(ce[n][11]), .CECARRYIN(ce[n][12]), \
    .RSTA(rst[n][0]), .RSTB(rst[n][1]), .RSTC(rst[n][2]), .RSTD(rst[n][3]), .RSTM(rst[n][4]), \
    .RSTP(rst[n][5]), .RSTINMODE(rst[n][6]), .RSTCTRL(rst[n][7]), .RSTALUMODE(rst[n][8]), \
    .RSTALLCARRYIN(rst[n][9])
