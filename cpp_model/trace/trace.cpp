#include "trace/trace.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iterator>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <unordered_map>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "common/parse_number.hpp"
#include "common/text.hpp"

namespace fs = std::filesystem;

namespace cosim::trace {

namespace {

// A register name token: letters, digits, '_' and '.' (CTRL, ap_ctrl.done).
bool is_reg_name(const std::string& t) {
  if (t.empty()) return false;
  for (char c : t) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.')) return false;
  }
  return true;
}

// One line of trace.txt being parsed; fail() names file:line.
struct LineParser {
  std::string file;
  int line;
  std::vector<std::string> tok;

  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(file + ":" + std::to_string(line) + ": " + what);
  }
  void arity(std::size_t n, const char* usage) const {
    if (tok.size() != n) {
      fail("'" + tok[0] + "' expects " + std::to_string(n - 1) + " argument(s): " + usage + ", got " +
           std::to_string(tok.size() - 1));
    }
  }
  uint64_t number(std::size_t i, const char* what, uint64_t max = UINT64_MAX) const {
    const std::string& t = tok[i];
    const std::optional<uint64_t> v = parse_unsigned(t, max);
    if (!v) fail(std::string("expected ") + what + " (decimal or 0x hex, at most " + hex(max) + "), got '" + t + "'");
    return *v;
  }
  // A cycle budget in [1, kMaxCycleBudget]: the scenario's timeout_cycles
  // bound, so a huge value is bad input rather than an overflow to 0 cycles.
  uint64_t cycle_budget(std::size_t i) const {
    const uint64_t v = number(i, "cycle budget");
    if (v == 0) fail("expected a cycle budget > 0, got 0");
    if (v > kMaxCycleBudget) {
      fail("expected a cycle budget in [1, " + std::to_string(kMaxCycleBudget) + "], got '" + tok[i] + "'");
    }
    return v;
  }
  std::string name(std::size_t i, const char* what) const {
    const std::string& t = tok[i];
    bool ok = !t.empty();
    for (char c : t) ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.');
    if (!ok) fail(std::string("expected ") + what + " ([A-Za-z0-9_.-]+), got '" + t + "'");
    return t;
  }
  std::string reg_name(std::size_t i) const {
    const std::string& t = tok[i];
    if (!is_reg_name(t)) fail("expected register name ([A-Za-z0-9_.]+), got '" + one_line(t) + "'");
    return t;
  }
  // A blob path inside the trace directory: relative, no "..".
  std::string blob_path(std::size_t i) const { return blob_path(tok[i]); }
  std::string blob_path(const std::string& t) const {
    const fs::path p(t);
    bool ok = !t.empty() && p.is_relative();
    for (const auto& part : p) ok = ok && part != "..";
    // No control characters: a NUL would cut the name the file is opened by.
    for (char c : t) ok = ok && static_cast<unsigned char>(c) >= 0x20 && c != 0x7f;
    if (!ok) fail("expected a blob path relative to the trace directory, got '" + one_line(t) + "'");
    return t;
  }
  [[noreturn]] void too_large(const std::string& dtype, const std::string& shape) const {
    fail("tensor " + dtype + " [" + shape + "] is larger than the limit of " + std::to_string(kMaxBlobBytes) +
         " bytes");
  }
  // ADDR + bytes must not wrap around the 64-bit address space.
  void no_wrap(uint64_t addr, uint64_t bytes) const {
    if (bytes != 0 && addr > UINT64_MAX - (bytes - 1)) {
      fail("address " + hex(addr) + " + " + std::to_string(bytes) + " bytes wraps past the end of the address space");
    }
  }
  TensorDesc tensor(std::size_t i) const {  // DTYPE SHAPE LAYOUT NAME
    TensorDesc d;
    bool ok = false;
    d.dtype = parse_dtype(tok[i], &ok);
    if (!ok) fail("expected dtype int8|int16|int32|bf16|fp32|uint8|uint16|uint32, got '" + tok[i] + "'");
    std::stringstream ss(tok[i + 1]);
    std::string dim;
    while (std::getline(ss, dim, ',')) {
      bool digits = !dim.empty() && dim.size() < 12;
      for (char c : dim) digits = digits && std::isdigit(static_cast<unsigned char>(c));
      if (!digits || std::stoll(dim) <= 0) {
        fail("expected shape as comma-separated positive integers (e.g. 1,8,8,16), got '" + tok[i + 1] + "'");
      }
      d.shape.push_back(std::stoll(dim));
    }
    if (d.shape.empty() || tok[i + 1].back() == ',') {
      fail("expected shape as comma-separated positive integers (e.g. 1,8,8,16), got '" + tok[i + 1] + "'");
    }
    // Bytes of the tensor, overflow-safe, before the layout adds padding.
    uint64_t bytes = dtype_size(d.dtype);
    for (int64_t dim : d.shape) {
      if (static_cast<uint64_t>(dim) > kMaxBlobBytes / bytes) too_large(tok[i], tok[i + 1]);
      bytes *= static_cast<uint64_t>(dim);
    }
    d.layout = parse_layout(tok[i + 2], &ok);
    const std::string& lt = tok[i + 2];
    const std::string pitch_tag = "nhwc_pitch";
    if (!ok && lt.size() > pitch_tag.size() && lt.size() <= pitch_tag.size() + 10 &&
        lt.compare(0, pitch_tag.size(), pitch_tag) == 0) {
      // nhwc_pitch<P>: NHWC tensor whose rows start P bytes apart (P in 1..kMaxBlobBytes).
      const std::string pv = lt.substr(pitch_tag.size());
      bool digits = true;
      for (char c : pv) digits = digits && std::isdigit(static_cast<unsigned char>(c));
      if (digits && std::stoull(pv) >= 1 && std::stoull(pv) <= kMaxBlobBytes) {
        d.layout = Layout::kNHWC;
        d.row_pitch = std::stoull(pv);
        ok = true;
      }
    }
    if (!ok && lt.size() > 5 && lt.compare(0, 4, "nchw") == 0 && lt.back() == 'c' && lt.size() <= 9) {
      // nchw<B>c: NHWC tensor stored in channel blocks of B (B in 1..4096).
      const std::string b = lt.substr(4, lt.size() - 5);
      bool digits = !b.empty();
      for (char c : b) digits = digits && std::isdigit(static_cast<unsigned char>(c));
      if (digits && std::stoi(b) >= 1 && std::stoi(b) <= 4096) {
        d.layout = Layout::kNHWC;
        d.channel_block = std::stoi(b);
        ok = true;
      }
    }
    if (!ok) fail("expected layout any|nhwc|nchw|nchw<B>c|nhwc_pitch<P>, got '" + tok[i + 2] + "'");
    if (d.layout != Layout::kAny && d.shape.size() != 4) {
      fail("layout " + tok[i + 2] + " needs a 4-D shape, got " + std::to_string(d.shape.size()) + "-D");
    }
    if (d.channel_block > 0) {  // [N][ceil(C/B)][H][W][B]: every factor <= kMaxBlobBytes
      const uint64_t b = static_cast<uint64_t>(d.channel_block);
      const uint64_t c = (static_cast<uint64_t>(d.shape[3]) + b - 1) / b * b;
      uint64_t span = dtype_size(d.dtype);
      for (uint64_t f : {static_cast<uint64_t>(d.shape[0]), static_cast<uint64_t>(d.shape[1]),
                         static_cast<uint64_t>(d.shape[2]), c}) {
        if (f > kMaxBlobBytes / span) too_large(tok[i], tok[i + 1] + " in " + tok[i + 2]);
        span *= f;
      }
    }
    if (d.row_pitch > 0) {  // rows of W*C elements, P bytes apart: (N*H - 1)*P + row bytes
      const uint64_t row = dtype_size(d.dtype) * static_cast<uint64_t>(d.shape[2]) * static_cast<uint64_t>(d.shape[3]);
      if (d.row_pitch < row) {
        fail("row pitch " + std::to_string(d.row_pitch) + " of " + tok[i + 2] + " is smaller than a row of [" +
             tok[i + 1] + "] (" + std::to_string(row) + " bytes)");
      }
      // N*H and P are each at most kMaxBlobBytes (2^30): no overflow.
      const uint64_t rows = static_cast<uint64_t>(d.shape[0]) * static_cast<uint64_t>(d.shape[1]);
      if ((rows - 1) * d.row_pitch + row > kMaxBlobBytes) too_large(tok[i], tok[i + 1] + " in " + tok[i + 2]);
    }
    d.name = name(i + 3, "tensor name");
    return d;
  }
};

