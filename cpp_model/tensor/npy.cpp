// .npy reader and writer (NumPy format 1.0 / 2.0 / 3.0), little-endian C order.
//
// dtype mapping: '<i1' / '|i1' int8, '<i2' int16, '<i4' int32, '<f4' fp32,
// '|u1' uint8, '<u4' uint32, and '<u2' bfloat16: NumPy has no bf16 type, so
// bf16 tensors travel as their raw 16-bit patterns in an unsigned 16-bit
// array (a uint16 tensor is written so too, and read back as bf16 bits). Every problem is reported as
// one line "<path>: <problem>" in a cosim::InputError.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <sys/stat.h>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "tensor/tensor.hpp"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "npy.cpp assumes a little-endian host"
#endif

namespace cosim {
namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr std::size_t kMagicLen = 6;

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw InputError(path + ": " + what);
}

// Printable form of untrusted text for an error message (one line, bounded).
std::string printable(const std::string& s) {
  std::string out;
  for (char c : s.substr(0, 40)) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f) {
      out += c;
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", u);
      out += buf;
    }
  }
  if (s.size() > 40) out += "...";
  return out;
}

std::string shape_str(const std::vector<int64_t>& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1) s += ",";
  return s + ")";
}

// A tiny parser for the Python dict literal NumPy writes, e.g.
// {'descr': '<i2', 'fortran_order': False, 'shape': (2, 3), }
class HeaderParser {
 public:
  HeaderParser(const std::string& path, const std::string& text) : path_(path), s_(text) {}

  void parse(std::string& descr, bool& fortran, std::vector<int64_t>& shape) {
    bool have_descr = false, have_fortran = false, have_shape = false;
    skip_ws();
    expect('{');
    for (;;) {
      skip_ws();
      if (peek() == '}') {
        ++i_;
        break;
      }
      const std::string key = parse_string();
      skip_ws();
      expect(':');
      skip_ws();
      if (key == "descr") {
        descr = parse_string();
        have_descr = true;
      } else if (key == "fortran_order") {
        fortran = parse_bool();
        have_fortran = true;
      } else if (key == "shape") {
        shape = parse_shape();
        have_shape = true;
      } else {
        bad("unknown key '" + printable(key) + "'");
      }
      skip_ws();
      if (peek() == ',') {
        ++i_;
      } else if (peek() == '}') {
        ++i_;
        break;
      } else {
        bad("expected ',' or '}' at header offset " + std::to_string(i_));
      }
    }
    skip_ws();
    if (i_ != s_.size()) bad("unexpected text after the dict at header offset " + std::to_string(i_));
    if (!have_descr) bad("missing key 'descr'");
    if (!have_fortran) bad("missing key 'fortran_order'");
    if (!have_shape) bad("missing key 'shape'");
  }

 private:
  [[noreturn]] void bad(const std::string& what) { fail(path_, "bad header dict: " + what); }
  char peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
  void skip_ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
  }
  void expect(char c) {
    if (peek() != c) bad(std::string("expected '") + c + "' at header offset " + std::to_string(i_));
    ++i_;
  }
  std::string parse_string() {
    const char q = peek();
    if (q != '\'' && q != '"') bad("expected a quoted string at header offset " + std::to_string(i_));
    ++i_;
    const std::size_t start = i_;
    while (i_ < s_.size() && s_[i_] != q) ++i_;
    if (i_ >= s_.size()) bad("unterminated string");
    return s_.substr(start, i_++ - start);
  }
  bool parse_bool() {
    if (s_.compare(i_, 4, "True") == 0) {
      i_ += 4;
      return true;
    }
    if (s_.compare(i_, 5, "False") == 0) {
      i_ += 5;
      return false;
    }
    bad("fortran_order is not True or False");
  }
  std::vector<int64_t> parse_shape() {
    std::vector<int64_t> shape;
    expect('(');
    for (;;) {
      skip_ws();
      if (peek() == ')') {
        ++i_;
        return shape;
      }
      if (peek() < '0' || peek() > '9') bad("shape entry is not a non-negative integer");
      int64_t v = 0;
      while (peek() >= '0' && peek() <= '9') {
        if (v > (std::numeric_limits<int64_t>::max() - 9) / 10) bad("shape entry too large");
        v = v * 10 + (peek() - '0');
        ++i_;
      }
      if (peek() == 'L') ++i_;  // Python 2 long suffix
      shape.push_back(v);
      if (shape.size() > 32) bad("more than 32 dimensions");
      skip_ws();
      if (peek() == ',') {
        ++i_;
      } else if (peek() != ')') {
        bad("expected ',' or ')' in shape");
      }
    }
  }

  const std::string& path_;
  const std::string& s_;
  std::size_t i_ = 0;
};

DType dtype_from_descr(const std::string& path, const std::string& descr) {
  if (descr == "<i1" || descr == "|i1") return DType::kInt8;
  if (descr == "<i2") return DType::kInt16;
  if (descr == "<i4") return DType::kInt32;
  if (descr == "<f4") return DType::kFp32;
  if (descr == "<u1" || descr == "|u1") return DType::kUint8;
  if (descr == "<u2") return DType::kBf16;
  if (descr == "<u4") return DType::kUint32;
  if (descr == "<i8") return DType::kInt64;
  if (descr == "<u8") return DType::kUint64;
  if (!descr.empty() && descr[0] == '>')
    fail(path, "big-endian dtype '" + printable(descr) + "' is not supported (little-endian only)");
  fail(path, "unsupported dtype '" + printable(descr) +
                 "' (expected '<i1', '|i1', '<i2', '<i4', '<i8', '<f4', '|u1', '<u2' (uint16 or bf16), '<u4' or '<u8')");
}

