// .npy reader/writer: round trips, hand-written files of each version, and one
// hand-written malformed file per error, each checked for a one-line
// cosim::InputError that names the file.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "tensor/tensor.hpp"

namespace {

using cosim::DType;
using cosim::InputError;
using cosim::Tensor;
using Bytes = std::vector<unsigned char>;

std::string temp_path(const std::string& name) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return ::testing::TempDir() + "npy_" + info->name() + "_" + name;
}

void write_file(const std::string& path, const Bytes& b) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

Bytes read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return Bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

// A .npy file byte by byte: magic, version, little-endian header length
// (2 bytes for 1.0, 4 for 2.0/3.0), the header text as given, then data.
Bytes npy_bytes(int major, const std::string& header, const Bytes& data, int minor = 0) {
  Bytes b = {0x93, 'N', 'U', 'M', 'P', 'Y', static_cast<unsigned char>(major), static_cast<unsigned char>(minor)};
  const uint32_t n = static_cast<uint32_t>(header.size());
  b.push_back(n & 0xff);
  b.push_back((n >> 8) & 0xff);
  if (major != 1) {
    b.push_back((n >> 16) & 0xff);
    b.push_back((n >> 24) & 0xff);
  }
  b.insert(b.end(), header.begin(), header.end());
  b.insert(b.end(), data.begin(), data.end());
  return b;
}

std::string dict(const std::string& descr, const std::string& shape, const std::string& fortran = "False") {
  return "{'descr': '" + descr + "', 'fortran_order': " + fortran + ", 'shape': " + shape + ", }\n";
}

// Expects read_npy(path) to throw InputError whose single-line message names
// the file and contains `what`.
void expect_input_error(const std::string& path, const std::string& what) {
  try {
    cosim::read_npy(path);
    FAIL() << "no error for " << path;
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(path), std::string::npos) << msg;
    EXPECT_NE(msg.find(what), std::string::npos) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  }
}

TEST(Npy, RoundTripEveryDtype) {
  for (DType dt : cosim::kDTypes) {
    Tensor t(dt, {2, 3, 5});
    for (std::size_t i = 0; i < t.nbytes(); ++i) t.bytes()[i] = static_cast<uint8_t>(i * 37 + 11);
    const std::string path = temp_path(cosim::dtype_name(dt) + std::string(".npy"));
    cosim::write_npy(path, t);
    const Tensor back = cosim::read_npy(path);
    // uint16 and bf16 share '<u2' (NumPy has no bf16): read back, both are bf16 bits.
    EXPECT_EQ(back.dtype(), dt == DType::kUint16 ? DType::kBf16 : dt);
    EXPECT_EQ(back.shape(), t.shape());
    EXPECT_EQ(back.bytes(), t.bytes()) << cosim::dtype_name(dt);

    // The written header: version 1.0, 64-byte aligned data, '\n' terminated.
    const Bytes raw = read_file(path);
    ASSERT_GE(raw.size(), 10u);
    EXPECT_EQ(std::memcmp(raw.data(), "\x93NUMPY", 6), 0);
    EXPECT_EQ(raw[6], 1);
    EXPECT_EQ(raw[7], 0);
    const std::size_t hlen = raw[8] | (raw[9] << 8);
    EXPECT_EQ((10 + hlen) % 64, 0u);
    EXPECT_EQ(raw[10 + hlen - 1], '\n');
    EXPECT_EQ(raw.size(), 10 + hlen + t.nbytes());
  }
}

TEST(Npy, WrittenDescrStrings) {
  const std::pair<DType, const char*> cases[] = {{DType::kInt8, "'|i1'"}, {DType::kInt16, "'<i2'"},
                                                 {DType::kInt32, "'<i4'"}, {DType::kFp32, "'<f4'"},
                                                 {DType::kBf16, "'<u2'"},  {DType::kUint8, "'|u1'"},
                                                 {DType::kUint16, "'<u2'"}, {DType::kUint32, "'<u4'"},
                                                 {DType::kInt64, "'<i8'"},  {DType::kUint64, "'<u8'"}};
  for (const auto& [dt, descr] : cases) {
    const std::string path = temp_path(descr + 2);
    cosim::write_npy(path, Tensor(dt, {4}));
    const Bytes raw = read_file(path);
    const std::string text(raw.begin(), raw.end());
    EXPECT_NE(text.find(descr), std::string::npos) << descr;
    EXPECT_NE(text.find("'shape': (4,)"), std::string::npos);
  }
}

