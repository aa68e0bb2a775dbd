// Four-byte in-place edit of a subgraph output entry.
#include "tflite/patch.hpp"

#include <cstring>
#include <fstream>
#include <iterator>

#include "common/error.hpp"
#include "common/file_io.hpp"

namespace cosim::tflite {

std::vector<uint8_t> repoint_output(const std::vector<uint8_t>& bytes, const Model& model, std::size_t slot,
                                    int32_t tensor) {
  if (model.subgraphs.empty()) throw InputError(model.path + ": model has no subgraphs");
  const SubGraph& sg = model.subgraphs[0];
  if (slot >= sg.outputs.size())
    throw InputError(model.path + ": output slot " + std::to_string(slot) + " out of range (subgraph 0 has " +
                     std::to_string(sg.outputs.size()) + " outputs)");
  if (tensor < 0 || static_cast<std::size_t>(tensor) >= sg.tensors.size())
    throw InputError(model.path + ": tensor index " + std::to_string(tensor) + " out of range (subgraph has " +
                     std::to_string(sg.tensors.size()) + " tensors)");
  const std::size_t at = sg.outputs_file_offset + slot * sizeof(int32_t);
  if (at + sizeof(int32_t) > bytes.size())
    throw InputError(model.path + ": output entry at byte offset " + std::to_string(at) +
                     " lies outside the given bytes (not the file the model was read from?)");
  std::vector<uint8_t> out = bytes;
  // Flatbuffers are little-endian on the wire.
  const auto u = static_cast<uint32_t>(tensor);
  for (int b = 0; b < 4; ++b) out[at + static_cast<std::size_t>(b)] = static_cast<uint8_t>(u >> (8 * b));
  return out;
}

std::vector<uint8_t> read_file_bytes(const std::string& path) {
  return read_regular_file_bytes(path, uint64_t{1} << 31);  // FlatBuffers' 2 GiB
}

}  // namespace cosim::tflite
