#include "golden_api.hpp"

#include <pybind11/stl.h>

#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include "common/error.hpp"
#include "numpy_tensor.hpp"
#include "ops/add.hpp"
#include "ops/conv2d.hpp"
#include "ops/fully_connected.hpp"
#include "ops/pool.hpp"
#include "ops/softmax.hpp"
#include "quant/tflite_quant.hpp"

namespace py = pybind11;

namespace cosim::python {

namespace {

using Multipliers = std::vector<std::pair<int32_t, int>>;  // (multiplier, shift) as quantize_multiplier gives

quant::Rounding rounding_of(const std::string& s) {
  if (s == "double") return quant::Rounding::kDouble;
  if (s == "single") return quant::Rounding::kSingle;
  throw InputError("rounding: expected 'double' (TFLite reference) or 'single' (TFLITE_SINGLE_ROUNDING), got '" + s +
                   "'");
}

quant::Activation activation_of(const std::string& s) {
  if (s == "none") return quant::Activation::kNone;
  if (s == "relu") return quant::Activation::kRelu;
  if (s == "relu6") return quant::Activation::kRelu6;
  throw InputError("activation: expected 'none', 'relu' or 'relu6', got '" + s + "'");
}

ops::Padding padding_of(const std::string& s) {
  if (s == "same") return ops::Padding::kSame;
  if (s == "valid") return ops::Padding::kValid;
  throw InputError("padding: expected 'same' or 'valid', got '" + s + "'");
}

// An int or an (h, w) pair.
std::pair<int, int> pair_of(const py::object& v, const char* what) {
  if (py::isinstance<py::int_>(v)) return {v.cast<int>(), v.cast<int>()};
  try {
    const auto t = v.cast<std::vector<int>>();
    if (t.size() == 2) return {t[0], t[1]};
  } catch (const py::cast_error&) {
  }
  throw InputError(std::string(what) + ": expected an int or an (h, w) pair");
}

// A float or one float per channel.
std::vector<float> scales_of(const py::object& v) {
  try {
    if (py::isinstance<py::float_>(v) || py::isinstance<py::int_>(v)) return {v.cast<float>()};
    return py::module_::import("numpy").attr("asarray")(v, "float32").attr("ravel")().cast<std::vector<float>>();
  } catch (const py::error_already_set&) {
  } catch (const py::cast_error&) {
  }
  throw InputError("filter_scales: expected a float or one float per output channel");
}

Tensor bias_of(const py::object& bias) {
  return bias.is_none() ? Tensor() : to_tensor(bias, DType::kInt32, "bias");
}

// The quantization of CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED: from
// the float scales (as a .tflite file gives them), or the (multiplier,
// shift) pairs directly.
struct Quantization {
  const char* op;  // named in errors
  std::optional<float> input_scale;
  int32_t input_zero_point = 0;
  py::object filter_scales;
  std::optional<float> output_scale;
  int32_t output_zero_point = 0;
  std::optional<Multipliers> multipliers;
  std::string activation = "none";
  std::string rounding = "double";
};

struct Requant {
  std::vector<quant::QuantizedMultiplier> multipliers;
  quant::ActivationRange act;
  quant::Rounding rounding;
};

Requant requant_of(const Quantization& q) {
  const std::string op = q.op;
  Requant r;
  r.rounding = rounding_of(q.rounding);
  const quant::Activation act = activation_of(q.activation);
  const bool scales = q.input_scale || !q.filter_scales.is_none();
  if (q.multipliers) {
    if (scales) throw InputError(op + ": give either multipliers or input_scale / filter_scales, not both");
    if (q.multipliers->empty()) throw InputError(op + ": multipliers: expected at least one (multiplier, shift) pair");
    for (const auto& [m, shift] : *q.multipliers) r.multipliers.push_back({m, shift});
    if (act == quant::Activation::kRelu6 && !q.output_scale) throw InputError(op + ": activation relu6 needs output_scale");
    r.act = quant::activation_range(act, q.output_scale.value_or(1.0f), q.output_zero_point);
    return r;
  }
  if (!q.input_scale || q.filter_scales.is_none() || !q.output_scale) {
    throw InputError(op + ": expected input_scale, filter_scales and output_scale (or multipliers=[(multiplier, shift), ...])");
  }
  // make_conv_params computes the multipliers for every family the same way.
  const ops::ConvParams p = ops::make_conv_params(*q.input_scale, q.input_zero_point, scales_of(q.filter_scales),
                                                  *q.output_scale, q.output_zero_point, act, r.rounding);
  r.multipliers = p.output_multiplier;
  r.act = p.act;
  return r;
}

using ConvOp = Tensor (*)(const Tensor&, const Tensor&, const Tensor&, const ops::ConvParams&);

py::array conv(ConvOp op, const py::object& input, const py::object& filter, const py::object& bias,
               const Quantization& q, const py::object& stride, const std::string& padding, const py::object& dilation,
               int depth_multiplier) {
  const Requant r = requant_of(q);
  ops::ConvParams p;
  p.padding = padding_of(padding);
  std::tie(p.stride_h, p.stride_w) = pair_of(stride, "stride");
  std::tie(p.dilation_h, p.dilation_w) = pair_of(dilation, "dilation");
  p.depth_multiplier = depth_multiplier;
  p.input_zero_point = q.input_zero_point;
  p.output_zero_point = q.output_zero_point;
  p.output_multiplier = r.multipliers;
  p.act = r.act;
  p.rounding = r.rounding;
  return to_numpy(op(to_tensor(input, DType::kInt8, "input"), to_tensor(filter, DType::kInt8, "filter"),
                     bias_of(bias), p));
}

// The Python function of CONV_2D (no Extra) or DEPTHWISE_CONV_2D (Extra =
// int: its depth multiplier, the one argument CONV_2D does not take).
template <class... Extra>
auto conv_binding(ConvOp op, const char* name) {
  return [op, name](const py::object& input, const py::object& filter, const py::object& bias,
                    std::optional<float> input_scale, int32_t input_zp, const py::object& filter_scales,
                    std::optional<float> output_scale, int32_t output_zp, std::optional<Multipliers> multipliers,
                    const std::string& activation, const std::string& rounding, const py::object& stride,
                    const std::string& padding, const py::object& dilation, Extra... depth_multiplier) {
    return conv(op, input, filter, bias,
                {name, input_scale, input_zp, filter_scales, output_scale, output_zp, multipliers, activation, rounding},
                stride, padding, dilation, (1 * ... * depth_multiplier));
  };
}

// The keyword arguments every requantizing operator takes.
#define COSIM_QUANT_ARGS                                                                                   \
  py::kw_only(), py::arg("input_scale") = py::none(), py::arg("input_zero_point") = 0,                     \
      py::arg("filter_scales") = py::none(), py::arg("output_scale") = py::none(),                         \
      py::arg("output_zero_point") = 0, py::arg("multipliers") = py::none(), py::arg("activation") = "none", \
      py::arg("rounding") = "double"

}  // namespace

void bind_golden(py::module_& m) {
  py::module_ g = m.def_submodule(
      "golden",
      "TFLite int8 reference operators (cpp_model/ops) on NumPy arrays. Quantization from the float scales "
      "(input_scale, filter_scales: one or one per output channel, output_scale, zero points) or as "
      "multipliers=[(multiplier, shift), ...]; rounding='double' (TFLite reference kernels) or 'single' "
      "(TFLITE_SINGLE_ROUNDING). Integer arguments are int8 (bias int32) NumPy arrays or lists.");

  g.def("conv2d", conv_binding<>(&ops::conv2d, "conv2d"), py::arg("input"), py::arg("filter"),
        py::arg("bias") = py::none(), COSIM_QUANT_ARGS, py::arg("stride") = 1, py::arg("padding") = "same",
        py::arg("dilation") = 1,
        "CONV_2D: input int8 [N,H,W,C], filter int8 [O,KH,KW,C], bias int32 [O] or None -> int8 [N,OH,OW,O].");

  g.def("depthwise_conv2d", conv_binding<int>(&ops::depthwise_conv2d, "depthwise_conv2d"), py::arg("input"),
        py::arg("filter"), py::arg("bias") = py::none(), COSIM_QUANT_ARGS, py::arg("stride") = 1,
        py::arg("padding") = "same", py::arg("dilation") = 1, py::arg("depth_multiplier") = 1,
        "DEPTHWISE_CONV_2D: input int8 [N,H,W,C], filter int8 [1,KH,KW,C*depth_multiplier], bias int32 or None "
        "-> int8 [N,OH,OW,C*depth_multiplier].");

  g.def(
      "fully_connected",
      [](const py::object& input, const py::object& filter, const py::object& bias, std::optional<float> input_scale,
         int32_t input_zp, const py::object& filter_scales, std::optional<float> output_scale, int32_t output_zp,
         std::optional<Multipliers> multipliers, const std::string& activation, const std::string& rounding) {
        const Requant r = requant_of(
            {"fully_connected", input_scale, input_zp, filter_scales, output_scale, output_zp, multipliers,
             activation, rounding});
        ops::FullyConnectedParams p;
        p.input_zero_point = input_zp;
        p.output_zero_point = output_zp;
        p.multipliers = r.multipliers;
        p.act = r.act;
        p.rounding = r.rounding;
        return to_numpy(ops::fully_connected(to_tensor(input, DType::kInt8, "input"),
                                             to_tensor(filter, DType::kInt8, "filter"), bias_of(bias), p));
      },
      py::arg("input"), py::arg("filter"), py::arg("bias") = py::none(), COSIM_QUANT_ARGS,
      "FULLY_CONNECTED: input int8 (rows of the filter's depth), filter int8 [units, depth], bias int32 [units] "
      "or None -> int8 [rows, units].");

  g.def(
      "add",
      [](const py::object& input1, const py::object& input2, float input1_scale, int32_t input1_zp, float input2_scale,
         int32_t input2_zp, float output_scale, int32_t output_zp, const std::string& activation,
         const std::string& rounding) {
        const ops::AddParams p = ops::make_add_params(input1_scale, input1_zp, input2_scale, input2_zp, output_scale,
                                                      output_zp, activation_of(activation), rounding_of(rounding));
        return to_numpy(ops::add(to_tensor(input1, DType::kInt8, "input1"), to_tensor(input2, DType::kInt8, "input2"), p));
      },
      py::arg("input1"), py::arg("input2"), py::kw_only(), py::arg("input1_scale"), py::arg("input1_zero_point") = 0,
      py::arg("input2_scale"), py::arg("input2_zero_point") = 0, py::arg("output_scale"),
      py::arg("output_zero_point") = 0, py::arg("activation") = "none", py::arg("rounding") = "double",
      "ADD of two int8 arrays with NumPy broadcasting (left shift 20, as TFLite).");

  g.def(
      "average_pool2d",
      [](const py::object& input, const py::object& filter_size, const py::object& stride, const std::string& padding,
         int32_t activation_min, int32_t activation_max) {
        ops::PoolParams p;
        std::tie(p.filter_h, p.filter_w) = pair_of(filter_size, "filter_size");
        std::tie(p.stride_h, p.stride_w) = pair_of(stride, "stride");
        p.padding = padding_of(padding);
        p.act = {activation_min, activation_max};
        return to_numpy(ops::average_pool2d(to_tensor(input, DType::kInt8, "input"), p));
      },
      py::arg("input"), py::kw_only(), py::arg("filter_size"), py::arg("stride") = 1, py::arg("padding") = "valid",
      py::arg("activation_min") = -128, py::arg("activation_max") = 127,
      "AVERAGE_POOL_2D: input int8 NHWC; input and output share scale and zero point (no requantization, so no "
      "rounding mode); the fused activation as its int8 range.");

  g.def(
      "softmax",
      [](const py::object& input, double input_scale, double beta) {
        return to_numpy(ops::softmax(to_tensor(input, DType::kInt8, "input"), ops::make_softmax_params(beta, input_scale)));
      },
      py::arg("input"), py::kw_only(), py::arg("input_scale"), py::arg("beta") = 1.0,
      "SOFTMAX over the last axis in TFLite's fixed-point arithmetic (one semantics, no rounding mode); output int8 "
      "at scale 1/256, zero point -128.");

  g.def(
      "quantize_multiplier",
      [](double real) {
        const quant::QuantizedMultiplier q = quant::quantize_multiplier(real);
        return std::make_pair(q.multiplier, q.shift);
      },
      py::arg("real_multiplier"), "TFLite's QuantizeMultiplier: real ~= multiplier * 2^(shift - 31).");
}

}  // namespace cosim::python
