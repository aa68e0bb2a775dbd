#include "scenario/mli_source.hpp"

#include <string>

#include "common/error.hpp"

namespace cosim::scenario {

namespace {

mli::Format format_named(const std::string& s) {
  for (mli::Format f : {mli::Format::kFx8, mli::Format::kFx16, mli::Format::kSa8, mli::Format::kSa32}) {
    if (s == mli::format_name(f)) return f;
  }
  throw InputError("unknown MLI format " + s);
}

bool is_fx(mli::Format f) { return f == mli::Format::kFx8 || f == mli::Format::kFx16; }

}  // namespace

std::optional<MliSource> mli_source(const Value& source) {
  if (!source.is_map() || !source.has("mli")) return std::nullopt;
  MliSource m;
  m.format = source["mli"].rethrow_here([&] { return format_named(source["mli"].as_string()); });
  const std::string name = mli::format_name(m.format);
  if (is_fx(m.format)) {
    if (!source.has("frac_bits")) source.fail(name + " needs frac_bits (value = q / 2^frac_bits)");
    for (const char* k : {"scale", "zero_point"}) {
      if (source.has(k)) source[k].fail(std::string(k) + " belongs to the sa formats; " + name + " has frac_bits");
    }
    m.params.frac_bits = static_cast<int>(source["frac_bits"].as_int());
  } else {
    if (!source.has("scale")) source.fail(name + " needs scale (value = (q - zero_point) * scale)");
    if (source.has("frac_bits")) source["frac_bits"].fail("frac_bits belongs to the fx formats; " + name + " has scale");
    m.params.scales = {static_cast<float>(source["scale"].as_float())};
    m.params.zero_points = {source.has("zero_point") ? static_cast<int32_t>(source["zero_point"].as_int()) : 0};
  }
  return m;
}

Tensor from_mli(const Value& source, const MliSource& f, const Tensor& raw, DType dtype,
                const std::optional<Int8Quant>& quant, const std::string& name) {
  const Value& npy = source["npy"];
  if (raw.dtype() != mli::container(f.format)) {
    npy.fail(std::string(mli::format_name(f.format)) + " data is " + dtype_name(mli::container(f.format)) + ", the file holds " +
             dtype_name(raw.dtype()));
  }
  const Tensor values = source.rethrow_here([&] { return mli::dequantize(raw, f.format, f.params); });
  if (dtype == DType::kFp32) return values;
  if (dtype == DType::kInt8 && quant) {
    mli::QuantParams q;
    q.scales = {quant->scale};
    q.zero_points = {quant->zero_point};
    return source.rethrow_here([&] { return mli::quantize(values, mli::Format::kSa8, q); });
  }
  source.fail("tensor '" + name + "' is " + dtype_name(dtype) +
              " without one scale and zero point of its own, so an MLI source cannot convert to it (give its " +
              dtype_name(dtype) + " values as a plain .npy)");
}

}  // namespace cosim::scenario