std::vector<std::string> split_ws(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream is(s);
  std::string t;
  while (is >> t) out.push_back(t);
  return out;
}

std::string blob_name(std::size_t index, const std::string& hint) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%03zu_", index);
  std::string clean;
  // At most 40 characters of the hint: the name must fit a file system's
  // limit whatever path the blob had when the trace was read.
  for (char c : hint.substr(0, 40)) clean += (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-') ? c : '_';
  return std::string("blobs/") + buf + clean + ".bin";
}

bool is_token(const std::string& t) {
  if (t.empty()) return false;
  for (char c : t) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.')) return false;
  }
  return true;
}

// A trace the reader would reject is a bug in the compiler that built it.
void require_token(const std::string& t, const char* what) {
  if (!is_token(t)) throw std::invalid_argument(std::string("write_trace: ") + what + " '" + t + "' is not [A-Za-z0-9_.-]+");
}

}  // namespace

int64_t TensorDesc::numel() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

std::size_t TensorDesc::nbytes() const { return static_cast<std::size_t>(numel()) * dtype_size(dtype); }

std::size_t TensorDesc::memory_bytes() const {
  if (row_pitch > 0 && shape.size() == 4) {
    const uint64_t rows = static_cast<uint64_t>(shape[0] * shape[1]);
    const uint64_t row = static_cast<uint64_t>(shape[2] * shape[3]) * dtype_size(dtype);
    return static_cast<std::size_t>((rows - 1) * row_pitch + row);
  }
  if (channel_block <= 0 || shape.size() != 4) return nbytes();
  const int64_t blocks = (shape[3] + channel_block - 1) / channel_block;
  return static_cast<std::size_t>(shape[0] * blocks * shape[1] * shape[2] * channel_block) * dtype_size(dtype);
}

