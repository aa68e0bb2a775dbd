#include "tf2/network_run.hpp"

#include "common/error.hpp"
#include "tf2/fmap_quant.hpp"
#include "tf2/map_layout.hpp"
#include "tf2/sac.hpp"

namespace cosim::tf2 {

namespace {

const std::vector<std::vector<int8_t>> kNoDeviceMaps;

// The CHW int8 map segment s reads: the image at its single Q, an earlier
// layer's map as it was written, or a host operator's output at its Qs.
std::vector<int8_t> segment_input(const Network& net, std::size_t s, const NetworkRun& run) {
  const Segment& seg = net.segments[s];
  const ConvLayer& L = net.layers[seg.first];
  for (std::size_t j = 0; j < seg.first; ++j) {
    if (net.info[j].out_tensor == seg.input_tensor) return run.maps[j];
  }
  const std::vector<float>& v = run.values.at(static_cast<std::size_t>(seg.input_tensor));
  if (v.size() != static_cast<std::size_t>(L.c_in) * L.h_in * L.w_in) {
    throw InputError("tf2 network: segment " + std::to_string(s) + " reads tensor " + std::to_string(seg.input_tensor) +
                     " of " + std::to_string(v.size()) + " values, its first layer expects c_in*h_in*w_in");
  }
  const std::vector<int> q =
      seg.input_tensor == net.input_tensor ? std::vector<int>{net.input_q} : net.q.at(seg.input_tensor);
  return quantize_map(nhwc_to_chw(v, L.c_in, L.h_in, L.w_in), L.c_in, q);
}

NetworkRun run(const tflite::Model& m, const Network& net, const std::vector<float>& image,
               const std::vector<std::vector<int8_t>>& device_maps) {
  NetworkRun r;
  r.values.assign(m.subgraphs[0].tensors.size(), {});
  r.values[static_cast<std::size_t>(net.input_tensor)] = image;
  r.maps.resize(net.layers.size());
  std::size_t next_host = 0;
  // The host operators that come before model operator `before`.
  auto run_host = [&](std::size_t before) {
    for (; next_host < net.host_ops.size() && net.host_ops[next_host] < before; ++next_host) {
      tflite_float::run_op(m, net.host_ops[next_host], r.values);
    }
  };
  for (std::size_t s = 0; s < net.segments.size(); ++s) {
    const Segment& seg = net.segments[s];
    run_host(net.info[seg.first].conv_op);
    r.segment_inputs.push_back(segment_input(net, s, r));
    std::vector<std::vector<int8_t>> outs;
    if (device_maps.empty()) outs = sac_chain(net.segment_layers(s), r.segment_inputs.back());
    for (std::size_t i = 0; i < seg.count; ++i) {
      const std::size_t k = seg.first + i;
      r.maps[k] = device_maps.empty() ? std::move(outs[i]) : device_maps.at(k);
      r.values[static_cast<std::size_t>(net.info[k].out_tensor)] = output_nhwc(net, r, k);
    }
  }
  run_host(m.subgraphs[0].operators.size());
  return r;
}

// The CHW float map `src` names for layer k: kChainInput (its segment's
// input) or layer src's output.
std::vector<float> source_chw(const Network& net, const NetworkRun& run, std::size_t k, int src) {
  if (src != kChainInput) return output_chw(net, run, static_cast<std::size_t>(src));
  const std::size_t s = net.segment_of(k);
  const ConvLayer& first = net.layers[net.segments[s].first];
  return dequantize_map(run.segment_inputs.at(s), first.c_in, first.input_q());
}

}  // namespace

NetworkRun run_network(const tflite::Model& m, const Network& net, const std::vector<float>& image) {
  return run(m, net, image, kNoDeviceMaps);
}

NetworkRun run_network(const tflite::Model& m, const Network& net, const std::vector<float>& image,
                       const std::vector<std::vector<int8_t>>& device_maps) {
  if (device_maps.size() != net.layers.size()) throw InputError("tf2 network: one device map per layer expected");
  return run(m, net, image, device_maps);
}

std::vector<float> input_chw(const Network& net, const NetworkRun& run, std::size_t k) {
  return source_chw(net, run, k, input_source(net.layers, k));
}

std::vector<float> output_chw(const Network& net, const NetworkRun& run, std::size_t k) {
  const ConvLayer& L = net.layers[k];
  return dequantize_map(run.maps.at(k), L.c_out, L.output_q());
}

std::vector<float> output_nhwc(const Network& net, const NetworkRun& run, std::size_t k) {
  const ConvLayer& L = net.layers[k];
  return chw_to_nhwc(output_chw(net, run, k), L.c_out, L.h_out(), L.w_out());
}

std::vector<float> residual_chw(const Network& net, const NetworkRun& run, std::size_t k) {
  return source_chw(net, run, k, net.layers[k].residual_from);
}

}  // namespace cosim::tf2
