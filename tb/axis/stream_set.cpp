#include "axis/stream_set.hpp"

#include <utility>

#include "common/error.hpp"

namespace cosim::tb::axis {

namespace {

constexpr std::size_t kMaxShortfalls = 10;  // one per check; a broken output would repeat it

}  // namespace

std::string stream_shortfall(const std::string& stream, std::size_t wanted, std::size_t given) {
  return "stream " + stream + ": a check wanted " + std::to_string(wanted) + " bytes, the DUT had given " +
         std::to_string(given);
}

StreamSet::StreamSet(std::string dut, std::vector<StreamEnd*> ends) : dut_(std::move(dut)), ends_(std::move(ends)) {}

StreamEnd& StreamSet::find(const std::string& stream, bool input, const char* step) const {
  std::string names;
  for (StreamEnd* e : ends_) {
    if (e->is_input() != input) continue;
    if (e->name() == stream) return *e;
    names += (names.empty() ? "" : ", ") + e->name();
  }
  const char* kind = input ? "input" : "output";
  if (names.empty())
    throw InputError(std::string("trace: ") + step + " of '" + stream + "', but DUT " + dut_ + " has no " + kind +
                     " streams");
  throw InputError(std::string("trace: ") + step + " of '" + stream + "', which is not an " + kind +
                   " stream of DUT " + dut_ + " (its " + kind + " streams: " + names + ")");
}

void StreamSet::send(const std::string& stream, std::vector<uint8_t> bytes) {
  find(stream, true, "stream_send").send(std::move(bytes));
}

std::vector<uint8_t> StreamSet::receive(const std::string& stream, std::size_t n, std::vector<uint64_t>* cycles,
                                        std::vector<std::size_t>* ends) {
  std::vector<uint8_t> got = find(stream, false, "stream_check").take(n, cycles, ends);
  if (got.size() < n && shortfalls_.size() < kMaxShortfalls) {
    shortfalls_.push_back(stream_shortfall(stream, n, got.size()));
  }
  return got;
}

std::string StreamSet::describe() const {
  std::string s;
  for (const StreamEnd* e : ends_) s += (s.empty() ? "" : "; ") + e->describe();
  return s;
}

std::vector<std::string> StreamSet::errors() const {
  std::vector<std::string> out;
  for (const StreamEnd* e : ends_)
    if (!e->protocol_error().empty()) out.push_back("AXI-Stream protocol: " + e->protocol_error());
  out.insert(out.end(), shortfalls_.begin(), shortfalls_.end());
  for (const StreamEnd* e : ends_) {
    const uint64_t left = e->pending_bytes();
    if (left == 0) continue;
    out.push_back("stream " + e->name() + ": " + std::to_string(left) +
                  (e->is_input() ? " bytes sent that the DUT never took" : " bytes the DUT gave that no check took"));
  }
  return out;
}

}  // namespace cosim::tb::axis
