#include "vta/core/vta_timeline.hpp"

#include <algorithm>

#include "timeline/timeline_port.hpp"  // timeline::bits
#include "dut/vta_regs.hpp"

namespace cosim::tb::vta {

namespace {

namespace st = cosim::vta::regs::status_t;
namespace eng = cosim::vta::regs::eng_state_e;
namespace op = cosim::vta::regs::opcode_e;

// Lane order; the probe fills values[] in it.
enum LaneIndex : unsigned { kLoad, kGemm, kAlu, kComputeLoad, kStore, kTokL2c, kTokC2l, kTokC2s, kTokS2c, kLanes };
// COMPUTE lanes' states; pop_prev waits on load->compute, pop_next on store->compute.
enum ComputeState : uint32_t { kIdle, kBusy, kWaitL2c, kWaitS2c };

// idle 0, busy 1, waiting 2 (an engine with one token queue to wait on).
uint32_t single_queue_state(uint32_t state) {
  return state == eng::kEngBusy ? 1u : state == eng::kEngWait ? 2u : 0u;
}

}  // namespace

std::vector<timeline::Lane> timeline_lanes() {
  using timeline::level_lane;
  using timeline::state_lane;
  const std::vector<std::string> compute = {"idle", "busy", "wait load->compute", "wait store->compute"};
  return {state_lane("LOAD", {"idle", "busy", "wait compute->load"}),
          state_lane("COMPUTE GEMM", compute),
          state_lane("COMPUTE ALU", compute),
          state_lane("COMPUTE LOAD (UOP/ACC)", compute),
          state_lane("STORE", {"idle", "busy", "wait compute->store"}),
          level_lane("tokens load->compute"),
          level_lane("tokens compute->load"),
          level_lane("tokens compute->store"),
          level_lane("tokens store->compute")};
}

bool TimelineProbe::changed(const uint32_t (&w)[4], uint32_t* v) {
  std::copy(w, w + 4, last);
  primed = true;
  using timeline::bits;
  v[kTokL2c] = bits<st::kTokL2cLsb, st::kTokL2cWidth>(w);
  v[kTokC2l] = bits<st::kTokC2lLsb, st::kTokC2lWidth>(w);
  v[kTokC2s] = bits<st::kTokC2sLsb, st::kTokC2sWidth>(w);
  v[kTokS2c] = bits<st::kTokS2cLsb, st::kTokS2cWidth>(w);
  v[kLoad] = single_queue_state(bits<st::kLoadStateLsb, st::kLoadStateWidth>(w));
  v[kStore] = single_queue_state(bits<st::kStoreStateLsb, st::kStoreStateWidth>(w));
  // COMPUTE: one of its lanes by the opcode it runs or waits with (FINISH: none).
  v[kGemm] = v[kAlu] = v[kComputeLoad] = kIdle;
  const uint32_t cs = bits<st::kComputeStateLsb, st::kComputeStateWidth>(w);
  if (cs == eng::kEngIdle) return true;
  const uint32_t opcode = bits<st::kComputeOpLsb, st::kComputeOpWidth>(w);
  const unsigned lane = opcode == op::kOpGemm ? kGemm : opcode == op::kOpAlu ? kAlu : opcode == op::kOpLoad ? kComputeLoad : kLanes;
  if (lane == kLanes) return true;
  if (cs == eng::kEngBusy) {
    v[lane] = kBusy;
  } else {
    const uint32_t pops = bits<st::kComputePopsLsb, st::kComputePopsWidth>(w);
    v[lane] = (pops & 1u) && v[kTokL2c] == 0 ? kWaitL2c : (pops & 2u) && v[kTokS2c] == 0 ? kWaitS2c : kWaitL2c;
  }
  return true;
}

}  // namespace cosim::tb::vta
