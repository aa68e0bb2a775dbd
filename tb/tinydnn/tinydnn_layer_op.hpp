// The tinydnn target's layer ops `fwd`, `bwd`, `dw` and `train_step`: the
// convolution commands tiny-dnn's convolutional layer issues, one operator
// per mode (tinydnn_layer_op.cpp).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cosim/operator.hpp"
#include "tinydnn/host_program.hpp"

namespace cosim::tb::tinydnn {

// The unit of work behind element `index` of a layer job's check (from its
// name alone: also on replay). y / dx ("y", or "y_s<k>" per sample) are NCHW
// [batch, C, H, W]: sample, channel, pixel; dW is [out channel, in channel,
// ky, kx].
std::optional<WorkUnit> layer_work_unit(const std::string& check, const std::vector<int64_t>& index);

// The run's figures: `macs` over the 16 MAC cores and the run's cycles, and
// the hardware's own MAC count.
Metrics layer_run_metrics(uint64_t macs, const SimOutcome& run);

}  // namespace cosim::tb::tinydnn