TEST(Npy, ReadsSixtyFourBitIntegers) {
  const std::string path = temp_path("i8.npy");
  write_file(path, npy_bytes(1, dict("<i8", "(2,)"), {0x01, 0, 0, 0, 0, 0, 0x20, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}));
  const Tensor t = cosim::read_npy(path);
  ASSERT_EQ(t.dtype(), DType::kInt64);
  EXPECT_EQ(t.data<int64_t>()[0], (int64_t{1} << 53) + 1);
  EXPECT_EQ(t.data<int64_t>()[1], -1);
  const std::string upath = temp_path("u8.npy");
  write_file(upath, npy_bytes(1, dict("<u8", "(1,)"), {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}));
  const Tensor u = cosim::read_npy(upath);
  ASSERT_EQ(u.dtype(), DType::kUint64);
  EXPECT_EQ(u.data<uint64_t>()[0], UINT64_MAX);
}

TEST(Npy, ScalarOneDimAndEmptyShapes) {
  for (const std::vector<int64_t>& shape : {std::vector<int64_t>{}, {7}, {0, 3}}) {
    Tensor t(DType::kInt16, shape);
    for (int64_t i = 0; i < t.numel(); ++i) t.data<int16_t>()[i] = static_cast<int16_t>(-1000 * i + 3);
    const std::string path = temp_path(std::to_string(shape.size()) + ".npy");
    cosim::write_npy(path, t);
    EXPECT_TRUE(cosim::read_npy(path) == t);
  }
}

