// Kernel sizes and strides the random sweep does not draw (it rotates k over
// 1/3/5 and stride over 1/2): even kernels, the largest kernel (MaxK = 7),
// strides 3 and 4, each bit-exact against the golden model on the RTL.
// Found as holes by the functional coverage (scripts/coverage_report.py).
#include <gtest/gtest.h>

#include "tf2/tf2_rtl_util.hpp"

namespace cosim::tf2 {
namespace {

TEST(Tf2RtlShapes, OtherKernelsAndLargeStridesBitExact) {
  const int cases[][3] = {// k, stride, pad
                          {2, 1, 0}, {4, 2, 1}, {6, 3, 2}, {7, 1, 3}, {7, 3, 0}, {3, 3, 1}, {1, 4, 0}, {5, 4, 2}};
  int i = 0;
  for (const auto& kc : cases) {
    SweepCase c = sweep_case(i, 31, 40, 16);
    c.shape.k = kc[0];
    c.shape.stride = kc[1];
    c.shape.pad = kc[2];
    c.shape.h_in = std::max(c.shape.h_in, c.shape.k);
    c.shape.w_in = std::max(c.shape.w_in, c.shape.k);
    const ConvLayer L = random_layer(c.shape, c.seed);
    const RtlRun r = run_on_rtl({L}, random_input(L.c_in, L.h_in, L.w_in, c.seed), c.axi);
    ASSERT_TRUE(r.result.done) << describe(c);
    ASSERT_FALSE(r.result.error) << describe(c) << " err_info " << std::hex << r.result.err_info;
    EXPECT_EQ(r.mismatches, 0u) << describe(c) << ": " << r.first_mismatch;
    EXPECT_TRUE(r.protocol_errors.empty()) << describe(c);
    ++i;
  }
}

}  // namespace
}  // namespace cosim::tf2
