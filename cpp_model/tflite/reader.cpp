// .tflite reader on the generic flatbuffers table API.
//
// Why not a schema compiled with flatc: we read about thirty fields of a
// schema with hundreds, and the generated verifier checks the whole buffer at
// once and only answers yes or no. Walking the tables ourselves with the
// library's own flatbuffers::Verifier checks every table, field, vector and
// string before it is touched (the same bounds, alignment, depth and table
// count checks the generated code runs), and lets each failure name the field
// path and its byte offset. No code generator runs at build time, so the
// header version and the flatc version cannot drift apart.
#include <flatbuffers/flatbuffers.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <type_traits>

#include <sys/stat.h>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "common/text.hpp"
#include "tflite/model.hpp"

namespace cosim::tflite {

namespace fb = flatbuffers;

namespace {

// The schema's names of the codes we name: one row each, looked up by value.
template <class Code>
struct Named {
  Code code;
  const char* name;
};

constexpr Named<int32_t> kOpNames[] = {
    {kAdd, "ADD"},
    {kAveragePool2d, "AVERAGE_POOL_2D"},
    {kConcatenation, "CONCATENATION"},
    {kConv2d, "CONV_2D"},
    {kDepthwiseConv2d, "DEPTHWISE_CONV_2D"},
    {kDequantize, "DEQUANTIZE"},
    {kFullyConnected, "FULLY_CONNECTED"},
    {kMaxPool2d, "MAX_POOL_2D"},
    {kMul, "MUL"},
    {kRelu, "RELU"},
    {kRelu6, "RELU6"},
    {kReshape, "RESHAPE"},
    {kSoftmax, "SOFTMAX"},
    {kPad, "PAD"},
    {kMean, "MEAN"},
    {kQuantize, "QUANTIZE"},
};

constexpr Named<TensorType> kTensorTypeNames[] = {
    {TensorType::kFloat32, "FLOAT32"}, {TensorType::kFloat16, "FLOAT16"}, {TensorType::kInt32, "INT32"},
    {TensorType::kUint8, "UINT8"},     {TensorType::kInt64, "INT64"},     {TensorType::kString, "STRING"},
    {TensorType::kBool, "BOOL"},       {TensorType::kInt16, "INT16"},     {TensorType::kInt8, "INT8"},
};

// The row's name, or nullptr for a code the table does not have.
template <class Code, std::size_t N>
const char* name_of(const Named<Code> (&table)[N], Code code) {
  for (const Named<Code>& row : table) {
    if (row.code == code) return row.name;
  }
  return nullptr;
}

}  // namespace

std::string op_name(int32_t code) {
  const char* name = name_of(kOpNames, code);
  return name != nullptr ? name : "BUILTIN_" + std::to_string(code);
}

std::string tensor_type_name(int8_t type) {
  const char* name = name_of(kTensorTypeNames, static_cast<TensorType>(type));
  return name != nullptr ? name : "TYPE_" + std::to_string(type);
}

std::string quoted(const std::string& name) {
  constexpr std::size_t kMax = 160;
  const char* hex = "0123456789abcdef";
  std::string out = "'";
  for (std::size_t i = 0; i < name.size() && i < kMax; ++i) {
    const auto c = static_cast<unsigned char>(name[i]);
    if (c < 32 || c >= 127 || c == '\'' || c == '\\') {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  if (name.size() > kMax) out += "...";
  return out + "'";
}

namespace {

// Field ids of the TFLite schema tables we read (vtable slot = 4 + 2 * id).
// A union takes two ids: its type tag, then the value.
namespace field {
constexpr int kModelVersion = 0, kModelOperatorCodes = 1, kModelSubgraphs = 2, kModelBuffers = 4;
constexpr int kCodeDeprecatedBuiltin = 0, kCodeBuiltin = 3;
constexpr int kSubgraphTensors = 0, kSubgraphInputs = 1, kSubgraphOutputs = 2, kSubgraphOperators = 3,
              kSubgraphName = 4;
constexpr int kTensorShape = 0, kTensorType = 1, kTensorBuffer = 2, kTensorName = 3, kTensorQuant = 4;
constexpr int kQuantScale = 2, kQuantZeroPoint = 3, kQuantDimension = 6;
constexpr int kOpOpcodeIndex = 0, kOpInputs = 1, kOpOutputs = 2, kOpOptionsType = 3, kOpOptions = 4;
constexpr int kBufferData = 0, kBufferOffset = 1, kBufferSize = 2;
// Conv2DOptions
constexpr int kConvPadding = 0, kConvStrideW = 1, kConvStrideH = 2, kConvActivation = 3, kConvDilationW = 4,
              kConvDilationH = 5;
// DepthwiseConv2DOptions
constexpr int kDwPadding = 0, kDwStrideW = 1, kDwStrideH = 2, kDwDepthMultiplier = 3, kDwActivation = 4,
              kDwDilationW = 5, kDwDilationH = 6;
// AddOptions
constexpr int kAddActivation = 0;
// Pool2DOptions
constexpr int kPoolPadding = 0, kPoolStrideW = 1, kPoolStrideH = 2, kPoolFilterW = 3, kPoolFilterH = 4,
              kPoolActivation = 5;
// FullyConnectedOptions
constexpr int kFcActivation = 0, kFcWeightsFormat = 1, kFcKeepNumDims = 2, kFcAsymmetricQuantizeInputs = 3;
// SoftmaxOptions
constexpr int kSoftmaxBeta = 0;
}  // namespace field

// BuiltinOptions union tags.
constexpr uint8_t kOptConv2D = 1, kOptDepthwiseConv2D = 2, kOptPool2D = 5, kOptFullyConnected = 8, kOptSoftmax = 9,
                  kOptAdd = 11;

constexpr fb::voffset_t slot(int id) { return static_cast<fb::voffset_t>(4 + 2 * id); }

// Checks each piece with the flatbuffers Verifier before reading it; every
// failure throws one line naming the file, the field path and the offset.
class Walker {
 public:
  Walker(const uint8_t* data, std::size_t size, const std::string& name)
      : data_(data), size_(size), name_(name), v_(data, size, options()) {}

  [[noreturn]] void fail(const std::string& what) const { throw InputError(name_ + ": " + what); }
  // "<path>: <what> at byte offset N <rest> the S-byte file (truncated or corrupted)"
  [[noreturn]] void fail_at(const std::string& path, const std::string& what, std::size_t at,
                            const std::string& rest) const {
    fail(path + ": " + what + " at byte offset " + std::to_string(at) + " " + rest + " the " + std::to_string(size_) +
         "-byte file (truncated or corrupted)");
  }
  // Where field `id` of a verified table sits (the table itself when absent).
  std::size_t field_pos(const fb::Table* t, int id) const { return offset(t) + t->GetOptionalFieldOffset(slot(id)); }
  std::size_t offset(const void* p) const { return static_cast<std::size_t>(static_cast<const uint8_t*>(p) - data_); }

  const fb::Table* root() {
    if (size_ < 8)
      fail("truncated: " + std::to_string(size_) +
           " bytes, a .tflite flatbuffer needs at least 8 (root offset and file identifier)");
    if (std::memcmp(data_ + 4, "TFL3", 4) != 0) {
      std::string got;
      for (int i = 4; i < 8; ++i) {
        const char c = static_cast<char>(data_[i]);
        got += (c >= 32 && c < 127) ? std::string(1, c) : "\\x" + hex(data_[i]);
      }
      fail("wrong file identifier \"" + got + "\" at byte offset 4, expected \"TFL3\" (not a TFLite model)");
    }
    const fb::uoffset_t root = fb::ReadScalar<fb::uoffset_t>(data_);
    if (root < 8 || root > size_ - 4)
      fail("root table offset " + std::to_string(root) + " at byte offset 0 points " +
           (root < 8 ? std::string("into the 8-byte header") : "outside the " + std::to_string(size_) + "-byte file") +
           " (truncated or corrupted)");
    const auto* t = reinterpret_cast<const fb::Table*>(data_ + root);
    start(t, "model");
    return t;
  }

  void start(const fb::Table* t, const std::string& path) {
    if (!t->VerifyTableStart(v_))
      fail_at(path, "table (or its vtable)", offset(t), "is misaligned, nests too deep or lies outside");
  }
  void end() { v_.EndTable(); }

  template <class T>
  T scalar(const fb::Table* t, int id, T def, const std::string& path) {
    if (!t->VerifyField<T>(v_, slot(id), sizeof(T)))
      fail_at(path, "field", field_pos(t, id), "is misaligned or lies outside");
    return t->GetField<T>(slot(id), def);
  }

  // Vector of scalars copied out with memcpy (no alignment assumption beyond
  // the verifier's); nullptr data = field absent.
  template <class T>
  std::vector<T> scalars(const fb::Table* t, int id, const std::string& path,
                         const fb::Vector<uint8_t>** raw_out = nullptr) {
    const auto* vec = vector<T>(t, id, path);
    std::vector<T> out;
    if (vec == nullptr) return out;
    out.resize(vec->size());
    if (!out.empty()) std::memcpy(out.data(), vec->Data(), out.size() * sizeof(T));
    if (raw_out) *raw_out = reinterpret_cast<const fb::Vector<uint8_t>*>(vec);
    return out;
  }

  template <class T>
  const fb::Vector<T>* vector(const fb::Table* t, int id, const std::string& path) {
    if (!t->VerifyOffset(v_, slot(id))) fail_at(path, "offset", field_pos(t, id), "points outside");
    const auto* vec = t->GetPointer<const fb::Vector<T>*>(slot(id));
    if (vec != nullptr && !v_.VerifyVector(vec)) {
      std::string len;
      if (offset(vec) + 4 <= size_) {  // memcpy: the failure may be a misaligned vector
        fb::uoffset_t n = 0;
        std::memcpy(&n, vec, sizeof n);
        len = " of " + std::to_string(n) + " elements";
      }
      fail_at(path, "vector" + len, offset(vec), "is misaligned or runs past the end of");
    }
    return vec;
  }

  // Optional sub-table (nullptr when absent); the caller calls end() after.
  const fb::Table* table(const fb::Table* t, int id, const std::string& path) {
    if (!t->VerifyOffset(v_, slot(id))) fail_at(path, "offset", field_pos(t, id), "points outside");
    const auto* sub = t->GetPointer<const fb::Table*>(slot(id));
    if (sub != nullptr) start(sub, path);
    return sub;
  }

  std::string string(const fb::Table* t, int id, const std::string& path) {
    if (!t->VerifyOffset(v_, slot(id))) fail_at(path, "offset", field_pos(t, id), "points outside");
    const auto* s = t->GetPointer<const fb::String*>(slot(id));
    if (s == nullptr) return {};
    if (!v_.VerifyString(s)) fail_at(path, "string", offset(s), "lacks its terminator or runs past the end of");
    return std::string(s->c_str(), s->size());
  }

  // Element i of a verified vector of tables, verified as a table.
  const fb::Table* element(const fb::Vector<fb::Offset<fb::Table>>* vec, fb::uoffset_t i, const std::string& path) {
    const uint8_t* slot_p = vec->Data() + std::size_t{i} * sizeof(fb::uoffset_t);
    const fb::uoffset_t rel = fb::ReadScalar<fb::uoffset_t>(slot_p);
    if (rel == 0 || rel > size_ - offset(slot_p))
      fail_at(path, "table offset " + std::to_string(rel), offset(slot_p), "points outside");
    const auto* t = reinterpret_cast<const fb::Table*>(slot_p + rel);
    start(t, path);
    return t;
  }

 private:
  static fb::Verifier::Options options() {
    fb::Verifier::Options o;
    o.max_depth = 64;
    o.max_tables = 1000000;
    o.check_alignment = true;
    return o;
  }
  static std::string hex(uint8_t b) {
    const char* d = "0123456789abcdef";
    return std::string{d[b >> 4], d[b & 15]};
  }

  const uint8_t* data_;
  std::size_t size_;
  std::string name_;
  fb::Verifier v_;
};

using TableVec = fb::Vector<fb::Offset<fb::Table>>;

// An options table's fused_activation_function, field `id`.
FusedActivation read_activation(Walker& w, const fb::Table* t, int id, const std::string& path) {
  const int8_t v = w.scalar<int8_t>(t, id, 0, path + ".fused_activation_function");
  if (v < 0 || v > 5) w.fail(path + ".fused_activation_function: unknown value " + std::to_string(v));
  return static_cast<FusedActivation>(v);
}
PaddingType padding(int8_t v, Walker& w, const std::string& path) {
  if (v != 0 && v != 1)
    w.fail(path + ".padding: unknown value " + std::to_string(v) + ", expected SAME (0) or VALID (1)");
  return static_cast<PaddingType>(v);
}

// The padding and strides every windowed operator's options start with.
template <class O>
void read_window(Walker& w, const fb::Table* t, int padding_id, int stride_w_id, int stride_h_id,
                 const std::string& p, O& o) {
  o.padding = padding(w.scalar<int8_t>(t, padding_id, 0, p + ".padding"), w, p);
  o.stride_w = w.scalar<int32_t>(t, stride_w_id, 0, p + ".stride_w");
  o.stride_h = w.scalar<int32_t>(t, stride_h_id, 0, p + ".stride_h");
}

// The field ids both convolutions' options have (Conv2DOptions, DepthwiseConv2DOptions).
struct ConvFields {
  int padding, stride_w, stride_h, activation, dilation_w, dilation_h;
};
constexpr ConvFields kConvFields{field::kConvPadding,    field::kConvStrideW,   field::kConvStrideH,
                                 field::kConvActivation, field::kConvDilationW, field::kConvDilationH};
constexpr ConvFields kDwFields{field::kDwPadding,    field::kDwStrideW,   field::kDwStrideH,
                               field::kDwActivation, field::kDwDilationW, field::kDwDilationH};

// A convolution's options, its fields read in the schema's order (the
// depthwise one's depth_multiplier after the strides).
template <class O>
O read_conv_options(Walker& w, const fb::Table* t, const ConvFields& f, const std::string& p) {
  O o;
  read_window(w, t, f.padding, f.stride_w, f.stride_h, p, o);
  if constexpr (std::is_same_v<O, DepthwiseConv2DOptions>) {
    o.depth_multiplier = w.scalar<int32_t>(t, field::kDwDepthMultiplier, 0, p + ".depth_multiplier");
  }
  o.activation = read_activation(w, t, f.activation, p);
  o.dilation_w = w.scalar<int32_t>(t, f.dilation_w, 1, p + ".dilation_w_factor");
  o.dilation_h = w.scalar<int32_t>(t, f.dilation_h, 1, p + ".dilation_h_factor");
  return o;
}

BuiltinOptions read_options(Walker& w, const fb::Table* op, uint8_t type, const std::string& path) {
  if (type != kOptConv2D && type != kOptDepthwiseConv2D && type != kOptAdd && type != kOptPool2D &&
      type != kOptFullyConnected && type != kOptSoftmax) {
    return std::monostate{};
  }
  const std::string p = path + ".builtin_options";
  const fb::Table* t = w.table(op, field::kOpOptions, p);
  if (t == nullptr) w.fail(p + ": union tag " + std::to_string(type) + " set but the options table is missing");
  BuiltinOptions out;
  if (type == kOptConv2D) {
    out = read_conv_options<Conv2DOptions>(w, t, kConvFields, p);
  } else if (type == kOptDepthwiseConv2D) {
    out = read_conv_options<DepthwiseConv2DOptions>(w, t, kDwFields, p);
  } else if (type == kOptPool2D) {
    Pool2DOptions o;
    read_window(w, t, field::kPoolPadding, field::kPoolStrideW, field::kPoolStrideH, p, o);
    o.filter_width = w.scalar<int32_t>(t, field::kPoolFilterW, 0, p + ".filter_width");
    o.filter_height = w.scalar<int32_t>(t, field::kPoolFilterH, 0, p + ".filter_height");
    o.activation = read_activation(w, t, field::kPoolActivation, p);
    out = o;
  } else if (type == kOptFullyConnected) {
    FullyConnectedOptions o;
    o.activation = read_activation(w, t, field::kFcActivation, p);
    o.weights_format = w.scalar<int8_t>(t, field::kFcWeightsFormat, 0, p + ".weights_format");
    o.keep_num_dims = w.scalar<uint8_t>(t, field::kFcKeepNumDims, 0, p + ".keep_num_dims") != 0;
    o.asymmetric_quantize_inputs =
        w.scalar<uint8_t>(t, field::kFcAsymmetricQuantizeInputs, 0, p + ".asymmetric_quantize_inputs") != 0;
    out = o;
  } else if (type == kOptSoftmax) {
    SoftmaxOptions o;
    o.beta = w.scalar<float>(t, field::kSoftmaxBeta, 1.0f, p + ".beta");
    out = o;
  } else {
    AddOptions o;
    o.activation = read_activation(w, t, field::kAddActivation, p);
    out = o;
  }
  w.end();
  return out;
}

TensorInfo read_tensor(Walker& w, const fb::Table* t, const std::string& path) {
  TensorInfo ti;
  ti.shape = w.scalars<int32_t>(t, field::kTensorShape, path + ".shape");
  ti.type = w.scalar<int8_t>(t, field::kTensorType, 0, path + ".type");
  ti.buffer = w.scalar<uint32_t>(t, field::kTensorBuffer, 0, path + ".buffer");
  ti.name = w.string(t, field::kTensorName, path + ".name");
  if (const fb::Table* q = w.table(t, field::kTensorQuant, path + ".quantization")) {
    const std::string qp = path + ".quantization";
    ti.quant.scale = w.scalars<float>(q, field::kQuantScale, qp + ".scale");
    ti.quant.zero_point = w.scalars<int64_t>(q, field::kQuantZeroPoint, qp + ".zero_point");
    ti.quant.quantized_dimension = w.scalar<int32_t>(q, field::kQuantDimension, 0, qp + ".quantized_dimension");
    w.end();
  }
  return ti;
}

Operator read_operator(Walker& w, const fb::Table* t, const std::string& path) {
  Operator op;
  op.opcode_index = w.scalar<uint32_t>(t, field::kOpOpcodeIndex, 0, path + ".opcode_index");
  op.inputs = w.scalars<int32_t>(t, field::kOpInputs, path + ".inputs");
  op.outputs = w.scalars<int32_t>(t, field::kOpOutputs, path + ".outputs");
  op.options_type = w.scalar<uint8_t>(t, field::kOpOptionsType, 0, path + ".builtin_options_type");
  op.options = read_options(w, t, op.options_type, path);
  return op;
}

// Index checks once everything is read (the counts are known by then).
void check_indices(const Model& m, Walker& w) {
  for (std::size_t s = 0; s < m.subgraphs.size(); ++s) {
    const SubGraph& sg = m.subgraphs[s];
    const std::string sp = "subgraphs[" + std::to_string(s) + "]";
    const auto ntensors = static_cast<int64_t>(sg.tensors.size());
    auto check_tensor_index = [&](int32_t idx, const std::string& where, bool optional) {
      if (optional && idx == -1) return;
      if (idx < 0 || idx >= ntensors)
        w.fail(where + ": tensor index " + std::to_string(idx) + " out of range (subgraph has " +
               std::to_string(ntensors) + " tensors)");
    };
    for (std::size_t i = 0; i < sg.inputs.size(); ++i)
      check_tensor_index(sg.inputs[i], sp + ".inputs[" + std::to_string(i) + "]", false);
    for (std::size_t i = 0; i < sg.outputs.size(); ++i)
      check_tensor_index(sg.outputs[i], sp + ".outputs[" + std::to_string(i) + "]", false);
    for (std::size_t t = 0; t < sg.tensors.size(); ++t) {
      const TensorInfo& ti = sg.tensors[t];
      const std::string tp = sp + ".tensors[" + std::to_string(t) + "]";
      if (ti.buffer >= m.buffers.size())
        w.fail(tp + " (" + quoted(ti.name) + "): buffer index " + std::to_string(ti.buffer) +
               " out of range (model has " + std::to_string(m.buffers.size()) + " buffers)");
      for (std::size_t d = 0; d < ti.shape.size(); ++d)
        if (ti.shape[d] < 0)
          w.fail(tp + " (" + quoted(ti.name) + "): shape[" + std::to_string(d) + "] = " + std::to_string(ti.shape[d]) +
                 " is negative");
      // Every tensor any operator of the reference may allocate is bounded
      // here, once, before anything of that size exists.
      int64_t elements = 1;
      for (int32_t d : ti.shape) {
        elements *= std::max<int64_t>(d, 1);
        if (elements > kMaxTensorElements)
          w.fail(tp + " (" + quoted(ti.name) + "): shape " + shape_str(ti.shape) + " has more than " +
                 std::to_string(kMaxTensorElements) + " elements (the limit of one tensor)");
      }
      const Quantization& q = ti.quant;
      if (!q.zero_point.empty() && q.zero_point.size() != q.scale.size())
        w.fail(tp + " (" + quoted(ti.name) + "): quantization has " + std::to_string(q.scale.size()) + " scales but " +
               std::to_string(q.zero_point.size()) + " zero points");
      if (q.scale.size() > 1 &&
          (q.quantized_dimension < 0 || static_cast<std::size_t>(q.quantized_dimension) >= ti.shape.size() ||
           ti.shape[static_cast<std::size_t>(q.quantized_dimension)] != static_cast<int32_t>(q.scale.size())))
        w.fail(tp + " (" + quoted(ti.name) + "): " + std::to_string(q.scale.size()) +
               " per-channel scales do not match quantized_dimension " + std::to_string(q.quantized_dimension) +
               " of a rank-" + std::to_string(ti.shape.size()) + " shape");
    }
    for (std::size_t o = 0; o < sg.operators.size(); ++o) {
      const Operator& op = sg.operators[o];
      const std::string op_path = sp + ".operators[" + std::to_string(o) + "]";
      if (op.opcode_index >= m.operator_codes.size())
        w.fail(op_path + ": opcode_index " + std::to_string(op.opcode_index) + " out of range (model has " +
               std::to_string(m.operator_codes.size()) + " operator codes)");
      for (std::size_t i = 0; i < op.inputs.size(); ++i)
        check_tensor_index(op.inputs[i], op_path + ".inputs[" + std::to_string(i) + "]", true);
      for (std::size_t i = 0; i < op.outputs.size(); ++i)
        check_tensor_index(op.outputs[i], op_path + ".outputs[" + std::to_string(i) + "]", false);
    }
  }
}

// The tables of vector field `id` of `parent` (none when absent), each read
// by `read` with its path "<path>[i]", then closed.
template <class T>
std::vector<T> read_tables(Walker& w, const fb::Table* parent, int id, const std::string& path,
                           T (*read)(Walker&, const fb::Table*, const std::string&)) {
  std::vector<T> out;
  if (const auto* tables = w.vector<fb::Offset<fb::Table>>(parent, id, path)) {
    out.reserve(tables->size());
    for (fb::uoffset_t i = 0; i < tables->size(); ++i) {
      const std::string p = path + "[" + std::to_string(i) + "]";
      out.push_back(read(w, w.element(tables, i, p), p));
      w.end();
    }
  }
  return out;
}

}  // namespace

Model parse_model(const uint8_t* data, std::size_t size, const std::string& name) {
  if (size >= FLATBUFFERS_MAX_BUFFER_SIZE)
    throw InputError(name + ": " + std::to_string(size) + " bytes is larger than a flatbuffer can be (2 GiB)");
  Walker w(data, size, name);
  Model m;
  m.path = name;
  const fb::Table* root = w.root();
  m.version = w.scalar<uint32_t>(root, field::kModelVersion, 0, "model.version");

  if (const auto* codes = w.vector<fb::Offset<fb::Table>>(root, field::kModelOperatorCodes, "model.operator_codes")) {
    for (fb::uoffset_t i = 0; i < codes->size(); ++i) {
      const std::string p = "operator_codes[" + std::to_string(i) + "]";
      const fb::Table* c = w.element(codes, i, p);
      const int32_t deprecated = w.scalar<int8_t>(c, field::kCodeDeprecatedBuiltin, 0, p + ".deprecated_builtin_code");
      const int32_t builtin = w.scalar<int32_t>(c, field::kCodeBuiltin, 0, p + ".builtin_code");
      const int32_t code = std::max(deprecated, builtin);
      if (code < 0) w.fail(p + ": negative builtin code " + std::to_string(code));
      m.operator_codes.push_back(code);
      w.end();
    }
  }

  if (const auto* bufs = w.vector<fb::Offset<fb::Table>>(root, field::kModelBuffers, "model.buffers")) {
    m.buffers.reserve(bufs->size());
    for (fb::uoffset_t i = 0; i < bufs->size(); ++i) {
      const std::string p = "buffers[" + std::to_string(i) + "]";
      const fb::Table* b = w.element(bufs, i, p);
      m.buffers.push_back(w.scalars<uint8_t>(b, field::kBufferData, p + ".data"));
      const uint64_t ext_offset = w.scalar<uint64_t>(b, field::kBufferOffset, 0, p + ".offset");
      const uint64_t ext_size = w.scalar<uint64_t>(b, field::kBufferSize, 0, p + ".size");
      if (ext_offset != 0 || ext_size != 0)
        w.fail(p + ": data stored outside the flatbuffer (offset " + std::to_string(ext_offset) + ", size " +
               std::to_string(ext_size) + ") is not supported");
      w.end();
    }
  }

  const auto* sgs = w.vector<fb::Offset<fb::Table>>(root, field::kModelSubgraphs, "model.subgraphs");
  if (sgs == nullptr || sgs->size() == 0) w.fail("model has no subgraphs");
  for (fb::uoffset_t s = 0; s < sgs->size(); ++s) {
    const std::string sp = "subgraphs[" + std::to_string(s) + "]";
    const fb::Table* g = w.element(sgs, s, sp);
    SubGraph sg;
    sg.tensors = read_tables(w, g, field::kSubgraphTensors, sp + ".tensors", read_tensor);
    sg.inputs = w.scalars<int32_t>(g, field::kSubgraphInputs, sp + ".inputs");
    const fb::Vector<uint8_t>* outputs_raw = nullptr;
    sg.outputs = w.scalars<int32_t>(g, field::kSubgraphOutputs, sp + ".outputs", &outputs_raw);
    if (outputs_raw != nullptr) sg.outputs_file_offset = w.offset(outputs_raw->Data());
    sg.operators = read_tables(w, g, field::kSubgraphOperators, sp + ".operators", read_operator);
    sg.name = w.string(g, field::kSubgraphName, sp + ".name");
    w.end();
    m.subgraphs.push_back(std::move(sg));
  }
  w.end();

  check_indices(m, w);
  for (SubGraph& sg : m.subgraphs)
    for (Operator& op : sg.operators) op.code = m.operator_codes[op.opcode_index];
  return m;
}

Model load_model(const std::string& path) {
  // FlatBuffers address at most 2 GiB - 1; a larger file is refused before it
  // is read, and only a regular file is read (a folder, a device or a FIFO is
  // bad input).
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw InputError(path + ": cannot open the .tflite file");
  if (S_ISREG(st.st_mode) && static_cast<uint64_t>(st.st_size) > FLATBUFFERS_MAX_BUFFER_SIZE)
    throw InputError(path + ": file of " + std::to_string(st.st_size) +
                     " bytes is larger than the FlatBuffers limit of " + std::to_string(FLATBUFFERS_MAX_BUFFER_SIZE) +
                     " bytes");
  const std::vector<uint8_t> bytes = read_regular_file_bytes(path, FLATBUFFERS_MAX_BUFFER_SIZE, "a .tflite model");
  return parse_model(bytes.data(), bytes.size(), path);
}

DType to_dtype(int8_t type, const std::string& context) {
  switch (static_cast<TensorType>(type)) {
    case TensorType::kInt8:
      return DType::kInt8;
    case TensorType::kInt16:
      return DType::kInt16;
    case TensorType::kInt32:
      return DType::kInt32;
    case TensorType::kFloat32:
      return DType::kFp32;
    default:
      throw InputError(context + ": tensor type " + tensor_type_name(type) +
                       " is not supported (INT8, INT16, INT32 or FLOAT32)");
  }
}

Tensor constant_tensor(const Model& model, std::size_t sg, int32_t index) {
  if (sg >= model.subgraphs.size()) throw InputError(model.path + ": subgraph " + std::to_string(sg) + " out of range");
  const SubGraph& g = model.subgraphs[sg];
  if (index < 0 || static_cast<std::size_t>(index) >= g.tensors.size())
    throw InputError(model.path + ": tensor index " + std::to_string(index) + " out of range (subgraph has " +
                     std::to_string(g.tensors.size()) + " tensors)");
  const TensorInfo& ti = g.tensors[static_cast<std::size_t>(index)];
  const std::string ctx = model.path + ": tensor " + std::to_string(index) + " (" + quoted(ti.name) + ")";
  const DType dt = to_dtype(ti.type, ctx);
  const std::vector<uint8_t>& data = model.buffers.at(ti.buffer);
  if (ti.buffer == 0 || data.empty())
    throw InputError(ctx + ": has no constant data (buffer " + std::to_string(ti.buffer) + " is empty)");
  std::vector<int64_t> shape(ti.shape.begin(), ti.shape.end());
  uint64_t n = 1;
  for (int64_t d : shape) {
    n *= static_cast<uint64_t>(d);
    if (n > data.size()) break;  // keeps the product from overflowing
  }
  if (n * dtype_size(dt) != data.size())
    throw InputError(ctx + ": buffer " + std::to_string(ti.buffer) + " holds " + std::to_string(data.size()) +
                     " bytes, shape needs " + std::to_string(n) + " x " + std::to_string(dtype_size(dt)));
  Tensor t(dt, shape);
  std::memcpy(t.bytes().data(), data.data(), data.size());
  return t;
}

}  // namespace cosim::tflite
