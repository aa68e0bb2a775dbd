// The register map of the DMA next to the tiny-dnn accelerator, as the host
// program sees it (what the AXI DMA is on a Zynq): byte offsets on the
// register target after the accelerator's own registers (0x000..0x03c).
// The testbench's DMA model (tb/tinydnn) implements it; the host program
// (host_program.hpp) writes it.
#pragma once

#include <cstdint>

namespace cosim::tinydnn::dma {

constexpr uint32_t kDmaMm2sAddr = 0x100;  // W: DRAM address of the next MM2S transfer
constexpr uint32_t kDmaMm2sLen = 0x104;   // W: bytes; queues the transfer (one packet, TLAST on its last beat)
constexpr uint32_t kDmaS2mmAddr = 0x108;  // W: DRAM address of the next S2MM buffer
constexpr uint32_t kDmaS2mmLen = 0x10c;   // W: bytes; queues the buffer. Its packet must be exactly this long
constexpr uint32_t kDmaInStall = 0x110;   // W: chance per cycle (parts per million) MM2S holds TVALID back
constexpr uint32_t kDmaOutStall = 0x114;  // W: chance per cycle (ppm) S2MM drops TREADY
constexpr uint32_t kDmaFault = 0x118;     // W: fault injection for testbench tests (kFault*)
constexpr uint32_t kDmaStatus = 0x11c;    // R: bit0 MM2S busy, bit1 S2MM busy, 15:8 / 23:16 queued jobs
constexpr uint32_t kDmaEnd = 0x120;

enum Fault : uint32_t {
  kFaultNone = 0,
  kFaultTdataChange = 1,    // TDATA of the first stalled input beat changes while it waits
  kFaultDuplicateBeat = 2,  // the third input beat is presented (and taken) twice
};

}  // namespace cosim::tinydnn::dma