uint64_t TensorDesc::memory_offset(int64_t flat) const {
  const uint64_t esize = dtype_size(dtype);
  if (row_pitch > 0 && shape.size() == 4) {
    const int64_t row = shape[2] * shape[3];
    return static_cast<uint64_t>(flat / row) * row_pitch + static_cast<uint64_t>(flat % row) * esize;
  }
  if (channel_block <= 0 || shape.size() != 4) return static_cast<uint64_t>(flat) * esize;
  const int64_t C = shape[3], W = shape[2], H = shape[1], B = channel_block;
  const int64_t c = flat % C, w = flat / C % W, h = flat / (C * W) % H, n = flat / (C * W * H);
  const int64_t blocks = (C + B - 1) / B;
  return static_cast<uint64_t>((((n * blocks + c / B) * H + h) * W + w) * B + c % B) * esize;
}

const char* op_name(Op op) {
  switch (op) {
    case Op::kMemLoad: return "mem_load";
    case Op::kRegWrite: return "reg_write";
    case Op::kStreamSend: return "stream_send";
    case Op::kWaitDone: return "wait_done";
    case Op::kMemCheck: return "mem_check";
    case Op::kStreamCheck: return "stream_check";
    case Op::kMemDump: return "mem_dump";
    case Op::kRegCheck: return "reg_check";
    case Op::kRegPoll: return "reg_poll";
    case Op::kWaitIrq: return "wait_irq";
  }
  return "?";
}

DType parse_dtype(const std::string& text, bool* ok) {
  *ok = true;
  for (DType d : kDTypes) {
    if (text == dtype_name(d)) return d;
  }
  *ok = false;
  return DType::kInt8;
}

Layout parse_layout(const std::string& text, bool* ok) {
  *ok = true;
  if (text == "any") return Layout::kAny;
  if (text == "nhwc") return Layout::kNHWC;
  if (text == "nchw") return Layout::kNCHW;
  *ok = false;
  return Layout::kAny;
}

const char* layout_name(Layout layout) {
  switch (layout) {
    case Layout::kAny: return "any";
    case Layout::kNHWC: return "nhwc";
    case Layout::kNCHW: return "nchw";
  }
  return "any";
}

std::string shape_string(const std::vector<int64_t>& shape) {
  std::string s;
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
  return s;
}

std::vector<uint8_t> read_file_bytes(const std::string& path, uint64_t max_bytes) {
  return read_regular_file_bytes(path, max_bytes);
}

void write_file_bytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  write_file_atomic(path, bytes.data(), bytes.size());
}

// ---- builders ----

namespace {
// A step that carries bytes, saved as `file` when the trace is written.
Step data_step(Op op, std::vector<uint8_t> bytes, const std::string& file) {
  Step s;
  s.op = op;
  s.data = std::move(bytes);
  s.file = file;
  return s;
}

// A step at `addr` with `value`: a register write's offset and value, a
// wait's (done, an interrupt) or a poll's cycle budget.
Step value_step(Op op, uint64_t addr, uint64_t value) {
  Step s;
  s.op = op;
  s.addr = addr;
  s.value = value;
  return s;
}

// A step that compares (register & mask) with expected; `value` as for value_step.
Step reg_compare_step(Op op, uint32_t offset, uint64_t value, uint32_t expected, uint32_t mask,
                      const std::string& name) {
  Step s = value_step(op, offset, value);
  s.expected = expected;
  s.mask = mask;
  s.reg_name = name;
  return s;
}
}  // namespace

void Trace::mem_load(uint64_t addr, std::vector<uint8_t> bytes, const std::string& name) {
  Step s = data_step(Op::kMemLoad, std::move(bytes), name);
  s.addr = addr;
  steps.push_back(std::move(s));
}

void Trace::reg_write(uint64_t offset, uint32_t value) { steps.push_back(value_step(Op::kRegWrite, offset, value)); }

void Trace::stream_send(const std::string& stream, std::vector<uint8_t> bytes) {
  Step s = data_step(Op::kStreamSend, std::move(bytes), stream);
  s.stream = stream;
  steps.push_back(std::move(s));
}

void Trace::wait_done(uint64_t max_cycles) { steps.push_back(value_step(Op::kWaitDone, 0, max_cycles)); }

void Trace::reg_check(uint32_t offset, uint32_t expected, uint32_t mask, const std::string& name) {
  steps.push_back(reg_compare_step(Op::kRegCheck, offset, 0, expected, mask, name));
}

void Trace::reg_poll(uint32_t offset, uint32_t expected, uint32_t mask, uint64_t max_cycles, const std::string& name) {
  steps.push_back(reg_compare_step(Op::kRegPoll, offset, max_cycles, expected, mask, name));
}

void Trace::wait_irq(uint64_t max_cycles) { steps.push_back(value_step(Op::kWaitIrq, 0, max_cycles)); }

