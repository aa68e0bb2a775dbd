#include "tf2/tflite_network.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "common/error.hpp"
#include "tf2/compiler.hpp"
#include "tf2/fmap_quant.hpp"
#include "tf2/reference.hpp"

namespace cosim::tf2 {

using tflite::Model;

namespace {

std::string op_where(const Model& m, std::size_t op) {
  return m.path + ": operator " + std::to_string(op) + " (" + tflite::op_name(m.subgraphs[0].operators[op].code) + ")";
}

// How many operators read tensor t.
int readers(const Model& m, int32_t t) {
  int n = 0;
  for (const tflite::Operator& op : m.subgraphs[0].operators) n += static_cast<int>(std::count(op.inputs.begin(), op.inputs.end(), t));
  for (int32_t o : m.subgraphs[0].outputs) n += o == t;
  return n;
}

// Lowers every channel's Q of the maps a residual ADD ties together to their
// minimum, until no group changes (groups may share maps).
void tie_residual_groups(const std::vector<NetworkLayer>& info, std::map<int32_t, std::vector<int>>& q) {
  for (bool changed = true; changed;) {
    changed = false;
    for (const NetworkLayer& l : info) {
      if (l.add_op < 0) continue;
      std::vector<int>& a = q.at(l.res_tensor);
      std::vector<int>& b = q.at(l.out_tensor);
      for (std::size_t c = 0; c < a.size(); ++c) {
        const int lo = std::min(a[c], b[c]);
        changed = changed || a[c] != lo || b[c] != lo;
        a[c] = b[c] = lo;
      }
    }
  }
}

}  // namespace

ChannelMax channel_max(const Model& m, const std::vector<tflite_float::Values>& runs) {
  ChannelMax out;
  const auto& ts = m.subgraphs[0].tensors;
  for (const tflite_float::Values& v : runs) {
    for (std::size_t t = 0; t < v.size() && t < ts.size(); ++t) {
      if (v[t].empty() || (ts[t].shape.size() != 4 && ts[t].shape.size() != 2)) continue;
      const std::size_t c = static_cast<std::size_t>(ts[t].shape.back());
      std::vector<float>& mx = out[static_cast<int32_t>(t)];
      mx.resize(c, 0.0f);
      for (std::size_t i = 0; i < v[t].size(); ++i) mx[i % c] = std::max(mx[i % c], std::fabs(v[t][i]));
    }
  }
  return out;
}

std::size_t Network::segment_of(std::size_t layer) const {
  for (std::size_t s = 0; s < segments.size(); ++s) {
    if (layer >= segments[s].first && layer < segments[s].first + segments[s].count) return s;
  }
  throw InputError("tf2 network: layer " + std::to_string(layer) + " is in no segment");
}

std::vector<ConvLayer> Network::segment_layers(std::size_t s) const {
  const Segment& seg = segments.at(s);
  std::vector<ConvLayer> out(layers.begin() + static_cast<std::ptrdiff_t>(seg.first),
                             layers.begin() + static_cast<std::ptrdiff_t>(seg.first + seg.count));
  const int first = static_cast<int>(seg.first);
  for (ConvLayer& L : out) {
    if (L.input_from >= 0) L.input_from -= first;
    if (L.residual_from >= 0) L.residual_from -= first;
  }
  return out;
}

namespace {

// The TF2 layer an operator is, or why it runs on the host.
struct DeviceForm {
  bool ok = false;
  TfliteConv conv;
  std::string reason;
};
DeviceForm device_form(const Model& m, std::size_t i) {
  const int32_t code = m.subgraphs[0].operators[i].code;
  DeviceForm d;
  if (code != tflite::kConv2d && code != tflite::kFullyConnected) {
    d.reason = "TF2 runs CONV_2D and FULLY_CONNECTED (as a 1x1 CONV_2D) only";
    return d;
  }
  try {
    d.conv = code == tflite::kConv2d ? read_float_conv(m, i) : read_float_fully_connected(m, i);
    const FloatConv f = fold_trailing_padding(d.conv);  // SAME padding the device can run
    check_capacity(f.c_in, f.h_in, f.w_in, f.k, DeviceConfig{}, op_where(m, i));  // maps and filters it can hold
    d.ok = true;
  } catch (const InputError& e) {
    const std::string what = e.what(), prefix = op_where(m, i) + ": ";
    d.reason = what.rfind(prefix, 0) == 0 ? what.substr(prefix.size()) : what;
  }
  return d;
}

}  // namespace

namespace {

// What the three steps of plan_network share: the network so far, which
// device layer writes each map, and each layer's float form on the device.
struct Plan {
  Network net;
  std::map<int32_t, int> writer;  // device map -> layer
  std::vector<FloatConv> device;
};

// Step 1: every operator on the device or the host, the device layers in
// segments (a residual ADD fused into the layer before it).
void partition(const Model& m, Plan& p) {
  Network& net = p.net;
  bool open = false;  // a segment takes more layers
  const auto& ops = m.subgraphs[0].operators;
  auto to_host = [&](std::size_t i, std::string why) {
    net.host_ops.push_back(i);
    net.host_reason[i] = std::move(why);
    open = false;
  };
  // Whether layer j is in the open segment.
  auto in_open = [&](int j) { return open && j >= static_cast<int>(net.segments.back().first); };
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const tflite::Operator& op = ops[i];
    if (op.code == tflite::kAdd && open) {
      const auto act = std::get<tflite::AddOptions>(op.options).activation;
      const int last = static_cast<int>(net.info.size()) - 1;
      NetworkLayer* l = &net.info.back();
      const bool a_last = op.inputs[0] == l->out_tensor && l->add_op < 0;
      const bool b_last = op.inputs[1] == l->out_tensor && l->add_op < 0;
      const int32_t other = a_last ? op.inputs[1] : op.inputs[0];
      const auto src = p.writer.find(other);
      if ((a_last || b_last) && src != p.writer.end() && src->second != last && in_open(src->second) &&
          !p.device.back().relu && readers(m, l->out_tensor) == 1 &&
          (act == tflite::FusedActivation::kNone || act == tflite::FusedActivation::kRelu)) {
        l->add_op = static_cast<int>(i);
        l->res_tensor = other;
        l->out_tensor = op.outputs[0];
        p.writer[l->out_tensor] = last;
        continue;
      }
      to_host(i, "a TF2 residual ADD needs the output of the layer right before it, without activation and read by "
                 "nothing else, plus a map an earlier layer of its segment wrote, and a fused activation NONE or RELU");
      continue;
    }
    DeviceForm form = device_form(m, i);
    if (!form.ok) {
      to_host(i, form.reason);
      continue;
    }
    NetworkLayer l;
    l.conv_op = i;
    l.conv = std::move(form.conv);
    l.in_tensor = op.inputs[0];
    l.out_tensor = op.outputs[0];
    const auto w = p.writer.find(l.in_tensor);
    const bool reads_open =
        open && (l.in_tensor == net.segments.back().input_tensor || (w != p.writer.end() && in_open(w->second)));
    if (!reads_open) {  // a new segment, reading what the host or an earlier segment wrote
      net.segments.push_back({net.info.size(), 0, l.in_tensor});
      open = true;
    }
    ++net.segments.back().count;
    p.device.push_back(fold_trailing_padding(l.conv));
    p.writer[l.out_tensor] = static_cast<int>(net.info.size());
    net.info.push_back(l);
  }
  if (net.info.empty()) throw InputError(m.path + ": no operator TF2 can run (CONV_2D or FULLY_CONNECTED in float)");
}

// Step 2: the calibration Qs of every device map (the raw convolution
// outputs of fused layers take part in their residual group's minimum).
void calibrate(const Model& m, const ChannelMax& cal, Plan& p) {
  Network& net = p.net;
  const auto& ops = m.subgraphs[0].operators;
  auto calibrated = [&](int32_t t) {
    const auto it = cal.find(t);
    if (it == cal.end()) throw InputError(m.path + ": tensor " + std::to_string(t) + " has no calibration maximum");
    return choose_q_from_max(it->second);
  };
  net.input_q = calibrated(net.input_tensor).at(0);
  net.q[net.input_tensor] = std::vector<int>(calibrated(net.input_tensor).size(), net.input_q);
  for (const Segment& seg : net.segments) {  // a map the host writes: one Q per channel
    if (seg.input_tensor != net.input_tensor && p.writer.count(seg.input_tensor) == 0) {
      net.q[seg.input_tensor] = calibrated(seg.input_tensor);
    }
  }
  for (const NetworkLayer& l : net.info) {
    std::vector<int> q = calibrated(l.out_tensor);
    if (l.add_op >= 0) {
      const std::vector<int> raw = calibrated(ops[l.conv_op].outputs[0]);
      for (std::size_t c = 0; c < q.size(); ++c) q[c] = std::min(q[c], raw[c]);
    }
    net.q[l.out_tensor] = q;
  }
  tie_residual_groups(net.info, net.q);
}

// Step 3: compile; a layer whose shifts do not fit lowers its output Qs,
// which its readers and its residual partner then follow.
void compile_until_settled(const Model& m, Plan& p) {
  Network& net = p.net;
  const auto& ops = m.subgraphs[0].operators;
  for (int pass = 0;; ++pass) {
    if (pass == 16) throw InputError(m.path + ": the maps' Qs do not settle (residual groups and shift range)");
    net.layers.clear();
    bool changed = false;
    for (std::size_t k = 0; k < net.info.size(); ++k) {
      const NetworkLayer& l = net.info[k];
      ConvLayer L;
      try {
        L = make_fitting_conv_layer(p.device[k], net.q.at(l.in_tensor), net.q.at(l.out_tensor));
      } catch (const InputError& e) {
        throw InputError(op_where(m, l.conv_op) + ": " + e.what());
      }
      const Segment& seg = net.segments[net.segment_of(k)];
      L.input_from = l.in_tensor == seg.input_tensor ? kChainInput : p.writer.at(l.in_tensor);
      if (l.add_op >= 0) {
        L.residual_from = p.writer.at(l.res_tensor);
        L.relu = std::get<tflite::AddOptions>(ops[static_cast<std::size_t>(l.add_op)].options).activation ==
                 tflite::FusedActivation::kRelu;
      }
      if (L.output_q() != net.q.at(l.out_tensor)) {
        net.q[l.out_tensor] = L.output_q();
        changed = true;
      }
      net.layers.push_back(std::move(L));
    }
    if (!changed) break;
    tie_residual_groups(net.info, net.q);
  }
}

}  // namespace

Network plan_network(const Model& m, const ChannelMax& cal) {
  tflite_float::check_supported(m);
  Plan p;
  p.net.input_tensor = tflite_float::input_tensor(m);
  partition(m, p);
  calibrate(m, cal, p);
  compile_until_settled(m, p);
  return std::move(p.net);
}

}  // namespace cosim::tf2
