// A float .tflite network (a float ResNet-8) as one TF2 program: every
// CONV_2D is a TF2 layer reading the map it reads in the model (input_from:
// a shortcut convolution reads its block's input), an ADD right after a
// CONV_2D without activation whose other operand is an earlier map becomes
// that layer's residual ADD, and the operators after the last convolution
// (pooling, reshape, dense, softmax) run in float on the host.
//
// Qs follow the Transform Kit: the float network runs on a calibration batch,
// each map gets max |x| per channel, choose_q_from_max. The image has one Q
// (channel 0's, spec/tf2.md). A residual ADD needs its two operands and its
// sum at one Q per channel, so they share the per-channel minimum of their
// three Qs (nothing saturates more than needed). make_fitting_conv_layer may
// lower a layer's output Qs further; the plan repeats until every map's Q is
// the same for its writer and its readers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

#include "tf2/sac.hpp"
#include "tf2/tflite_conv.hpp"
#include "tflite/model.hpp"
#include "tflite_float/interpreter.hpp"

namespace cosim::tf2 {

// One TF2 layer of the network.
struct NetworkLayer {
  std::size_t conv_op = 0;      // the CONV_2D operator
  int add_op = -1;              // the fused ADD operator, -1 = none
  int32_t in_tensor = 0;        // the map it reads
  int32_t res_tensor = -1;      // the residual operand (fused ADD)
  int32_t out_tensor = 0;       // the map it writes (the ADD's output when fused)
  TfliteConv conv;              // the model's layer
};

struct Network {
  std::vector<ConvLayer> layers;     // the TF2 chain (input_from / residual_from set)
  std::vector<NetworkLayer> info;    // one per layer
  std::vector<std::size_t> host_ops; // run in float after the chain, in order
  int32_t input_tensor = 0;
  int input_q = 0;                   // the image's single Q
  std::map<int32_t, std::vector<int>> q;  // per device map (tensor): Q per channel
};

// Per rank-4 tensor (NHWC), the maximum |x| per channel over the runs.
using ChannelMax = std::map<int32_t, std::vector<float>>;
ChannelMax channel_max(const tflite::Model& m, const std::vector<tflite_float::Values>& runs);

// Plans the network (see the file comment). Throws InputError naming the
// operator that has no place in it (an ADD that cannot fuse, a CONV_2D after
// a host operator, a CONV_2D TF2 cannot run or hold).
Network plan_network(const tflite::Model& m, const ChannelMax& calibration);

}  // namespace cosim::tf2