namespace {
Step check_step(Op op, const Tensor& expected, const std::string& name) {
  Step s;
  s.op = op;
  s.data = expected.bytes();
  s.tensor.name = name;
  s.tensor.dtype = expected.dtype();
  s.tensor.shape = expected.shape();
  s.tensor.layout = expected.layout();
  s.file = name;
  return s;
}
}  // namespace

void Trace::mem_check(uint64_t addr, const Tensor& expected, const std::string& name, int channel_block) {
  Step s = check_step(Op::kMemCheck, expected, name);
  s.addr = addr;
  if (channel_block > 0) {
    if (expected.rank() != 4 || expected.layout() != Layout::kNHWC) {
      throw std::invalid_argument("Trace::mem_check: a channel-blocked check needs a 4-D NHWC tensor");
    }
    s.tensor.channel_block = channel_block;
  }
  steps.push_back(std::move(s));
}

void Trace::mem_check_rows(uint64_t addr, const Tensor& expected, const std::string& name, uint64_t row_pitch) {
  if (expected.rank() != 4 || expected.layout() != Layout::kNHWC) {
    throw std::invalid_argument("Trace::mem_check_rows: a row-pitched check needs a 4-D NHWC tensor");
  }
  const uint64_t row = static_cast<uint64_t>(expected.shape()[2] * expected.shape()[3]) * dtype_size(expected.dtype());
  if (row_pitch < row) {
    throw std::invalid_argument("Trace::mem_check_rows: row pitch " + std::to_string(row_pitch) +
                                " is smaller than a row of " + std::to_string(row) + " bytes");
  }
  Step s = check_step(Op::kMemCheck, expected, name);
  s.addr = addr;
  if (row_pitch > row) s.tensor.row_pitch = row_pitch;  // else the rows are adjacent: dense
  steps.push_back(std::move(s));
}

void Trace::stream_check(const std::string& stream, const Tensor& expected, const std::string& name,
                         uint64_t packet_bytes) {
  Step s = check_step(Op::kStreamCheck, expected, name);
  s.stream = stream;
  if (packet_bytes > 0 && expected.nbytes() % packet_bytes != 0) {
    throw InputError("stream_check '" + name + "': " + std::to_string(expected.nbytes()) +
                     " bytes are no whole number of packets of " + std::to_string(packet_bytes));
  }
  s.value = packet_bytes;
  steps.push_back(std::move(s));
}

void Trace::mem_dump(uint64_t addr, uint64_t length, const std::string& file) {
  Step s;
  s.op = Op::kMemDump;
  s.addr = addr;
  s.value = length;
  s.file = file;
  steps.push_back(std::move(s));
}

Tensor Trace::expected_tensor(const Step& check) {
  Tensor t(check.tensor.dtype, check.tensor.shape, check.tensor.layout);
  if (t.nbytes() != check.data.size()) {
    throw InputError("check '" + check.tensor.name + "': " + std::to_string(check.data.size()) +
                     " expected bytes for shape " + shape_string(check.tensor.shape));
  }
  t.bytes() = check.data;
  return t;
}

// ---- writer ----

namespace {

// Where write_trace puts each step's bytes: a file of its own
// (blobs/NNN_HINT.bin), or, packed, a range of a pack file
// (blobs/NNN_pack.bin@OFFSET:LENGTH) where identical bytes are stored once.
class BlobWriter {
 public:
  BlobWriter(std::string dir, bool packed) : dir_(std::move(dir)), packed_(packed) {}

  // The reference trace.txt gives step `index`'s bytes.
  std::string put(std::size_t index, const Step& s) {
    if (!packed_) {
      const std::string blob = blob_name(index, s.file.empty() ? op_name(s.op) : s.file);
      write_file_bytes((fs::path(dir_) / blob).string(), s.data);
      return blob;
    }
    // Keyed by a view of the step's own bytes: the trace outlives the writer.
    const std::string_view bytes(reinterpret_cast<const char*>(s.data.data()), s.data.size());
    if (const auto it = stored_.find(bytes); it != stored_.end()) return it->second;
    if (!pack_.empty() && pack_.size() + s.data.size() > kPackBytes) flush();
    if (pack_name_.empty()) pack_name_ = blob_name(packs_++, "pack");
    const std::string ref = pack_name_ + "@" + std::to_string(pack_.size()) + ":" + std::to_string(s.data.size());
    pack_.insert(pack_.end(), s.data.begin(), s.data.end());
    stored_.emplace(bytes, ref);
    return ref;
  }
  void finish() { flush(); }

 private:
  static constexpr std::size_t kPackBytes = std::size_t{64} << 20;
  void flush() {
    if (pack_name_.empty()) return;
    write_file_bytes((fs::path(dir_) / pack_name_).string(), pack_);
    pack_.clear();
    pack_name_.clear();
  }

  std::string dir_;
  bool packed_;
  std::vector<uint8_t> pack_;
  std::string pack_name_;
  std::size_t packs_ = 0;
  std::unordered_map<std::string_view, std::string> stored_;  // bytes -> their range
};

}  // namespace

