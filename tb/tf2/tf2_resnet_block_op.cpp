// The tf2 target's `resnet_block` op: conv (ReLU), conv, residual ADD of the
// block input, ReLU.
//
//   shapes: {input: [1, H, W, C]}
//   params: {kernel: 3, bias: true, batch_norm: true, relu: true}
//   data:   {input, conv1_weights, conv2_weights, conv1_bias, ..., conv2_bn_beta}
//
// Checks: "conv1" and "output" (or one per 16-channel group), tf2_layers_op.hpp.
#include <algorithm>
#include <sstream>

#include "common/text.hpp"
#include "tf2/fmap_quant.hpp"
#include "tf2/inq.hpp"
#include "tf2/tf2_layers_op.hpp"

namespace cosim::tb::tf2 {

using namespace cosim::tf2;

namespace {

class ResnetBlockOp : public Tf2LayersOp {
 public:
  std::string name() const override { return "resnet_block"; }
  scenario::Schema schema() const override { return schema_of({"conv1_", "conv2_"}, false); }

 protected:
  Tf2Layers build(const scenario::Scenario& sc, const Tf2Input& in) const override {
    const int h = in.h, w = in.w, c = in.c, k = in.k;
    const std::vector<float>& x = in.x;
    const scenario::Value& kv = sc["params"]["kernel"];
    if (k % 2 == 0) kv.fail("expected an odd kernel (the block keeps its shape with 'same' padding)");
    const int pad = (k - 1) / 2;
    const FloatConv f1 = float_layer(sc, "conv1_", c, c, h, w, k, 1, pad, in.bias, in.bn, true);
    const FloatConv f2 = float_layer(sc, "conv2_", c, c, h, w, k, 1, pad, in.bias, in.bn, false);
    const std::vector<float> r1 = float_conv2d(f1, x);
    const std::vector<float> r2 = float_conv2d(f2, r1);
    std::vector<float> sum(r2.size()), out_f(r2.size());
    for (std::size_t i = 0; i < r2.size(); ++i) {
      sum[i] = r2[i] + x[i];
      out_f[i] = in.relu && sum[i] < 0 ? 0.0f : sum[i];
    }
    // The residual ADD needs one Q for the block input (the network's
    // input image: one Q, channel 0's), conv2's output and the sum: the
    // smallest of the three. conv1's output has one Q per channel.
    int q = std::min({choose_map_q(x, c)[0], choose_layer_q(r2, c), choose_layer_q(sum, c)});
    std::vector<int> q1 = choose_map_q(r1, c);
    ConvLayer L1, L2;
    for (int tries = 0;; ++tries) {
      L1 = make_conv_layer(f1, {q}, q1);
      L2 = make_conv_layer(f2, q1, {q});
      if (L1.largest_shift() <= kMaxShift && L2.largest_shift() <= kMaxShift) break;
      if (tries > 300) sc["data"].fail("the weights' exponent range does not fit the 5-bit shift at any Q");
      if (L1.largest_shift() > kMaxShift) {
        const int top = *std::max_element(q1.begin(), q1.end());
        for (int& v : q1) v -= v == top ? 1 : 0;
      } else {
        --q;
      }
    }
    L2.relu = in.relu;
    L2.residual_from = kResidualFromInput;
    L1.wide_requant = L2.wide_requant = in.wide;
    Tf2Layers b;
    b.q_in = q;
    b.layers = {L1, L2};
    const std::vector<int8_t> xq = quantize_map(x, c, {q});
    const std::vector<std::vector<int8_t>> yq = sac_chain(b.layers, xq);
    const std::vector<float> i1 = float_conv2d(with_inq_weights(f1, L1), x);
    const std::vector<float> i2 = float_conv2d(with_inq_weights(f2, L2), i1);
    std::vector<float> iout(i2.size());
    for (std::size_t i = 0; i < i2.size(); ++i) {
      const float s = i2[i] + x[i];
      iout[i] = in.relu && s < 0 ? 0.0f : s;
    }
    const ErrorStats inq1 = compare(r1, i1), tot1 = compare(r1, dequantize_map(yq[0], c, q1));
    const auto [q1_lo, q1_hi] = std::minmax_element(q1.begin(), q1.end());
    const ErrorStats inqb = compare(out_f, iout), totb = compare(out_f, dequantize_map(yq[1], q));
    b.cost = {{"conv1.inq_snr_db", inq1.snr_db},   {"conv1.inq_max_abs_err", inq1.max_abs_err},
              {"conv1.int8_snr_db", tot1.snr_db},  {"conv1.int8_max_abs_err", tot1.max_abs_err},
              {"block.inq_snr_db", inqb.snr_db},   {"block.inq_max_abs_err", inqb.max_abs_err},
              {"block.int8_snr_db", totb.snr_db},  {"block.int8_max_abs_err", totb.max_abs_err},
              {"conv1.q_out_min", *q1_lo},         {"conv1.q_out_max", *q1_hi},
              {"block.q", q},
              {"conv1.min_exp", L1.min_exp},       {"conv2.min_exp", L2.min_exp}};
    std::ostringstream summary;
    summary << "resnet_block 1x" << h << "x" << w << "x" << c << ", 2x conv k" << k << (in.bn ? " bn" : "")
            << " + residual" << (in.relu ? " + relu" : "") << "; Q " << q << " / conv1 " << q_range(q1)
            << "; float ref: conv1 INQ " << fmt_db(inq1.snr_db) << ", int8 " << fmt_db(tot1.snr_db)
            << "; block INQ " << fmt_db(inqb.snr_db) << ", int8 " << fmt_db(totb.snr_db) << " (max |err| "
            << significant_text(totb.max_abs_err) << ")";
    b.summary = summary.str();
    b.out_names = {"conv1", "output"};
    b.float_out = {r1, out_f};
    return b;
  }
};

}  // namespace

std::unique_ptr<Operator> make_resnet_block_op() { return std::make_unique<ResnetBlockOp>(); }

}  // namespace cosim::tb::tf2
