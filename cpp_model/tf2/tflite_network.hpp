// A float .tflite network as TF2 programs, the way a delegate runs it: every
// CONV_2D and FULLY_CONNECTED (a 1x1 convolution over a 1x1 map) the TF2
// layer can express is a TF2 layer reading the map it reads in the model
// (input_from: a shortcut convolution reads its block's input); an ADD right
// after such a layer without activation whose other operand is an earlier map
// of the same segment becomes that layer's residual ADD; every other operator
// (depthwise, pooling, reshape, softmax, a convolution TF2 has no form for)
// runs in float on the host. Consecutive device layers form a segment, one
// TF2 program started once; a host operator between two ends the segment
// before it, and the next segment reads its input map from the host.
//
// Qs follow the Transform Kit: the float network runs on a calibration batch,
// each map gets max |x| per channel, choose_q_from_max. The image has one Q
// (channel 0's, spec/tf2.md); a map the host writes for a segment keeps one Q
// per channel. A residual ADD needs its two operands and its
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
  std::size_t conv_op = 0;      // the CONV_2D (or FULLY_CONNECTED) operator
  int add_op = -1;              // the fused ADD operator, -1 = none
  int32_t in_tensor = 0;        // the map it reads
  int32_t res_tensor = -1;      // the residual operand (fused ADD)
  int32_t out_tensor = 0;       // the map it writes (the ADD's output when fused)
  TfliteConv conv;              // the model's layer
};

// Layers [first, first + count) of Network::layers, run by one start of the
// device: the first reads `input_tensor` (the image, a map the host wrote,
// or a map of an earlier segment), the others that map or each other's.
struct Segment {
  std::size_t first = 0, count = 0;
  int32_t input_tensor = 0;
};

struct Network {
  std::vector<ConvLayer> layers;     // every segment's layers (input_from / residual_from: indices into it,
                                     // kChainInput = the layer's segment input)
  std::vector<NetworkLayer> info;    // one per layer
  std::vector<Segment> segments;     // in model order
  std::vector<std::size_t> host_ops; // run in float on the host, in model order
  std::map<std::size_t, std::string> host_reason;  // per host operator: why not on TF2
  int32_t input_tensor = 0;
  int input_q = 0;                   // the image's single Q
  std::map<int32_t, std::vector<int>> q;  // per device map (tensor): Q per channel

  std::size_t segment_of(std::size_t layer) const;
  // Segment s's layers as one chain (the indices they name made relative to
  // its first layer), for tf2::compile and tf2::sac_chain.
  std::vector<ConvLayer> segment_layers(std::size_t s) const;
};

// Per rank-4 (NHWC) or rank-2 (a dense layer's [1, depth]) tensor, the
// maximum |x| per channel (the last dimension) over the runs.
using ChannelMax = std::map<int32_t, std::vector<float>>;
ChannelMax channel_max(const tflite::Model& m, const std::vector<tflite_float::Values>& runs);

// Plans the network (see the file comment). Throws InputError naming the
// operator whose layer TF2 cannot hold (its shifts or sizes), or when no
// operator runs on TF2.
Network plan_network(const tflite::Model& m, const ChannelMax& calibration);

}  // namespace cosim::tf2