void write_trace(const Trace& trace, const std::string& dir) {
  std::error_code ec;
  fs::create_directories(fs::path(dir) / "blobs", ec);
  if (ec) throw_for_errno(dir + ": cannot create trace directory", ec.value());
  if (!trace.target.empty()) require_token(trace.target, "target");
  for (const auto& [k, v] : trace.config) {
    require_token(k, "config key");
    require_token(v, "config value");
  }
  for (const Step& s : trace.steps) {
    if (s.op == Op::kStreamSend || s.op == Op::kStreamCheck) require_token(s.stream, "stream name");
    if (s.op == Op::kMemCheck || s.op == Op::kStreamCheck) require_token(s.tensor.name, "tensor name");
    if (s.op == Op::kMemDump) require_token(s.file, "dump file name");
    if ((s.op == Op::kRegCheck || s.op == Op::kRegPoll) && !is_reg_name(s.reg_name)) {
      throw std::invalid_argument("write_trace: register name '" + s.reg_name + "' is not [A-Za-z0-9_.]+");
    }
    if ((s.op == Op::kRegCheck || s.op == Op::kRegPoll) && s.mask == 0) {
      throw std::invalid_argument(std::string("write_trace: ") + op_name(s.op) + " of '" + s.reg_name +
                                  "' with a mask of 0 (compares nothing)");
    }
    if ((s.op == Op::kRegPoll || s.op == Op::kWaitIrq) && s.value == 0) {
      throw std::invalid_argument(std::string("write_trace: ") + op_name(s.op) + " with a cycle budget of 0");
    }
  }
  const auto carries_blob = [](const Step& s) {
    return s.op == Op::kMemLoad || s.op == Op::kStreamSend || s.op == Op::kMemCheck || s.op == Op::kStreamCheck;
  };
  const bool packed =
      static_cast<std::size_t>(std::count_if(trace.steps.begin(), trace.steps.end(), carries_blob)) > kPackAbove;
  std::ostringstream out;
  out << "# cosim trace: one step per line; see cpp_model/trace/README.md\n";
  out << "cosim-trace " << (packed ? kFormatVersion : kOldestFormatVersion) << "\n";
  if (!trace.target.empty()) out << "target " << trace.target << "\n";
  for (const auto& [k, v] : trace.config) out << "config " << k << " " << v << "\n";
  BlobWriter blobs(dir, packed);
  std::size_t index = 0;
  for (const Step& s : trace.steps) {
    const std::size_t step_index = index++;
    const auto blob_of = [&] { return blobs.put(step_index, s); };
    switch (s.op) {
      case Op::kMemLoad:
        out << "mem_load " << hex(s.addr) << " " << blob_of() << "\n";
        break;
      case Op::kRegWrite:
        out << "reg_write " << hex(s.addr) << " " << hex(s.value) << "\n";
        break;
      case Op::kStreamSend:
        out << "stream_send " << s.stream << " " << blob_of() << "\n";
        break;
      case Op::kWaitDone:
        out << "wait_done " << s.value << "\n";
        break;
      case Op::kMemCheck:
      case Op::kStreamCheck:
        out << op_name(s.op) << " " << (s.op == Op::kMemCheck ? hex(s.addr) : s.stream) << " " << blob_of() << " "
            << dtype_name(s.tensor.dtype) << " " << shape_string(s.tensor.shape) << " "
            << (s.tensor.channel_block > 0 ? "nchw" + std::to_string(s.tensor.channel_block) + "c"
                : s.tensor.row_pitch > 0   ? "nhwc_pitch" + std::to_string(s.tensor.row_pitch)
                                           : std::string(layout_name(s.tensor.layout)))
            << " " << s.tensor.name;
        if (s.op == Op::kStreamCheck && s.value > 0) out << " packets=" << s.value;  // TLAST every that many bytes
        out << "\n";
        break;
      case Op::kMemDump:
        out << "mem_dump " << hex(s.addr) << " " << s.value << " " << s.file << "\n";
        break;
      case Op::kRegCheck:
        out << "reg_check " << hex(s.addr) << " " << hex(s.expected) << " " << hex(s.mask) << " " << s.reg_name
            << "\n";
        break;
      case Op::kRegPoll:
        out << "reg_poll " << hex(s.addr) << " " << hex(s.expected) << " " << hex(s.mask) << " " << s.value << " "
            << s.reg_name << "\n";
        break;
      case Op::kWaitIrq:
        out << "wait_irq " << s.value << "\n";
        break;
    }
  }
  blobs.finish();
  const std::string text = out.str();
  write_file_bytes((fs::path(dir) / "trace.txt").string(), std::vector<uint8_t>(text.begin(), text.end()));
  if (!trace.scenario.empty()) {
    write_file_bytes((fs::path(dir) / kScenarioFile).string(),
                     std::vector<uint8_t>(trace.scenario.begin(), trace.scenario.end()));
  }
}

