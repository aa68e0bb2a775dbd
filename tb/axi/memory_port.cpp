#include "axi/memory_port.hpp"

#include <cstring>
#include <sstream>

#include "common/error.hpp"

namespace cosim::tb {

namespace {
void check_range(uint64_t addr, std::size_t len, std::size_t size, const char* what) {
  if (addr > size || len > size - addr) {
    std::ostringstream msg;
    msg << "DRAM " << what << " out of range: address 0x" << std::hex << addr << std::dec << " + " << len
        << " bytes, image is " << size << " bytes";
    throw cosim::InputError(msg.str());
  }
}
}  // namespace

void VectorMemory::read(uint64_t addr, uint8_t* dst, std::size_t len) {
  check_range(addr, len, bytes_.size(), "read");
  std::memcpy(dst, bytes_.data() + addr, len);
}

void VectorMemory::write(uint64_t addr, const uint8_t* src, std::size_t len, const uint8_t* strobe) {
  check_range(addr, len, bytes_.size(), "write");
  uint8_t* dst = bytes_.data() + addr;
  if (strobe == nullptr) {
    std::memcpy(dst, src, len);
    return;
  }
  for (std::size_t i = 0; i < len; ++i) {
    if (strobe[i] != 0) dst[i] = src[i];
  }
}

}  // namespace cosim::tb