const char* descr_of(DType dtype) {
  switch (dtype) {
    case DType::kInt8: return "|i1";
    case DType::kInt16: return "<i2";
    case DType::kInt32: return "<i4";
    case DType::kBf16: return "<u2";
    case DType::kFp32: return "<f4";
    case DType::kUint8: return "|u1";
    case DType::kUint16: return "<u2";
    case DType::kUint32: return "<u4";
    case DType::kInt64: return "<i8";
    case DType::kUint64: return "<u8";
  }
  return "?";
}

}  // namespace

Tensor read_npy(const std::string& path) {
  // Only a regular file, its size checked before a byte is read (a device
  // or a FIFO is bad input, not an endless read).
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) fail(path, "cannot open file (missing or unreadable)");
  if (S_ISREG(st.st_mode) && static_cast<uint64_t>(st.st_size) > kMaxNpyBytes)
    fail(path, "file of " + std::to_string(st.st_size) + " bytes is larger than the limit of " +
                   std::to_string(kMaxNpyBytes) + " bytes");
  const std::string buf = read_regular_file_text(path, kMaxNpyBytes);
  const std::size_t n = buf.size();
  if (n == 0) fail(path, "empty file (0 bytes), expected a .npy array");
  if (n > 0 && std::memcmp(buf.data(), kMagic, std::min(n, kMagicLen)) != 0)
    fail(path, "wrong magic (not a .npy file)");
  if (n < kMagicLen + 2) fail(path, "truncated header (" + std::to_string(n) + " bytes)");
  const int major = static_cast<unsigned char>(buf[6]);
  const int minor = static_cast<unsigned char>(buf[7]);
  if (!((major == 1 || major == 2 || major == 3) && minor == 0))
    fail(path, "unsupported .npy version " + std::to_string(major) + "." + std::to_string(minor) +
                   " (expected 1.0, 2.0 or 3.0)");
  const std::size_t len_bytes = major == 1 ? 2 : 4;
  const std::size_t prelude = kMagicLen + 2 + len_bytes;
  if (n < prelude) fail(path, "truncated header (" + std::to_string(n) + " bytes)");
  uint64_t hlen = 0;
  for (std::size_t i = 0; i < len_bytes; ++i)
    hlen |= static_cast<uint64_t>(static_cast<unsigned char>(buf[8 + i])) << (8 * i);
  if (hlen > n - prelude)
    fail(path, "truncated header (header length " + std::to_string(hlen) + " but only " +
                   std::to_string(n - prelude) + " bytes follow)");
  const std::string header(buf.data() + prelude, static_cast<std::size_t>(hlen));

  std::string descr;
  bool fortran = false;
  std::vector<int64_t> shape;
  HeaderParser(path, header).parse(descr, fortran, shape);
  const DType dtype = dtype_from_descr(path, descr);
  if (fortran) fail(path, "fortran_order True is not supported (C order only)");

  // Bytes of the shape with its zero dimensions left out, overflow-safe and
  // at most kMaxNpyBytes: an empty array may not hide an absurd shape either
  // (the tensor's own element count walks the dimensions in order).
  const uint64_t item = dtype_size(dtype);
  uint64_t span = item;
  bool empty = false;
  for (int64_t d : shape) {
    const uint64_t ud = static_cast<uint64_t>(d);
    if (ud == 0) {
      empty = true;
      continue;
    }
    if (span > kMaxNpyBytes / ud)
      fail(path, "shape " + shape_str(shape) + " of '" + descr + "' is too large (more than " +
                     std::to_string(kMaxNpyBytes) + " bytes, zero dimensions aside)");
    span *= ud;
  }
  const uint64_t expected = empty ? 0 : span;
  const uint64_t have = n - prelude - hlen;
  if (have < expected)
    fail(path, "truncated data: shape " + shape_str(shape) + " of '" + descr + "' needs " +
                   std::to_string(expected) + " bytes, found " + std::to_string(have));
  if (have > expected)
    fail(path, "shape " + shape_str(shape) + " of '" + descr + "' needs " + std::to_string(expected) +
                   " bytes but " + std::to_string(have) + " follow the header (extra bytes)");

  Tensor t(dtype, shape);
  if (expected) std::memcpy(t.bytes().data(), buf.data() + prelude + hlen, static_cast<std::size_t>(expected));
  return t;
}

void write_npy(const std::string& path, const Tensor& tensor) {
  std::string header = std::string("{'descr': '") + descr_of(tensor.dtype()) +
                       "', 'fortran_order': False, 'shape': " + shape_str(tensor.shape()) + ", }";
  // Pad with spaces so the data starts on a 64-byte boundary; header ends in '\n'.
  std::size_t prelude = kMagicLen + 2 + 2;
  int major = 1;
  if (header.size() + 1 + 64 > 65535) {
    major = 2;
    prelude = kMagicLen + 2 + 4;
  }
  const std::size_t total = (prelude + header.size() + 1 + 63) / 64 * 64;
  header.append(total - prelude - header.size() - 1, ' ');
  header += '\n';

  std::string out(kMagic, kMagicLen);
  out += static_cast<char>(major);
  out += '\0';
  const uint32_t hlen = static_cast<uint32_t>(header.size());
  for (std::size_t i = 0; i < (major == 1 ? 2u : 4u); ++i) out += static_cast<char>((hlen >> (8 * i)) & 0xff);
  out += header;

  // Written whole under a temporary name and renamed (IoError on a full disk).
  out.append(reinterpret_cast<const char*>(tensor.bytes().data()), tensor.nbytes());
  write_file_atomic(path, out);
}

}  // namespace cosim
