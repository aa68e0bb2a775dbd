// Types and constants of the test DUT: a DMA engine that copies `length`
// bytes from `src` to `dst` over an AXI4 master, started and polled through
// a 32-bit register port laid out like the VTA host interface
// (0x00 control: bit 0 start, bit 1 done).
package testdut_pkg;

  parameter int unsigned AddrWidth     = 32;
  parameter int unsigned DataWidth     = 64;
  parameter int unsigned StrbWidth     = DataWidth / 8;
  parameter int unsigned MaxBurstBeats = 16;

  // Register offsets (byte addresses on the register port).
  parameter logic [7:0] RegControl = 8'h00;  // w: bit 0 start, bit 1 clear done; r: bit 0 busy, bit 1 done
  parameter logic [7:0] RegCycles  = 8'h04;  // r: cycles since start (stops at done)
  parameter logic [7:0] RegLength  = 8'h08;  // rw: bytes to copy (multiple of 8)
  parameter logic [7:0] RegSrc     = 8'h0c;  // rw: source byte address (8-byte aligned)
  parameter logic [7:0] RegDst     = 8'h10;  // rw: destination byte address (8-byte aligned)
  parameter logic [7:0] RegStatus  = 8'h14;  // r: [2:0] state, [3] bus error seen

  typedef enum logic [2:0] {
    StIdle      = 3'd0,
    StReadAddr  = 3'd1,
    StReadData  = 3'd2,
    StWriteAddr = 3'd3,
    StWriteData = 3'd4,
    StWriteResp = 3'd5
  } state_e;

  // AXI4 constants.
  parameter logic [1:0] BurstIncr = 2'b01;
  parameter logic [2:0] Size8Bytes = 3'd3;

endpackage
