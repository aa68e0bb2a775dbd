// TFLite int8 SOFTMAX in the reference kernel's fixed-point arithmetic
// (reference_ops::Softmax for quantized types, gemmlowp fixed point): per row
// of the last dimension, the differences to the row's maximum scaled by
// beta * input_scale into Q5.26, exp_on_negative_values (Taylor polynomial
// around -1/8 on [-1/4, 0) and a barrel shifter of exp(-2^k) constants),
// the sum in Q12.19, its reciprocal by Newton-Raphson
// (one_over_one_plus_x_for_x_in_0_1), then each exp times the reciprocal
// rounded down to 8 bits; differences below diff_min give -128. The output
// is at scale 1/256, zero point -128, as TFLite requires.
#pragma once

#include <cstdint>

#include "tensor/tensor.hpp"

namespace cosim::ops {

struct SoftmaxParams {
  int32_t input_multiplier = 0;  // beta * input_scale * 2^26 as multiplier * 2^(left_shift - 31)
  int input_left_shift = 0;
  int32_t diff_min = 0;          // differences below it are treated as -infinity
};

// TFLite's PreprocessSoftmaxScaling and CalculateInputRadius with 5 integer
// bits for the scaled differences. InputError for a non-positive product.
SoftmaxParams make_softmax_params(double beta, double input_scale);

// int8 of any rank >= 1, normalised over the last dimension; same shape out.
Tensor softmax(const Tensor& in, const SoftmaxParams& p);

// The fixed-point pieces, for tests: exp(x) of a Q5.26 x <= 0 as Q0.31
// (INT32_MAX for x = 0), and 1 / (1 + x) of a Q0.31 x in [0, 1) as Q0.31
// scaled by 1/2 (gemmlowp's one_over_one_plus_x_for_x_in_0_1).
int32_t exp_on_negative_values_q5(int32_t x);
int32_t one_over_one_plus_x(int32_t x);

}  // namespace cosim::ops
