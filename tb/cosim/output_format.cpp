#include "cosim/output_format.hpp"

#include <algorithm>
#include <cmath>

#include "common/error.hpp"
#include "scoreboard/scoreboard.hpp"

using nlohmann::json;

namespace cosim::tb {

namespace {

bool is_fx(mli::Format f) { return f == mli::Format::kFx8 || f == mli::Format::kFx16; }

// The tensor's values as float32 (element_value: integers exactly, bf16 widened).
Tensor as_fp32(const Tensor& t) {
  Tensor out(DType::kFp32, t.shape(), t.layout());
  float* o = out.data<float>();
  for (int64_t i = 0; i < t.numel(); ++i) o[i] = static_cast<float>(element_value(t, i));
  return out;
}

// An int8 tensor's values (q - zero_point) * scale.
Tensor int8_values(const Tensor& t, const scenario::Int8Quant& q) {
  Tensor out(DType::kFp32, t.shape(), t.layout());
  const int8_t* in = t.data<int8_t>();
  float* o = out.data<float>();
  for (int64_t i = 0; i < t.numel(); ++i) o[i] = static_cast<float>(in[i] - q.zero_point) * q.scale;
  return out;
}

// One container element's value in the format.
double format_value(const scenario::MliSource& f, int64_t q) {
  if (is_fx(f.format)) return std::ldexp(static_cast<double>(q), -f.params.frac_bits);
  return static_cast<double>(q - f.params.zero_points.at(0)) * f.params.scales.at(0);
}

}  // namespace

Tensor in_output_format(const Tensor& t, const scenario::MliSource& format,
                        const std::optional<scenario::Int8Quant>& quant, const std::string& check) {
  const std::string name = mli::format_name(format.format);
  try {
    if (t.dtype() == DType::kFp32 || t.dtype() == DType::kBf16) return mli::quantize(as_fp32(t), format.format, format.params);
    if (t.dtype() == DType::kInt8 && quant) return mli::quantize(int8_values(t, *quant), format.format, format.params);
  } catch (const InputError& e) {
    throw InputError("output_format " + name + ": output '" + check + "': " + e.what());
  }
  if (t.dtype() == mli::container(format.format)) return t;
  throw InputError("output_format " + name + ": output '" + check + "' is " + dtype_name(t.dtype()) +
                   (t.dtype() == DType::kInt8 ? " without a scale and zero point of its own" : "") + ", so it is read as " +
                   name + " only if that format's container is " + dtype_name(t.dtype()) + " (" + name + "'s is " +
                   dtype_name(mli::container(format.format)) + ")");
}

Tensor in_output_format(const Workload& w, const Tensor& t, const std::string& check) {
  const auto q = w.output_quant.find(check);
  return in_output_format(t, *w.output_format, q == w.output_quant.end() ? std::nullopt
                                                                          : std::optional<scenario::Int8Quant>(q->second),
                          check);
}

void check_output_format(const Workload& w) {
  if (!w.output_format) return;
  for (const auto& [check, t] : w.expected) in_output_format(w, t, check);
}

json output_format_json(const scenario::MliSource& format) {
  json j = {{"format", mli::format_name(format.format)}};
  if (is_fx(format.format)) {
    j["frac_bits"] = format.params.frac_bits;
  } else {
    j["scale"] = format.params.scales.at(0);
    j["zero_point"] = format.params.zero_points.at(0);
  }
  return j;
}

json format_distance(const Workload& w, const std::string& check, const Tensor& reference, const Tensor& actual) {
  const scenario::MliSource& f = *w.output_format;
  const Tensor r = in_output_format(w, reference, check), a = in_output_format(w, actual, check);
  int64_t exact = 0, max_steps = 0;
  double max_value = 0;
  for (int64_t i = 0; i < r.numel(); ++i) {
    const auto qr = static_cast<int64_t>(element_value(r, i)), qa = static_cast<int64_t>(element_value(a, i));
    exact += qr == qa ? 1 : 0;
    max_steps = std::max(max_steps, qr > qa ? qr - qa : qa - qr);
    max_value = std::max(max_value, std::abs(format_value(f, qa) - format_value(f, qr)));
  }
  json j = output_format_json(f);
  j["exact_pct"] = r.numel() == 0 ? 100.0 : 100.0 * static_cast<double>(exact) / static_cast<double>(r.numel());
  j["max_abs_diff"] = max_value;
  j["max_abs_diff_steps"] = max_steps;
  return j;
}

}  // namespace cosim::tb
