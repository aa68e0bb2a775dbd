// A DUT's streams by the manifest's interface names, as the trace's
// stream_send and stream_check steps reach them (DutWrapper::stream_send /
// stream_receive), and what they say at the end of a run: protocol
// violations, a check that wanted more than the DUT gave, bytes the DUT never
// took and bytes it gave that no check took. A wrapper with streams forwards
// to one of these; no stream name is written in C++.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "axis/stream_ends.hpp"

namespace cosim::tb::axis {

// The line a check that wanted more than the DUT gave leaves (every DUT's streams say it so).
std::string stream_shortfall(const std::string& stream, std::size_t wanted, std::size_t given);

class StreamSet {
 public:
  // `dut`: the name messages give the DUT. The ends belong to the DUT's binders.
  StreamSet(std::string dut, std::vector<StreamEnd*> ends);

  bool empty() const { return ends_.empty(); }
  // One packet into input `stream`. Throws cosim::InputError for a name that
  // is not one of the inputs (the message lists them) or bytes it cannot carry.
  void send(const std::string& stream, std::vector<uint8_t> bytes);
  // The next n bytes of output `stream`; fewer when the DUT gave fewer (the
  // shortfall becomes one of errors()). `cycles`: the cycle each was handed over.
  // `ends`: the counts of those bytes after which a beat with TLAST ended.
  std::vector<uint8_t> receive(const std::string& stream, std::size_t n, std::vector<uint64_t>* cycles = nullptr,
                               std::vector<std::size_t>* ends = nullptr);
  // Output `stream` (cosim::InputError for a name that is not an output):
  // looked up once by a caller that asks it every cycle.
  const StreamEnd& output(const std::string& stream) const { return find(stream, false, "stream_check"); }
  // Every stream, "; "-joined (describe()).
  std::string describe() const;
  // Protocol violations, shortfalls, and what the run left: input the DUT did
  // not take, output no check took.
  std::vector<std::string> errors() const;

 private:
  StreamEnd& find(const std::string& stream, bool input, const char* step) const;

  std::string dut_;
  std::vector<StreamEnd*> ends_;
  std::vector<std::string> shortfalls_;
};

}  // namespace cosim::tb::axis
