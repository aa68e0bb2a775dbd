// The ports of the block RAM test tops (unisim_ramb_top.sv,
// unisim_ramb_e1_top.sv), included in their port lists: instance i of N
// takes bit or element i of each, AW address pins; a RAMB18 the low bits.
  input  logic [N-1:0]  clka, clkb, ena, enb, rstrama, rstramb, rstrega, rstregb, regcea, regceb,
  input  logic [AW-1:0] addra [N], addrb [N],
  input  logic [31:0]   dina [N], dinb [N],
  input  logic [3:0]    dinpa [N], dinpb [N], wea [N],
  input  logic [7:0]    webwe [N],
  output logic [31:0]   douta [N], doutb [N],
  output logic [3:0]    doutpa [N], doutpb [N],
  output logic [N-1:0]  unused_o
