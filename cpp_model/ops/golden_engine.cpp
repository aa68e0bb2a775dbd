#include "ops/golden_engine.hpp"

#include <atomic>
#include <cstdlib>

#include "common/error.hpp"

namespace cosim::ops {

namespace {
// -1: not decided yet (read COSIM_GOLDEN on first use).
std::atomic<int> g_engine{-1};
}  // namespace

GoldenEngine golden_engine_from_name(const std::string& name, const std::string& what) {
  if (name == "fast") return GoldenEngine::kFast;
  if (name == "reference") return GoldenEngine::kReference;
  throw InputError(what + ": unknown golden engine '" + name + "' (expected fast or reference)");
}

const char* golden_engine_name(GoldenEngine engine) {
  return engine == GoldenEngine::kFast ? "fast" : "reference";
}

GoldenEngine golden_engine() {
  int e = g_engine.load(std::memory_order_relaxed);
  if (e < 0) {
    const char* env = std::getenv("COSIM_GOLDEN");
    const GoldenEngine chosen =
        env != nullptr && *env != '\0' ? golden_engine_from_name(env, "COSIM_GOLDEN") : GoldenEngine::kFast;
    e = static_cast<int>(chosen);
    g_engine.store(e, std::memory_order_relaxed);
  }
  return static_cast<GoldenEngine>(e);
}

void set_golden_engine(GoldenEngine engine) { g_engine.store(static_cast<int>(engine), std::memory_order_relaxed); }

}  // namespace cosim::ops
