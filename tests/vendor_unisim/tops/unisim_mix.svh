// The INITs of the UNISIM test tops: splitmix64 of SEED + (k + 1) * golden
// ratio, the same generator unisim_tb.hpp's mix() is (the tests compute each
// instance's INIT themselves and check the stand-in against it).
function automatic logic [63:0] mix(input logic [63:0] seed, input int k);
  logic [63:0] z;
  z = seed + (64'(k) + 64'd1) * 64'h9E3779B97F4A7C15;
  z = (z ^ (z >> 30)) * 64'hBF58476D1CE4E5B9;
  z = (z ^ (z >> 27)) * 64'h94D049BB133111EB;
  return z ^ (z >> 31);
endfunction
// An INIT_xx of the block RAM tops: mix(seed, 4k) in bits 63:0 up to
// mix(seed, 4k + 3) in bits 255:192.
function automatic logic [255:0] mix256(input logic [63:0] seed, input int k);
  return {mix(seed, 4 * k + 3), mix(seed, 4 * k + 2), mix(seed, 4 * k + 1), mix(seed, 4 * k)};
endfunction
