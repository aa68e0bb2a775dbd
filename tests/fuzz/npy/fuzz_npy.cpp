// libFuzzer target for the .npy reader (cpp_model/tensor/npy.cpp): the input
// is the file. It parses into a tensor whose bytes match its dtype and shape,
// and writing it back and reading it again gives the same tensor; or it is
// rejected with one line of cosim::InputError.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "../fuzz_common.hpp"
#include "tensor/tensor.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  static cosim::fuzz::ScratchDir dir;
  dir.fresh();
  const std::string path =
      dir.write("in.npy", std::string_view(reinterpret_cast<const char*>(data), size));
  cosim::Tensor t;
  try {
    t = cosim::read_npy(path);
  } catch (const cosim::InputError& e) {
    cosim::fuzz::check_one_line(e);
    return 0;
  }
  // What was accepted is consistent and survives a round trip.
  uint64_t numel = 1;
  for (int64_t d : t.shape()) {
    cosim::fuzz::require(d >= 0, "negative dimension accepted");
    numel *= static_cast<uint64_t>(d);
  }
  cosim::fuzz::require(numel * cosim::dtype_size(t.dtype()) == t.nbytes(), "byte count does not match the shape");
  cosim::fuzz::require(t.nbytes() <= size, "more data than the file holds");
  const std::string out = dir.path() + "/out.npy";
  cosim::write_npy(out, t);
  cosim::fuzz::require(cosim::read_npy(out) == t, "write_npy/read_npy round trip differs");
  return 0;
}
