// Writes small .tflite flatbuffers for the tests with the generic
// FlatBufferBuilder table API: field ids written out by hand from the TFLite
// schema (slot = 4 + 2 * id), so the tests do not depend on the importer.
#pragma once

#include <flatbuffers/flatbuffers.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace tfltest {

struct OptField {
  int id;
  int32_t value;
  bool byte;  // int8 field (enums) rather than int32
};

struct TensorSpec {
  std::vector<int32_t> shape;
  int8_t type = 9;  // INT8
  uint32_t buffer = 0;
  std::string name;
  std::vector<float> scale;
  std::vector<int64_t> zero_point;
  int32_t quantized_dimension = 0;
};

struct OpSpec {
  uint32_t opcode_index = 0;
  std::vector<int32_t> inputs, outputs;
  uint8_t options_type = 0;  // BuiltinOptions union tag
  std::vector<OptField> options;
};

struct CodeSpec {
  int8_t deprecated_builtin_code = 0;
  int32_t builtin_code = 0;
};

struct ModelSpec {
  std::vector<CodeSpec> codes;
  std::vector<std::vector<uint8_t>> buffers{{}};  // buffer 0: the empty sentinel
  std::vector<TensorSpec> tensors;
  std::vector<int32_t> inputs, outputs;
  std::vector<OpSpec> ops;
  const char* identifier = "TFL3";
};

inline flatbuffers::voffset_t slot(int id) { return static_cast<flatbuffers::voffset_t>(4 + 2 * id); }

inline std::vector<uint8_t> build(const ModelSpec& m) {
  namespace fb = flatbuffers;
  fb::FlatBufferBuilder b;
  b.ForceDefaults(true);
  using TableOff = fb::Offset<fb::Table>;

  std::vector<TableOff> codes;
  for (const CodeSpec& c : m.codes) {
    const auto s = b.StartTable();
    b.AddElement<int8_t>(slot(0), c.deprecated_builtin_code, 0);
    b.AddElement<int32_t>(slot(2), 1, 0);  // version
    b.AddElement<int32_t>(slot(3), c.builtin_code, 0);
    codes.push_back(TableOff(b.EndTable(s)));
  }
  std::vector<TableOff> buffers;
  for (const auto& data : m.buffers) {
    fb::Offset<fb::Vector<uint8_t>> d;
    if (!data.empty()) {
      b.ForceVectorAlignment(data.size(), 1, 16);
      d = b.CreateVector(data);
    }
    const auto s = b.StartTable();
    if (!data.empty()) b.AddOffset(slot(0), d);
    buffers.push_back(TableOff(b.EndTable(s)));
  }
  std::vector<TableOff> tensors;
  for (const TensorSpec& t : m.tensors) {
    TableOff q;
    if (!t.scale.empty()) {
      const auto sc = b.CreateVector(t.scale);
      const auto zp = b.CreateVector(t.zero_point);
      const auto s = b.StartTable();
      b.AddOffset(slot(2), sc);
      b.AddOffset(slot(3), zp);
      b.AddElement<int32_t>(slot(6), t.quantized_dimension, 0);
      q = TableOff(b.EndTable(s));
    }
    const auto shape = b.CreateVector(t.shape);
    const auto name = b.CreateString(t.name);
    const auto s = b.StartTable();
    b.AddOffset(slot(0), shape);
    b.AddElement<int8_t>(slot(1), t.type, 0);
    b.AddElement<uint32_t>(slot(2), t.buffer, 0);
    b.AddOffset(slot(3), name);
    if (!t.scale.empty()) b.AddOffset(slot(4), q);
    tensors.push_back(TableOff(b.EndTable(s)));
  }
  std::vector<TableOff> ops;
  for (const OpSpec& o : m.ops) {
    TableOff opt;
    if (o.options_type != 0) {
      const auto s = b.StartTable();
      for (const OptField& f : o.options) {
        if (f.byte)
          b.AddElement<int8_t>(slot(f.id), static_cast<int8_t>(f.value), 0);
        else
          b.AddElement<int32_t>(slot(f.id), f.value, 0);
      }
      opt = TableOff(b.EndTable(s));
    }
    const auto in = b.CreateVector(o.inputs);
    const auto out = b.CreateVector(o.outputs);
    const auto s = b.StartTable();
    b.AddElement<uint32_t>(slot(0), o.opcode_index, 0);
    b.AddOffset(slot(1), in);
    b.AddOffset(slot(2), out);
    b.AddElement<uint8_t>(slot(3), o.options_type, 0);
    if (o.options_type != 0) b.AddOffset(slot(4), opt);
    ops.push_back(TableOff(b.EndTable(s)));
  }
  const auto tv = b.CreateVector(tensors);
  const auto iv = b.CreateVector(m.inputs);
  const auto ov = b.CreateVector(m.outputs);
  const auto opv = b.CreateVector(ops);
  const auto sgname = b.CreateString("main");
  const auto sgs = b.StartTable();
  b.AddOffset(slot(0), tv);
  b.AddOffset(slot(1), iv);
  b.AddOffset(slot(2), ov);
  b.AddOffset(slot(3), opv);
  b.AddOffset(slot(4), sgname);
  const TableOff sg(b.EndTable(sgs));

  const auto codev = b.CreateVector(codes);
  const auto sgv = b.CreateVector(std::vector<TableOff>{sg});
  const auto bufv = b.CreateVector(buffers);
  const auto desc = b.CreateString("cosim test model");
  const auto ms = b.StartTable();
  b.AddElement<uint32_t>(slot(0), 3, 0);
  b.AddOffset(slot(1), codev);
  b.AddOffset(slot(2), sgv);
  b.AddOffset(slot(3), desc);
  b.AddOffset(slot(4), bufv);
  b.Finish(TableOff(b.EndTable(ms)), m.identifier);
  return std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

template <class T>
std::vector<uint8_t> le_bytes(const std::vector<T>& v) {
  std::vector<uint8_t> out(v.size() * sizeof(T));
  if (!v.empty()) std::memcpy(out.data(), v.data(), out.size());  // x86: little-endian like the wire
  return out;
}

// One CONV_2D: input [1,2,2,1] (s 0.5, zp 1), filter [1,1,1,1] = 2 (s 0.25),
// bias [4], output [1,2,2,1] (s 1, zp 0), VALID, stride 1, no activation.
inline ModelSpec one_conv_model() {
  ModelSpec m;
  m.codes = {{3, 3}};
  m.buffers.push_back({});                      // 1: input (no data)
  m.buffers.push_back(le_bytes<int8_t>({2}));   // 2: filter
  m.buffers.push_back(le_bytes<int32_t>({4}));  // 3: bias
  m.buffers.push_back({});                      // 4: output
  m.tensors = {
      {{1, 2, 2, 1}, 9, 1, "input", {0.5f}, {1}, 0},
      {{1, 1, 1, 1}, 9, 2, "filter", {0.25f}, {0}, 0},
      {{1}, 2, 3, "bias", {0.125f}, {0}, 0},
      {{1, 2, 2, 1}, 9, 4, "output", {1.0f}, {0}, 0},
  };
  m.inputs = {0};
  m.outputs = {3};
  // Conv2DOptions: padding VALID(1), stride_w 1, stride_h 1, activation NONE.
  m.ops = {{0, {0, 1, 2}, {3}, 1, {{0, 1, true}, {1, 1, false}, {2, 1, false}, {3, 0, true}}}};
  return m;
}

}  // namespace tfltest
