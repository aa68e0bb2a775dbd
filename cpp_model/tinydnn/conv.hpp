// Golden convolutions of the tiny-dnn accelerator, bit for bit.
//
// Layout (all row-major, no batch dimension inside one sample):
//   x      [in_c][in_h][in_w]            bf16   (CHW)
//   w      [out_c][in_c][k_h][k_w]        bf16   (OIHW, tiny-dnn's order)
//   bias   [out_c] (forward), [in_c] (backward), [out_c] (dW)
//   y      [out_c][out_h][out_w]          float32 bits
//   delta  [out_c][out_h][out_w]          bf16
//   dx     [in_c][in_h][in_w]             float32 bits
//   dW     [out_c][in_c][k_h][k_w]        float32 bits
// Stride 1, no padding (the host pads). Accumulation orders follow the spec
// exactly because they change the bits.
#pragma once

#include <cstdint>
#include <vector>

#include "tinydnn/arith.hpp"
#include "tinydnn/bf16.hpp"

namespace cosim::tinydnn {

struct ConvShape {
  int in_c = 1, in_h = 1, in_w = 1;
  int out_c = 1;
  int k_h = 1, k_w = 1;

  int out_h() const { return in_h - k_h + 1; }
  int out_w() const { return in_w - k_w + 1; }
  // Throws cosim::InputError naming the field when a size is not positive or
  // the kernel does not fit the input.
  void validate() const;
};

// Forward: y[oc][oy][ox] = sum over ic, ky, kx (kx innermost) then bias.
std::vector<uint32_t> forward(const ConvShape& s, const std::vector<bf16>& x,
                              const std::vector<bf16>& w, const std::vector<bf16>* bias = nullptr);

// Backward: full convolution of delta with the 180-degree rotated kernel,
// sum over oc, ky, kx; taps outside delta are skipped. bias is per in_c.
std::vector<uint32_t> backward(const ConvShape& s, const std::vector<bf16>& delta,
                               const std::vector<bf16>& w, const std::vector<bf16>* bias = nullptr);

// dW over a mini-batch: per sample sum over oy, ox in a running sum, first
// sample stored, later ones accumulated through the destination path.
std::vector<uint32_t> weight_grad(const ConvShape& s, const std::vector<std::vector<bf16>>& xs,
                                  const std::vector<std::vector<bf16>>& deltas,
                                  const std::vector<bf16>* bias = nullptr);

// Float references (double accumulation of the same bf16 inputs).
std::vector<float> forward_ref(const ConvShape& s, const std::vector<bf16>& x,
                               const std::vector<bf16>& w, const std::vector<bf16>* bias = nullptr);
std::vector<float> backward_ref(const ConvShape& s, const std::vector<bf16>& delta,
                                const std::vector<bf16>& w, const std::vector<bf16>* bias = nullptr);
std::vector<float> weight_grad_ref(const ConvShape& s, const std::vector<std::vector<bf16>>& xs,
                                   const std::vector<std::vector<bf16>>& deltas);

struct ErrorStats {
  double max_rel = 0;   // max |got - ref| / |ref| over elements with ref != 0
  double mean_rel = 0;  // mean of the same
  int64_t count = 0;    // elements compared
  int64_t nonfinite = 0;  // elements whose result or reference is NaN / Inf: no relative error means anything then
};
ErrorStats relative_error(const std::vector<uint32_t>& got, const std::vector<float>& ref);

}  // namespace cosim::tinydnn
