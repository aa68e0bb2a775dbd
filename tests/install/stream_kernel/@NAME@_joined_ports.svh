// The streams of the install test's free-running kernels (install_test.sh,
// steps 8 and 9: @NAME@_free.sv, @NAME@_twoclk.sv): the 128-bit input s0
// with TKEEP and TLAST, the 64-bit input s2 joined with it, the 128-bit
// output s1, and STEP, which the manifest ties. After the clocks and resets
// of the kernel's port list.
`define @NAME@_JOINED_STREAM_PORTS \
  input  logic [31:0]  STEP,       \
  input  logic         s0_TVALID,  \
  output logic         s0_TREADY,  \
  input  logic [127:0] s0_TDATA,   \
  input  logic [15:0]  s0_TKEEP,   \
  input  logic         s0_TLAST,   \
  input  logic         s2_TVALID,  \
  output logic         s2_TREADY,  \
  input  logic [63:0]  s2_TDATA,   \
  output logic         s1_TVALID,  \
  input  logic         s1_TREADY,  \
  output logic [127:0] s1_TDATA,   \
  output logic [15:0]  s1_TKEEP,   \
  output logic         s1_TLAST
