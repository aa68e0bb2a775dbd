// Types and constants of the test DUT: a DMA engine that copies `length`
// bytes from `src` to `dst` over an AXI4 master, started and polled through
// a 32-bit register port laid out like the VTA host interface
// (0x00 control: bit 0 start, bit 1 done). Register offsets and the state
// enum are generated from testdut.yaml into testdut_reg_pkg, exported here.
package testdut_pkg;

  import testdut_reg_pkg::*;
  export testdut_reg_pkg::*;

  parameter int unsigned AddrWidth     = 32;
  parameter int unsigned DataWidth     = 64;
  parameter int unsigned StrbWidth     = DataWidth / 8;
  parameter int unsigned MaxBurstBeats = 16;

  // AXI4 constants.
  parameter logic [1:0] BurstIncr = 2'b01;
  parameter logic [2:0] Size8Bytes = 3'd3;

endpackage
