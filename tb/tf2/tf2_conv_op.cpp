// The tf2 target's `conv` op: one convolution layer.
//
//   shapes: {input: [1, H, W, C]}               # NHWC, batch 1
//   params: {c_out: 32, kernel: 3, stride: 1, padding: same,   # same | valid | 0..k-1
//            bias: true, batch_norm: true, relu: true}
//   data:   {input: random, weights: random, bias: random, bn_alpha: random, bn_beta: random}
//
// The golden model INQ-compresses the weights, picks the power-of-two Qs of
// the maps from the float results (one Q per map, as the hardware path), and
// runs the shift-accumulate arithmetic; the report carries the float
// reference's cost. Checks: "output" (or one per 16-channel group), tf2_layers_op.hpp.
#include <algorithm>
#include <sstream>

#include "common/text.hpp"
#include "tf2/fmap_quant.hpp"
#include "tf2/tf2_layers_op.hpp"

namespace cosim::tb::tf2 {

using namespace cosim::tf2;

namespace {

class ConvOp : public Tf2LayersOp {
 public:
  std::string name() const override { return "conv"; }
  scenario::Schema schema() const override { return schema_of({""}, true); }

 protected:
  Tf2Layers build(const scenario::Scenario& sc, const Tf2Input& in) const override {
    const scenario::Value& pv = sc["params"];
    const int h = in.h, w = in.w, c = in.c, k = in.k;
    const int c_out = static_cast<int>(pv["c_out"].as_int());
    const int stride = static_cast<int>(pv["stride"].as_int());
    const scenario::Value& padv = pv["padding"];
    int pad = 0;
    if (padv.is_string()) pad = padv.as_string() == "same" ? (k - 1) / 2 : 0;
    else pad = static_cast<int>(padv.as_int());
    if (pad >= k) padv.fail("expected padding in [0, kernel-1] = [0, " + std::to_string(k - 1) + "]");
    if (h + 2 * pad < k || w + 2 * pad < k) in.shape_v.fail("expected H and W + 2*padding >= kernel " + std::to_string(k));
    const FloatConv f = float_layer(sc, "", c, c_out, h, w, k, stride, pad, in.bias, in.bn, in.relu);
    const std::vector<float> ref = float_conv2d(f, in.x);
    // The input is the network's input image: one Q, channel 0's
    // (spec/tf2.md); the output map has one Q per channel, each channel's
    // lowered as far as the 5-bit shift needs.
    Tf2Layers b;
    b.q_in = choose_map_q(in.x, c)[0];
    ConvLayer L = make_fitting_conv_layer(f, {b.q_in}, choose_map_q(ref, c_out));
    L.wide_requant = in.wide;
    const std::vector<int8_t> xq = quantize_map(in.x, c, {b.q_in});
    const std::vector<int8_t> yq = sac_conv2d(L, xq);
    const ErrorStats inq = compare(ref, float_conv2d(with_inq_weights(f, L), in.x));
    const ErrorStats tot = compare(ref, dequantize_map(yq, c_out, L.output_q()));
    const std::vector<int> q_out = L.output_q();
    const auto [qo_lo, qo_hi] = std::minmax_element(q_out.begin(), q_out.end());
    b.cost = {{"conv.inq_snr_db", inq.snr_db}, {"conv.inq_max_abs_err", inq.max_abs_err},
              {"conv.int8_snr_db", tot.snr_db}, {"conv.int8_max_abs_err", tot.max_abs_err},
              {"conv.q_in", b.q_in}, {"conv.q_out_min", *qo_lo}, {"conv.q_out_max", *qo_hi},
              {"conv.min_exp", L.min_exp}};
    std::ostringstream summary;
    summary << "conv 1x" << h << "x" << w << "x" << c << " -> 1x" << L.h_out() << "x" << L.w_out() << "x" << c_out
            << ", k" << k << " s" << stride << " p" << pad << (in.bn ? ", bn" : "") << (in.relu ? ", relu" : "")
            << "; Q " << b.q_in << " -> " << q_range(q_out) << "; float ref: INQ " << fmt_db(inq.snr_db) << ", int8 "
            << fmt_db(tot.snr_db) << " (max |err| " << significant_text(tot.max_abs_err) << ")";
    b.summary = summary.str();
    b.layers.push_back(L);
    b.out_names.push_back("output");
    b.float_out.push_back(ref);
    return b;
  }
};

}  // namespace

std::unique_ptr<Operator> make_conv_op() { return std::make_unique<ConvOp>(); }

}  // namespace cosim::tb::tf2
