// Helpers shared by the XPM stand-ins (rtl/vendor/xpm): decoding the
// parameters the vendor declares as hexadecimal strings, Gray code for values
// that cross clock domains, and the FIFOs' count ports.
//
// The vendor declares USE_ADV_FEATURES, DOUT_RESET_VALUE and
// READ_RESET_VALUE_* as strings of hex digits ("0707", "EA"), but user RTL
// also passes numbers (USE_ADV_FEATURES(13'b1000000000000)). The stand-ins
// leave those parameters untyped, so either form arrives as a bit vector: a
// string literal is its ASCII bytes, a number is itself. hex_param() tells the
// two apart: a value whose bytes, after leading zero bytes, are all hex digits
// (or '_') is text and is parsed; anything else is taken as the number it is.
// The one ambiguous case is a number whose low byte alone spells a hex digit
// (8'h30 reads as "0"); the vendor's documented form is the string.
`timescale 1ns/1ps  // vendor RTL carries timescales; Verilator wants every module to agree
package cosim_xpm_pkg;

  // The widest value a stand-in parses: 4608-bit memory words (UG974 range),
  // written as up to 1152 hex digits.
  localparam int unsigned MaxValueBits = 4608;
  localparam int unsigned MaxTextBytes = MaxValueBits / 4;
  localparam int unsigned MaxTextBits  = 8 * MaxTextBytes;

  typedef logic [MaxValueBits-1:0] value_t;
  typedef logic [MaxTextBits-1:0]  text_t;

  function automatic bit is_hex_digit(logic [7:0] c);
    return (c >= 8'h30 && c <= 8'h39) || (c >= 8'h41 && c <= 8'h46) || (c >= 8'h61 && c <= 8'h66);
  endfunction

  function automatic logic [3:0] hex_digit(logic [7:0] c);
    if (c >= 8'h30 && c <= 8'h39) return 4'(c - 8'h30);
    if (c >= 8'h41 && c <= 8'h46) return 4'(c - 8'h37);
    if (c >= 8'h61 && c <= 8'h66) return 4'(c - 8'h57);
    return 4'h0;
  endfunction

  // True when `v` (a parameter value, zero-extended) is the ASCII text of a
  // hex number: at least one byte, every byte after the leading zero bytes a
  // hex digit or '_'.
  function automatic bit is_hex_text(text_t v);
    bit started = 1'b0;
    for (int i = int'(MaxTextBytes) - 1; i >= 0; i--) begin
      if (v[8*i +: 8] != 8'h00) started = 1'b1;
      if (started && !is_hex_digit(v[8*i +: 8]) && v[8*i +: 8] != 8'h5f) return 1'b0;
    end
    return started;
  endfunction

  // The value of a hex-string (or numeric) parameter.
  function automatic value_t hex_param(text_t v);
    value_t r = '0;
    if (!is_hex_text(v)) return value_t'(v);
    for (int i = int'(MaxTextBytes) - 1; i >= 0; i--) begin
      if (is_hex_digit(v[8*i +: 8])) r = {r[MaxValueBits-5:0], hex_digit(v[8*i +: 8])};
    end
    return r;
  endfunction

  // Gray code, for values that cross from one clock domain to another (the
  // pointers of xpm_fifo_async, xpm_cdc_gray): successive values differ in one
  // bit. Up to 32 bits; a narrower value is zero-extended and cut back.
  function automatic logic [31:0] bin2gray(logic [31:0] b);
    return b ^ (b >> 1);
  endfunction

  function automatic logic [31:0] gray2bin(logic [31:0] g);
    logic [31:0] b = g;
    for (int s = 1; s < 32; s = 2 * s) b = b ^ (b >> s);  // bit i: XOR of g[i] and every bit above it
    return b;
  endfunction

  // A FIFO count of `bits` bits shown on a count port of `width` bits: the
  // count itself when it fits, otherwise its most significant `width` bits.
  function automatic logic [31:0] count_port(logic [31:0] n, int bits, int width);
    return (width >= bits) ? n : n >> (bits - width);
  endfunction

endpackage
