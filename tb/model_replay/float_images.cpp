#include "model_replay/float_images.hpp"

#include "tflite_float/interpreter.hpp"

namespace cosim::tb::model_replay {

namespace tf = cosim::tflite_float;

void add_images_key(scenario::Schema& s) {
  s.optional("images", scenario::schemas::data_source(), "{random: {min: 0, max: 1}}");
}

std::vector<std::vector<float>> load_images(const scenario::Scenario& sc, const tflite::Model& m, int count) {
  const auto& shape = m.subgraphs[0].tensors.at(static_cast<std::size_t>(tf::input_tensor(m))).shape;
  // One input of batch 1: an image [1, H, W, C] or a feature vector [1, N]
  // (ad01's 640 log-mel values); `images` holds `count` of them.
  if (shape.size() < 2 || shape[0] != 1) sc["model"].fail(m.path + ": expected an input of shape [1, ...] (batch 1)");
  std::vector<int64_t> batch(shape.begin(), shape.end());
  batch[0] = count;
  const Tensor t = scenario::make_tensor(sc, sc["images"], DType::kFp32, batch,
                                         shape.size() == 4 ? Layout::kNHWC : Layout::kAny, "images");
  const std::size_t n = tf::tensor_size(m, tf::input_tensor(m));
  std::vector<std::vector<float>> out;
  for (int k = 0; k < count; ++k) out.emplace_back(t.data<float>() + k * n, t.data<float>() + (k + 1) * n);
  return out;
}

}  // namespace cosim::tb::model_replay
