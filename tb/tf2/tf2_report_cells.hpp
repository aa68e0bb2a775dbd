// Number formats of the tf2 model tables and report.json: fixed decimals,
// and an SNR of +inf (an exact result) as "inf" (JSON has no infinity).
#pragma once

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "common/text.hpp"

namespace cosim::tb::tf2 {

inline std::string fmt(double v, int prec) { return std::isinf(v) ? "inf" : fixed_text(v, prec); }

inline nlohmann::json db(double v) { return std::isinf(v) ? nlohmann::json("inf") : nlohmann::json(v); }

}  // namespace cosim::tb::tf2