namespace {

// A name write_trace gives a blob (blob_name without "blobs/").
bool is_blob_file_name(const std::string& name) {
  std::size_t i = 0;
  while (i < name.size() && std::isdigit(static_cast<unsigned char>(name[i]))) ++i;
  if (i < 3 || i >= name.size() || name[i] != '_') return false;
  const std::size_t hint = i + 1;
  if (name.size() < hint + 4 || name.compare(name.size() - 4, 4, ".bin") != 0) return false;
  const std::size_t len = name.size() - 4 - hint;
  if (len > 40) return false;
  for (std::size_t k = hint; k < hint + len; ++k) {
    const char c = name[k];
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-')) return false;
  }
  return true;
}

// trace.txt as write_trace writes it: its first line that is not blank or a
// comment starts with "cosim-trace". Reads at most the first 64 KiB.
bool is_trace_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::string head(64 * 1024, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  std::istringstream lines(head);
  std::string line;
  while (std::getline(lines, line)) {
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    std::istringstream words(line);
    std::string first;
    if (!(words >> first)) continue;
    return first == "cosim-trace";
  }
  return false;
}

}  // namespace

std::vector<std::string> clear_trace_dir(const std::string& dir) {
  const fs::path d(dir);
  std::error_code ec;
  const fs::file_status st = fs::status(d, ec);
  if (!fs::exists(st)) return {};
  const std::string keep = "; it is not something cosim wrote, so it is left alone: move it away or choose another --out";
  if (!fs::is_directory(st)) throw InputError(dir + ": not a folder" + keep);
  std::vector<fs::path> ours;
  const fs::path text = d / "trace.txt";
  const fs::file_status text_st = fs::symlink_status(text, ec);
  if (fs::exists(text_st)) {
    if (!fs::is_regular_file(text_st) || !is_trace_text(text)) {
      throw InputError(text.string() + ": not a cosim trace (no 'cosim-trace' header)" + keep);
    }
    ours.push_back(text);
  }
  const fs::path blobs = d / "blobs";
  const fs::file_status blobs_st = fs::symlink_status(blobs, ec);
  if (fs::exists(blobs_st) && !fs::is_directory(blobs_st)) {
    throw InputError(blobs.string() + ": not a folder (a file or a link)" + keep);
  }
  std::vector<std::string> foreign;
  for (fs::recursive_directory_iterator it(d, fs::directory_options::skip_permission_denied, ec), end; !ec && it != end;
       it.increment(ec)) {
    const fs::path p = it->path();
    const fs::file_status s = it->symlink_status(ec);
    if (ec) break;
    if (fs::is_directory(s)) continue;
    if (p == text) continue;
    if (p == d / kScenarioFile && fs::is_regular_file(s)) {
      ours.push_back(p);
      continue;
    }
    if (p.parent_path() == blobs && is_blob_file_name(p.filename().string())) {
      if (!fs::is_regular_file(s)) throw InputError(p.string() + ": not a regular file where a trace writes a blob" + keep);
      ours.push_back(p);
      continue;
    }
    foreign.push_back(p.lexically_relative(d).generic_string());
  }
  if (ec) throw InputError(dir + ": cannot list the folder: " + ec.message());
  for (const fs::path& p : ours) {
    if (!fs::remove(p, ec) && ec) throw InputError(p.string() + ": cannot remove: " + ec.message());
  }
  std::sort(foreign.begin(), foreign.end());
  return foreign;
}

// ---- reader ----

namespace {

const std::string kHeaderUsage = "'cosim-trace " + std::to_string(kOldestFormatVersion) + "' .. 'cosim-trace " +
                                 std::to_string(kFormatVersion) + "'";

// The header line: "cosim-trace VERSION" of a format this reader knows; the version.
int parse_header(const LineParser& p) {
  const std::string& kw = p.tok[0];
  if (kw != "cosim-trace") p.fail("expected the header " + kHeaderUsage + ", got '" + kw + "'");
  p.arity(2, "VERSION");
  const uint64_t v = p.number(1, "format version");
  if (v < kOldestFormatVersion || v > kFormatVersion) {
    p.fail("unsupported format version " + p.tok[1] + ", expected " + std::to_string(kOldestFormatVersion) + " to " +
           std::to_string(kFormatVersion));
  }
  return static_cast<int>(v);
}

// "OFFSET:LENGTH" of a blob range, decimal; nullopt when malformed.
std::optional<std::pair<uint64_t, uint64_t>> parse_range(const std::string& t) {
  const std::size_t colon = t.find(':');
  if (colon == std::string::npos) return std::nullopt;
  const auto decimal = [](const std::string& d) -> std::optional<uint64_t> {
    if (d.empty() || d.size() > 19) return std::nullopt;  // 19 digits: below 2^64
    uint64_t v = 0;
    for (char c : d) {
      if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
      v = v * 10 + static_cast<uint64_t>(c - '0');
    }
    return v;
  };
  const auto off = decimal(t.substr(0, colon)), len = decimal(t.substr(colon + 1));
  if (!off || !len) return std::nullopt;
  return std::make_pair(*off, *len);
}

// `length` bytes of the regular file `path` from `offset` (the caller
// checked that they lie inside it); fewer when it shrank meanwhile.
std::vector<uint8_t> read_file_range(const std::string& path, uint64_t offset, uint64_t length) {
  std::ifstream in(path, std::ios::binary);
  std::vector<uint8_t> out(length);
  if (!in.seekg(static_cast<std::streamoff>(offset))) return {};
  in.read(reinterpret_cast<char*>(out.data()), static_cast<std::streamsize>(length));
  out.resize(static_cast<std::size_t>(in.gcount()));
  return out;
}

// Reads the blobs the steps name from the trace directory `dir`.
struct BlobReader {
  fs::path d;
  std::string dir;
  int version = kOldestFormatVersion;  // the header's