TEST(Npy, ReadsHandWrittenVersion1) {
  // int16 [2,2] = {1, -2, 256, -32768}, little-endian.
  const Bytes data = {0x01, 0x00, 0xfe, 0xff, 0x00, 0x01, 0x00, 0x80};
  const std::string path = temp_path("v1.npy");
  write_file(path, npy_bytes(1, dict("<i2", "(2, 2)"), data));
  const Tensor t = cosim::read_npy(path);
  ASSERT_EQ(t.dtype(), DType::kInt16);
  ASSERT_EQ(t.shape(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(t.at<int16_t>({0, 0}), 1);
  EXPECT_EQ(t.at<int16_t>({0, 1}), -2);
  EXPECT_EQ(t.at<int16_t>({1, 0}), 256);
  EXPECT_EQ(t.at<int16_t>({1, 1}), -32768);
}

TEST(Npy, ReadsHandWrittenVersion2And3) {
  // int32 [3] = {1, -1, 0x12345678}.
  const Bytes data = {1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x78, 0x56, 0x34, 0x12};
  for (int major : {2, 3}) {
    const std::string path = temp_path("v" + std::to_string(major) + ".npy");
    // Double-quoted keys and no trailing comma are valid Python too.
    write_file(path, npy_bytes(major, "{\"descr\": \"<i4\", \"fortran_order\": False, \"shape\": (3,)}   \n", data));
    const Tensor t = cosim::read_npy(path);
    ASSERT_EQ(t.dtype(), DType::kInt32);
    ASSERT_EQ(t.shape(), (std::vector<int64_t>{3}));
    EXPECT_EQ(t.data<int32_t>()[0], 1);
    EXPECT_EQ(t.data<int32_t>()[1], -1);
    EXPECT_EQ(t.data<int32_t>()[2], 0x12345678);
  }
}

TEST(Npy, ReadsBothInt8DescrsFloatAndBf16) {
  for (const char* descr : {"<i1", "|i1"}) {
    const std::string path = temp_path(std::string(descr + 1) + ".npy");
    write_file(path, npy_bytes(1, dict(descr, "(3,)"), {0x80, 0x7f, 0xff}));
    const Tensor t = cosim::read_npy(path);
    ASSERT_EQ(t.dtype(), DType::kInt8);
    EXPECT_EQ(t.data<int8_t>()[0], -128);
    EXPECT_EQ(t.data<int8_t>()[1], 127);
    EXPECT_EQ(t.data<int8_t>()[2], -1);
  }
  const std::string f = temp_path("f4.npy");
  write_file(f, npy_bytes(1, dict("<f4", "(1,)"), {0x00, 0x00, 0xc0, 0x3f}));  // 1.5f
  EXPECT_EQ(cosim::read_npy(f).data<float>()[0], 1.5f);
  const std::string bf = temp_path("bf16.npy");
  write_file(bf, npy_bytes(1, dict("<u2", "(1,)"), {0x80, 0x3f}));  // bf16 1.0 = 0x3f80
  const Tensor b = cosim::read_npy(bf);
  ASSERT_EQ(b.dtype(), DType::kBf16);
  EXPECT_EQ(b.data<uint16_t>()[0], 0x3f80);
}

TEST(Npy, ReadsUnsignedBytesAndWords) {
  for (const char* descr : {"<u1", "|u1"}) {
    const std::string path = temp_path(std::string("u1") + descr[0] + ".npy");
    write_file(path, npy_bytes(1, dict(descr, "(3,)"), {0x80, 0x7f, 0xff}));
    const Tensor t = cosim::read_npy(path);
    ASSERT_EQ(t.dtype(), DType::kUint8);
    EXPECT_EQ(t.data<uint8_t>()[0], 128);
    EXPECT_EQ(t.data<uint8_t>()[1], 127);
    EXPECT_EQ(t.data<uint8_t>()[2], 255);
  }
  const std::string path = temp_path("u4.npy");
  write_file(path, npy_bytes(1, dict("<u4", "(2,)"), {0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x80}));
  const Tensor t = cosim::read_npy(path);
  ASSERT_EQ(t.dtype(), DType::kUint32);
  EXPECT_EQ(t.data<uint32_t>()[0], 4294967295u);
  EXPECT_EQ(t.data<uint32_t>()[1], 2147483648u);
}

TEST(NpyErrors, MissingFile) { expect_input_error(temp_path("does_not_exist.npy"), "cannot open"); }

TEST(NpyErrors, WrongMagic) {
  const std::string path = temp_path("magic.npy");
  Bytes b = npy_bytes(1, dict("<i2", "(1,)"), {0, 0});
  b[1] = 'n';
  write_file(path, b);
  expect_input_error(path, "wrong magic");
  write_file(path, Bytes{'P', 'K', 3, 4});  // a zip file, shorter than the magic
  expect_input_error(path, "wrong magic");
}

TEST(NpyErrors, TruncatedHeader) {
  const std::string path = temp_path("trunc_header.npy");
  const Bytes full = npy_bytes(1, dict("<i2", "(1,)"), {0, 0});
  write_file(path, Bytes(full.begin(), full.begin() + 7));  // magic + major only
  expect_input_error(path, "truncated header");
  write_file(path, Bytes(full.begin(), full.begin() + 9));  // half the length field
  expect_input_error(path, "truncated header");
  write_file(path, Bytes(full.begin(), full.begin() + 30));  // header text cut
  expect_input_error(path, "truncated header");
  write_file(path, Bytes(full.begin(), full.begin() + 6));  // magic only
  expect_input_error(path, "truncated header");
}

// The file size is checked against kMaxNpyBytes before the file is read (a
// sparse file past the limit: no disk space used, nothing allocated).
TEST(NpyErrors, FileLargerThanTheLimitIsNotRead) {
  const std::string path = temp_path("huge.npy");
  write_file(path, npy_bytes(1, dict("|i1", "(2,)"), {1, 2}));
  std::filesystem::resize_file(path, cosim::kMaxNpyBytes + 1);
  expect_input_error(path, "file of 1073741825 bytes is larger than the limit of 1073741824 bytes");
}

// Found by tests/fuzz/npy: an empty array (a zero dimension) whose other
// dimensions multiply past 2^63 passed the data-size check and made the
// Tensor constructor throw std::invalid_argument instead of an InputError.
TEST(NpyErrors, EmptyArrayWithAbsurdDimensions) {
  const std::string path = temp_path("empty_absurd.npy");
  write_file(path, npy_bytes(1, dict("<i4", "(7, 510, 8010017, 151, 8, 880, 1, 80, 0, 801001, 8, 880, 0, 801, 0, 0)"), {}));
  expect_input_error(path, "is too large (more than 1073741824 bytes, zero dimensions aside)");
  write_file(path, npy_bytes(1, dict("<i2", "(4611686018427387904, 0)"), {}));
  expect_input_error(path, "shape (4611686018427387904, 0) of '<i2' is too large");
  write_file(path, npy_bytes(1, dict("<i2", "(1024, 0, 1024)"), {}));  // 2 MiB aside the zero: fine
  EXPECT_EQ(cosim::read_npy(path).shape(), (std::vector<int64_t>{1024, 0, 1024}));
}

TEST(NpyErrors, UnsupportedVersion) {
  const std::string path = temp_path("version.npy");
  write_file(path, npy_bytes(4, dict("<i2", "(1,)"), {0, 0}));
  expect_input_error(path, "unsupported .npy version 4.0");
  write_file(path, npy_bytes(1, dict("<i2", "(1,)"), {0, 0}, 1));
  expect_input_error(path, "unsupported .npy version 1.1");
}

TEST(NpyErrors, BadHeaderDict) {
  const std::string path = temp_path("dict.npy");
  const std::pair<std::string, std::string> cases[] = {
      {"not a dict at all\n", "bad header dict"},
      {"{'descr': '<i2', 'shape': (1,), }\n", "missing key 'fortran_order'"},
      {"{'descr': '<i2', 'fortran_order': False, }\n", "missing key 'shape'"},
      {"{'descr': '<i2', 'fortran_order': False, 'shape': (1,), 'x': 1}\n", "unknown key 'x'"},
      {"{'descr': '<i2', 'fortran_order': Maybe, 'shape': (1,)}\n", "bad header dict"},
      {"{'descr': '<i2', 'fortran_order': False, 'shape': (-1,)}\n", "bad header dict"},
      {"{'descr': '<i2', 'fortran_order': False, 'shape': (1,)} junk\n", "bad header dict"},
      {"{'descr': '<i2, 'fortran_order': False, 'shape': (1,)}\n", "bad header dict"},
      {"{'descr': '<i2', 'fortran_order': False, 'shape': (99999999999999999999,)}\n", "bad header dict"},
  };
  for (const auto& [header, what] : cases) {
    write_file(path, npy_bytes(1, header, {0, 0}));
    SCOPED_TRACE(header);
    expect_input_error(path, what);
  }
}

TEST(NpyErrors, BigEndian) {
  const std::string path = temp_path("big.npy");
  write_file(path, npy_bytes(1, dict(">i2", "(1,)"), {0, 1}));
  expect_input_error(path, "big-endian");
}

TEST(NpyErrors, FortranOrder) {
  const std::string path = temp_path("fortran.npy");
  write_file(path, npy_bytes(1, dict("<i2", "(2, 2)", "True"), Bytes(8, 0)));
  expect_input_error(path, "fortran_order True");
}

TEST(NpyErrors, UnsupportedDtype) {
  const std::string path = temp_path("dtype.npy");
  write_file(path, npy_bytes(1, dict("<f8", "(1,)"), Bytes(8, 0)));
  expect_input_error(path, "unsupported dtype '<f8'");
}

TEST(NpyErrors, TruncatedData) {
  const std::string path = temp_path("trunc_data.npy");
  write_file(path, npy_bytes(1, dict("<i4", "(2, 3)"), Bytes(23, 0)));  // 24 needed
  expect_input_error(path, "truncated data");
}

TEST(NpyErrors, ShapeDataSizeMismatchExtraBytes) {
  const std::string path = temp_path("extra.npy");
  write_file(path, npy_bytes(1, dict("<i2", "(2,)"), Bytes(6, 0)));  // 4 needed
  expect_input_error(path, "extra bytes");
}

TEST(NpyErrors, ShapeTooLargeDoesNotAllocate) {
  const std::string path = temp_path("huge.npy");
  write_file(path, npy_bytes(1, dict("<i4", "(4611686018427387904, 4611686018427387904)"), Bytes(4, 0)));
  expect_input_error(path, "too large");
  write_file(path, npy_bytes(1, dict("<i4", "(1000000000000,)"), Bytes(4, 0)));  // past kMaxNpyBytes
  expect_input_error(path, "too large");
  write_file(path, npy_bytes(1, dict("<i4", "(1000000,)"), Bytes(4, 0)));
  expect_input_error(path, "truncated data");
}

// Every prefix and many random corruptions of a valid file either load or
// throw InputError; nothing else escapes and nothing crashes.
TEST(NpyErrors, FuzzPrefixesAndByteFlips) {
  Tensor t(DType::kInt16, {3, 4});
  for (int64_t i = 0; i < t.numel(); ++i) t.data<int16_t>()[i] = static_cast<int16_t>(i * 1001);
  const std::string good = temp_path("good.npy");
  cosim::write_npy(good, t);
  const Bytes raw = read_file(good);
  const std::string path = temp_path("fuzz.npy");
  for (std::size_t n = 0; n < raw.size(); ++n) {
    write_file(path, Bytes(raw.begin(), raw.begin() + static_cast<std::ptrdiff_t>(n)));
    EXPECT_THROW(cosim::read_npy(path), InputError) << "prefix " << n;
  }
  std::mt19937 rng(1234);
  int loaded = 0;
  for (int iter = 0; iter < 1500; ++iter) {
    Bytes b = raw;
    const int flips = 1 + static_cast<int>(rng() % 4);
    for (int k = 0; k < flips; ++k) b[rng() % 80] = static_cast<unsigned char>(rng());
    write_file(path, b);
    try {
      cosim::read_npy(path);
      ++loaded;
    } catch (const InputError&) {
    }
  }
  EXPECT_GE(loaded, 0);
}

}  // namespace
