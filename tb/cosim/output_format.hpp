// A run's outputs seen in an MLI format (scenario key `output_format`, spec
// quantization.md s.3): the --dump files (and so the Python API's arrays)
// hold the format's container, and every distance gains the same figures in
// the format's values.
//
// A check's tensor becomes the format's container this way:
//   - float32 and bfloat16: its values, quantized into the format;
//   - int8 whose quantization the operator gave (Workload::output_quant):
//     its values (q - zero_point) * scale, quantized into the format;
//   - any other integer tensor whose dtype is the format's container: read
//     as that format as it is (fx8 / sa8 over int8, fx16 over int16, sa32
//     over int32);
// anything else is an InputError naming the check.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "cosim/backend.hpp"

namespace cosim::tb {

Tensor in_output_format(const Tensor& t, const scenario::MliSource& format,
                        const std::optional<scenario::Int8Quant>& quant, const std::string& check);

// The workload's check `check` in its output format (the workload must have one).
Tensor in_output_format(const Workload& w, const Tensor& t, const std::string& check);

// Every expected output converts: called once after prepare, so a format
// that does not fit an output is exit 2 before the simulation.
void check_output_format(const Workload& w);

// {"format": "sa8", "scale": .., "zero_point": ..} or {"format": "fx16", "frac_bits": ..}.
nlohmann::json output_format_json(const scenario::MliSource& format);

// `actual` against `reference`, both in the format: exact share of the
// containers, the largest difference in the format's values and in its steps.
nlohmann::json format_distance(const Workload& w, const std::string& check, const Tensor& reference,
                               const Tensor& actual);

}  // namespace cosim::tb