  // Token i of the line names the blob (a file, or from version 2 a range
  // FILE@OFFSET:LENGTH of one): into s.file and s.data. A check's blob must
  // hold exactly its tensor (`expected`), any other at most kMaxBlobBytes;
  // the sizes are checked before anything is read.
  void load(const LineParser& p, std::size_t i, const TensorDesc* expected, Step& s) const {
    s.file = p.tok[i];
    // Version 1 knew no ranges: an '@' there is part of the file's name.
    const std::size_t at = version >= 2 ? s.file.find('@') : std::string::npos;
    const std::string file = p.blob_path(s.file.substr(0, at));
    const fs::path blob = d / file;
    std::error_code ec;
    const bool regular = fs::is_regular_file(blob, ec);
    uintmax_t size = regular ? fs::file_size(blob, ec) : 0;
    if (!regular || ec) p.fail("blob '" + file + "' not found in " + dir + " (expected a regular file)");
    std::optional<std::pair<uint64_t, uint64_t>> range;
    if (at != std::string::npos) {
      range = parse_range(s.file.substr(at + 1));
      if (!range) p.fail("expected a blob range FILE@OFFSET:LENGTH (decimal), got '" + one_line(s.file) + "'");
      if (range->first > size || range->second > size - range->first) {
        p.fail("blob range '" + s.file + "' ends past the end of '" + file + "' (" + std::to_string(size) + " bytes)");
      }
      size = range->second;
    }
    if (expected != nullptr && size != expected->nbytes()) {
      p.fail("blob '" + s.file + "' has " + std::to_string(size) + " bytes, expected " +
             std::to_string(expected->nbytes()) + " (" + dtype_name(expected->dtype) + " [" +
             shape_string(expected->shape) + "])");
    }
    if (size > kMaxBlobBytes) {
      p.fail("blob '" + s.file + "' has " + std::to_string(size) + " bytes, more than the limit of " +
             std::to_string(kMaxBlobBytes));
    }
    s.data = range ? read_file_range(blob.string(), range->first, range->second)
                   : read_regular_file_bytes(blob.string(), std::min<uint64_t>(size, kMaxBlobBytes));
    if (s.data.size() != size) p.fail("blob '" + s.file + "': changed while read");
  }
};

// The lines that are not steps: "target NAME" and "config KEY VALUE".
// Returns false for any other line.
bool parse_setting(const LineParser& p, Trace& t) {
  const std::string& kw = p.tok[0];
  if (kw == "target") {
    p.arity(2, "NAME");
    t.target = p.name(1, "target name");
    return true;
  }
  if (kw == "config") {
    p.arity(3, "KEY VALUE");
    t.config[p.name(1, "config key")] = p.name(2, "config value");
    return true;
  }
  return false;
}

// mem_load ADDR BLOB, stream_send STREAM BLOB: bytes into the DUT.
void parse_send(const LineParser& p, const BlobReader& blobs, Step& s) {
  p.arity(3, p.tok[0] == "mem_load" ? "ADDR BLOB" : "STREAM BLOB");
  if (p.tok[0] == "mem_load") {
    s.op = Op::kMemLoad;
    s.addr = p.number(1, "memory address");
    blobs.load(p, 2, nullptr, s);
    p.no_wrap(s.addr, s.data.size());
  } else {
    s.op = Op::kStreamSend;
    s.stream = p.name(1, "stream name");
    blobs.load(p, 2, nullptr, s);
  }
}

// reg_write OFFSET VALUE, reg_check OFFSET EXPECTED MASK NAME,
// reg_poll OFFSET EXPECTED MASK MAX_CYCLES NAME.
void parse_register_step(const LineParser& p, Step& s) {
  if (p.tok[0] == "reg_write") {
    p.arity(3, "OFFSET VALUE");
    s.op = Op::kRegWrite;
    s.addr = p.number(1, "register offset", 0xffffffffull);
    s.value = p.number(2, "32-bit register value", 0xffffffffull);
    return;
  }
  const bool poll = p.tok[0] == "reg_poll";
  p.arity(poll ? 6 : 5, poll ? "OFFSET EXPECTED MASK MAX_CYCLES NAME" : "OFFSET EXPECTED MASK NAME");
  s.op = poll ? Op::kRegPoll : Op::kRegCheck;
  s.addr = p.number(1, "register offset", 0xffffffffull);
  s.expected = static_cast<uint32_t>(p.number(2, "32-bit expected value", 0xffffffffull));
  s.mask = static_cast<uint32_t>(p.number(3, "32-bit mask", 0xffffffffull));
  // A mask of 0 compares nothing: a check that cannot fail, a poll that cannot wait.
  if (s.mask == 0) p.fail("expected a mask with at least one bit set, got '" + p.tok[3] + "'");
  if (poll) {
    s.value = p.cycle_budget(4);
  }
  s.reg_name = p.reg_name(poll ? 5 : 4);
}

// mem_check ADDR BLOB DTYPE SHAPE LAYOUT NAME,
// stream_check STREAM BLOB DTYPE SHAPE LAYOUT NAME [packets=BYTES] (TLAST after every BYTES bytes).
void parse_check(const LineParser& p, const BlobReader& blobs, Step& s) {
  const bool mem = p.tok[0] == "mem_check";
  if (!mem && p.tok.size() == 8) {
    const std::string& t = p.tok[7];
    const std::optional<uint64_t> v = t.rfind("packets=", 0) == 0 ? parse_unsigned(t.substr(8), kMaxBlobBytes)
                                                                 : std::nullopt;
    if (!v || *v == 0) p.fail("expected packets=BYTES (the bytes of each packet, TLAST on its last), got '" + t + "'");
    s.value = *v;
  } else {
    p.arity(7, mem ? "ADDR BLOB DTYPE SHAPE LAYOUT NAME" : "STREAM BLOB DTYPE SHAPE LAYOUT NAME [packets=BYTES]");
  }
  if (mem) {
    s.op = Op::kMemCheck;
    s.addr = p.number(1, "memory address");
  } else {
    s.op = Op::kStreamCheck;
    s.stream = p.name(1, "stream name");
  }
  s.tensor = p.tensor(3);
  if (s.op == Op::kStreamCheck && s.tensor.strided()) {
    p.fail("a channel-blocked or row-pitched layout needs mem_check");
  }
  if (s.op == Op::kMemCheck) p.no_wrap(s.addr, s.tensor.memory_bytes());
  blobs.load(p, 2, &s.tensor, s);
  if (s.value > 0 && s.data.size() % s.value != 0) {
    p.fail("packets=" + std::to_string(s.value) + ": the check's " + std::to_string(s.data.size()) +
           " bytes are no whole number of packets");
  }
}

// One step line (the header and the settings are not steps).
Step parse_step(const LineParser& p, const BlobReader& blobs) {
  const std::string& kw = p.tok[0];
  Step s;
  s.line = p.line;
  if (kw == "mem_load" || kw == "stream_send") {
    parse_send(p, blobs, s);
  } else if (kw == "reg_write" || kw == "reg_check" || kw == "reg_poll") {
    parse_register_step(p, s);
  } else if (kw == "wait_done" || kw == "wait_irq") {
    p.arity(2, "MAX_CYCLES");
    s.op = kw == "wait_done" ? Op::kWaitDone : Op::kWaitIrq;
    s.value = p.cycle_budget(1);
  } else if (kw == "mem_check" || kw == "stream_check") {
    parse_check(p, blobs, s);
  } else if (kw == "mem_dump") {
    p.arity(4, "ADDR LENGTH FILE");
    s.op = Op::kMemDump;
    s.addr = p.number(1, "memory address");
    s.value = p.number(2, "length in bytes", kMaxBlobBytes);
    p.no_wrap(s.addr, s.value);
    s.file = p.name(3, "output file name");
  } else {
    p.fail("unknown step '" + kw +
           "', expected target|config|mem_load|reg_write|stream_send|wait_done|mem_check|stream_check|mem_dump|"
           "reg_check|reg_poll|wait_irq");
  }
  return s;
}

}  // namespace

