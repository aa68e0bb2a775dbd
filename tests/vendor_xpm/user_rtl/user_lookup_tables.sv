// A user's module (not house style on purpose): a scratch RAM on an
// xpm_memory_spram, sine and window tables on an xpm_memory_sprom and an
// xpm_memory_dprom, and a small two-clock mailbox on an xpm_memory_dpdistram,
// instantiated the way the vendor's templates do it (every parameter named,
// open ECC outputs). The test only checks that this compiles unmodified
// against the stand-ins (CTest vendor_xpm_user_rtl_single_port_and_rom).
`timescale 1ns / 1ps
module user_lookup_tables (
  input  wire clk, clk2, rst, we, input wire [3:0] wstrb, input wire [7:0] addr, input wire [31:0] wdata,
  output wire [31:0] rdata, mbox_a, mbox_b, output wire [15:0] sine, win_a, win_b
);
  xpm_memory_spram #(
    .ADDR_WIDTH_A(8), .AUTO_SLEEP_TIME(0), .BYTE_WRITE_WIDTH_A(8), .CASCADE_HEIGHT(0),
    .ECC_BIT_RANGE("7:0"), .ECC_MODE("no_ecc"), .ECC_TYPE("none"), .IGNORE_INIT_SYNTH(0),
    .MEMORY_INIT_FILE("none"), .MEMORY_INIT_PARAM("0"), .MEMORY_OPTIMIZATION("true"),
    .MEMORY_PRIMITIVE("auto"), .MEMORY_SIZE(8192), .MESSAGE_CONTROL(0), .RAM_DECOMP("auto"),
    .READ_DATA_WIDTH_A(32), .READ_LATENCY_A(2), .READ_RESET_VALUE_A("0"), .RST_MODE_A("SYNC"),
    .SIM_ASSERT_CHK(0), .USE_MEM_INIT(1), .USE_MEM_INIT_MMI(0), .WAKEUP_TIME("disable_sleep"),
    .WRITE_DATA_WIDTH_A(32), .WRITE_MODE_A("read_first"), .WRITE_PROTECT(1)
  ) u_scratch (
    .dbiterra(), .douta(rdata), .sbiterra(), .addra(addr), .clka(clk), .dina(wdata), .ena(1'b1),
    .injectdbiterra(1'b0), .injectsbiterra(1'b0), .regcea(1'b1), .rsta(rst), .sleep(1'b0),
    .wea(we ? wstrb : 4'b0)
  );

  xpm_memory_sprom #(
    .ADDR_WIDTH_A(2), .AUTO_SLEEP_TIME(0), .CASCADE_HEIGHT(0), .ECC_BIT_RANGE("7:0"), .ECC_MODE("no_ecc"),
    .ECC_TYPE("none"), .IGNORE_INIT_SYNTH(0), .MEMORY_INIT_FILE("none"),
    .MEMORY_INIT_PARAM("0000,5A82,7FFF,5A82"), .MEMORY_OPTIMIZATION("true"), .MEMORY_PRIMITIVE("auto"),
    .MEMORY_SIZE(64), .MESSAGE_CONTROL(0), .RAM_DECOMP("auto"), .READ_DATA_WIDTH_A(16),
    .READ_LATENCY_A(1), .READ_RESET_VALUE_A("0"), .RST_MODE_A("SYNC"), .SIM_ASSERT_CHK(0),
    .USE_MEM_INIT(1), .USE_MEM_INIT_MMI(0), .WAKEUP_TIME("disable_sleep")
  ) u_sine (
    .dbiterra(), .douta(sine), .sbiterra(), .addra(addr[1:0]), .clka(clk), .ena(1'b1),
    .injectdbiterra(1'b0), .injectsbiterra(1'b0), .regcea(1'b1), .rsta(rst), .sleep(1'b0)
  );

  xpm_memory_dprom #(
    .ADDR_WIDTH_A(2), .ADDR_WIDTH_B(2), .AUTO_SLEEP_TIME(0), .CASCADE_HEIGHT(0),
    .CLOCKING_MODE("common_clock"), .ECC_BIT_RANGE("7:0"), .ECC_MODE("no_ecc"), .ECC_TYPE("none"),
    .IGNORE_INIT_SYNTH(0), .MEMORY_INIT_FILE("none"), .MEMORY_INIT_PARAM("1000,3000,3000,1000"),
    .MEMORY_OPTIMIZATION("true"), .MEMORY_PRIMITIVE("auto"), .MEMORY_SIZE(64), .MESSAGE_CONTROL(0),
    .RAM_DECOMP("auto"), .READ_DATA_WIDTH_A(16), .READ_DATA_WIDTH_B(16), .READ_LATENCY_A(2),
    .READ_LATENCY_B(2), .READ_RESET_VALUE_A("0"), .READ_RESET_VALUE_B("0"), .RST_MODE_A("SYNC"),
    .RST_MODE_B("SYNC"), .SIM_ASSERT_CHK(0), .USE_MEM_INIT(1), .USE_MEM_INIT_MMI(0),
    .WAKEUP_TIME("disable_sleep")
  ) u_window (
    .dbiterra(), .dbiterrb(), .douta(win_a), .doutb(win_b), .sbiterra(), .sbiterrb(),
    .addra(addr[1:0]), .addrb(~addr[1:0]), .clka(clk), .clkb(clk), .ena(1'b1), .enb(1'b1),
    .injectdbiterra(1'b0), .injectdbiterrb(1'b0), .injectsbiterra(1'b0), .injectsbiterrb(1'b0),
    .regcea(1'b1), .regceb(1'b1), .rsta(rst), .rstb(rst), .sleep(1'b0)
  );

  xpm_memory_dpdistram #(
    .ADDR_WIDTH_A(4), .ADDR_WIDTH_B(4), .BYTE_WRITE_WIDTH_A(32), .CLOCKING_MODE("independent_clock"),
    .IGNORE_INIT_SYNTH(0), .MEMORY_INIT_FILE("none"), .MEMORY_INIT_PARAM("0"),
    .MEMORY_OPTIMIZATION("true"), .MEMORY_SIZE(512), .MESSAGE_CONTROL(0), .READ_DATA_WIDTH_A(32),
    .READ_DATA_WIDTH_B(32), .READ_LATENCY_A(0), .READ_LATENCY_B(1), .READ_RESET_VALUE_A("0"),
    .READ_RESET_VALUE_B("0"), .RST_MODE_A("SYNC"), .RST_MODE_B("SYNC"), .SIM_ASSERT_CHK(0),
    .USE_EMBEDDED_CONSTRAINT(0), .USE_MEM_INIT(1), .USE_MEM_INIT_MMI(0), .WRITE_DATA_WIDTH_A(32)
  ) u_mailbox (
    .douta(mbox_a), .doutb(mbox_b), .addra(addr[3:0]), .addrb(addr[7:4]), .clka(clk), .clkb(clk2),
    .dina(wdata), .ena(1'b1), .enb(1'b1), .regcea(1'b1), .regceb(1'b1), .rsta(rst), .rstb(rst),
    .wea(we)
  );
endmodule
