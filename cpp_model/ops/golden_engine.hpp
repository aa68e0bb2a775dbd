// Which engine computes the golden int8 CONV_2D: the fast path
// (cpp_model/fastpath: vectorised dot products, chosen per CPU at run time)
// or the reference loops (plain nested loops over spec/quantization.md s.1).
// Both give the same bits (tests/ops golden_engine_test.cpp sweeps random
// shapes in both roundings); the loops stay as the referee and as the
// fallback for what the fast path does not cover.
//
// One setting for the process: `cosim run --golden reference`, or the
// environment variable COSIM_GOLDEN=reference|fast (read once, at the first
// golden computation, unless the CLI set it first). Default: fast.
#pragma once

#include <string>

namespace cosim::ops {

enum class GoldenEngine { kFast, kReference };

// "fast" or "reference"; anything else is a cosim::InputError naming `what`
// (the flag or variable it came from) and the accepted values.
GoldenEngine golden_engine_from_name(const std::string& name, const std::string& what);
const char* golden_engine_name(GoldenEngine engine);

// The engine in use (COSIM_GOLDEN on first use, unless set).
GoldenEngine golden_engine();
void set_golden_engine(GoldenEngine engine);

}  // namespace cosim::ops