Trace read_trace(const std::string& dir) {
  const fs::path d(dir);
  if (!fs::is_directory(d)) throw InputError(dir + ": not a trace directory");
  const std::string path = (d / "trace.txt").string();
  std::error_code exists_ec;
  if (!fs::exists(fs::symlink_status(path, exists_ec))) {
    throw InputError(dir + ": no trace.txt (not a trace directory, nor a raw program any target recognises)");
  }
  // A regular file, read whole under a cap (a FIFO or a device there is bad input).
  std::istringstream in(read_regular_file_text(path, kMaxTraceTextBytes));
  BlobReader blobs{d, dir};
  Trace t;
  std::string text;
  int line_no = 0;
  bool header = false;
  while (std::getline(in, text)) {
    ++line_no;
    const auto hash = text.find('#');
    if (hash != std::string::npos) text.resize(hash);
    const LineParser p{path, line_no, split_ws(text)};
    if (p.tok.empty()) continue;
    if (!header) {
      blobs.version = parse_header(p);
      header = true;
    } else if (!parse_setting(p, t)) {
      t.steps.push_back(parse_step(p, blobs));
    }
  }
  if (!header) throw InputError(path + ":1: expected the header " + kHeaderUsage + ", file is empty");
  if (t.target.empty()) throw InputError(path + ": no 'target NAME' line; expected one naming the DUT (e.g. target vta)");
  const fs::path scenario = d / kScenarioFile;
  if (fs::exists(fs::symlink_status(scenario, exists_ec))) t.scenario = read_regular_file_text(scenario.string(), kMaxTraceTextBytes);
  return t;
}

}  // namespace cosim::trace
