// One AXI-Stream of a DUT as a replayed trace reaches it, under the
// manifest's interface name: an input that the trace's stream_send steps
// feed (stream_feed.hpp), or an output whose bytes its stream_check steps
// take (stream_capture.hpp). StreamSet (stream_set.hpp) finds them by name,
// so a wrapper over any number of streams only forwards to it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cosim::tb::axis {

class StreamEnd {
 public:
  virtual ~StreamEnd() = default;

  const std::string& name() const { return name_; }
  virtual bool is_input() const = 0;
  // Input: one packet, TLAST on its last beat. Throws cosim::InputError when
  // the stream cannot carry it (empty, or not whole beats without TKEEP).
  virtual void send(std::vector<uint8_t> bytes) = 0;
  // Output: up to n of the bytes taken so far, oldest first.
  virtual std::vector<uint8_t> take(std::size_t n) = 0;
  // Input: bytes sent that the DUT has not taken yet. Output: bytes the DUT
  // gave that no check has taken yet.
  virtual uint64_t pending_bytes() const = 0;
  // Where the stream is, for a hang's diagnosis: "p0: 48 bytes to send, TVALID=1 TREADY=0".
  virtual std::string describe() const = 0;
  // The stream's first AXI-Stream protocol violation, empty while none.
  virtual const std::string& protocol_error() const = 0;

 protected:
  explicit StreamEnd(std::string name) : name_(std::move(name)) {}

 private:
  std::string name_;
};

}  // namespace cosim::tb::axis
