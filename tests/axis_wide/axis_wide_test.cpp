// The AXI-Stream binder on streams wider than 64 bits, with the optional
// sidebands, on a real Verilated top (axis_wide_top.sv: 256 bits in with
// TKEEP / TLAST / TUSER, 128 bits out with TKEEP / TSTRB / TLAST / TUSER)
// bound through its generated pin binding (dut/axis_wide_pins.hpp) and
// clocked by the harness core. What the output must be comes from the DUT's
// specification (the header of axis_wide_top.sv), computed here byte by byte:
//   - packets from a source under seeded stalls on both sides, the last beat
//     of each partial (TKEEP), every output beat checked by the protocol
//     checker (data on the bytes kept, TKEEP, TSTRB, TLAST, TUSER);
//   - the DMA models at both widths: memory -> 256-bit MM2S -> DUT ->
//     128-bit S2MM -> memory, an odd length, every byte compared;
//   - the checks can fail: a wrong TKEEP expected on the partial last beat, a
//     TDATA byte above bit 64 changed while stalled, and a beat lost;
//   - a 24-bit stream (axis_narrow_top.sv, data_bytes: 3 in its manifest):
//     3-byte beats through the DMA models, every byte compared.
// Also the pin copies on their own (VlWide, 16-bit and 64-bit ports).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "harness/core.hpp"
// core.hpp first: it brings in Verilator's headers.
#include "Vaxis_bits_top.h"
#include "Vaxis_narrow_top.h"
#include "Vaxis_split_top.h"
#include "Vaxis_wide_top.h"
#include "axi/memory_port.hpp"
#include "axis/axis_checker.hpp"
#include "axis/axis_dma.hpp"
#include "axis/axis_sink.hpp"
#include "axis/axis_source.hpp"
#include "dut/axis_bits_pins.hpp"
#include "dut/axis_narrow_pins.hpp"
#include "dut/axis_split_pins.hpp"
#include "dut/axis_wide_pins.hpp"
#include "harness/axis_binder.hpp"
#include "harness/module_binding.hpp"
#include "support/expect_text.hpp"

namespace cosim::tb::harness {
namespace {

using cosim::test::expect_contains;
using cosim::test::what_of;

namespace pins = cosim::axis_wide::pins;
using Model = Vaxis_wide_top;
using Binder = AxisBinder<Model, pins::In, pins::Out>;
using InPins = Binder::InPins;
using OutPins = Binder::OutPins;
using InBeat = InPins::Beat;
using OutBeat = OutPins::Beat;

// The widths come from the Verilated ports: 256 and 128 bits, TUSER (4 bits)
// in a uint64_t; TKEEP of 32 and 16 bits in uint64_t masks.
static_assert(InPins::kDataBytes == 32 && OutPins::kDataBytes == 16);
static_assert(std::is_same_v<InPins::Data, axis::Bytes<32>> && std::is_same_v<OutPins::Data, axis::Bytes<16>>);
static_assert(std::is_same_v<InPins::Mask, uint64_t> && std::is_same_v<InPins::User, uint64_t>);

// A test DUT is never done (harness::NeverDone): each test runs it until its streams have moved.
using WideCore = Core<Model, NeverDone, pins::Top>;

// axis_wide_top's transform of byte `lane` (0..31) of an input beat.
uint8_t xform(uint8_t b, std::size_t lane) { return uint8_t(b ^ uint8_t(0x5a + lane)); }

// The output beats one input beat becomes (the DUT's specification).
std::vector<OutBeat> expected_out(const InBeat& in) {
  std::vector<OutBeat> out;
  for (std::size_t half = 0; half < 2; ++half) {
    const uint64_t keep = (in.keep >> (16 * half)) & 0xffff;
    if (half == 1 && keep == 0) break;
    OutBeat b;
    for (std::size_t i = 0; i < 16; ++i) b.data.b[i] = xform(in.data.b[16 * half + i], 16 * half + i);
    b.keep = b.strb = keep;
    b.user = in.user;
    b.last = in.last && (half == 1 || ((in.keep >> 16) & 0xffff) == 0);
    out.push_back(b);
  }
  return out;
}

// Source and sink on the two streams, a checker on each; optionally a fault.
class Streams final : public Binder::Ends {
 public:
  Streams(uint64_t seed, double stall) : src_(seed, stall), sink_(seed + 1, stall) {}

  void send(const InBeat& b) {
    src_.push(b);
    in_check_.expect_beat(b);
  }
  void expect(const std::vector<OutBeat>& beats) { out_check_.expect_beats(beats); }
  bool idle() const { return src_.idle(); }
  const std::vector<OutBeat>& received() const { return sink_.beats(); }
  void finish(uint64_t t) {
    in_check_.finish(t);
    out_check_.finish(t);
  }

  // Fault: flip a byte of TDATA above bit 64 on the first stalled output
  // cycle (the DUT side of a broken stream, as the checker sees it).
  bool corrupt_stalled_out = false;

  void drive(InPins& in, OutPins& out) override {
    src_.drive(in);
    sink_.drive(out);
  }
  void observe(uint64_t time, const InPins& in, const OutPins& out) override {
    in_check_.observe(time, in);
    if (corrupt_stalled_out && out_stalled_ && out.tvalid) {
      OutPins bad = out;
      bad.tdata.b[12] ^= 0x40;
      out_check_.observe(time, bad);
    } else {
      out_check_.observe(time, out);
    }
  }
  void update(uint64_t time, const InPins& in, const OutPins& out) override {
    (void)time;
    src_.update(in);
    sink_.update(out);
    out_stalled_ = out.tvalid && !out.tready;
  }

 private:
  axis::BasicSource<32> src_;
  axis::BasicSink<16> sink_;
  axis::BasicChecker<32> in_check_{"axis_wide.s_axis"};
  axis::BasicChecker<16> out_check_{"axis_wide.m_axis"};
  bool out_stalled_ = false;
};

// Packets of random bytes, each `len` bytes long (the last beat partial when
// len is not a multiple of 32), TUSER the packet's number.
std::vector<InBeat> packet_beats(std::mt19937_64& rng, std::size_t len, uint64_t user) {
  std::vector<InBeat> beats;
  for (std::size_t off = 0; off < len; off += 32) {
    const std::size_t n = std::min<std::size_t>(32, len - off);
    InBeat b;
    for (std::size_t i = 0; i < n; ++i) b.data.b[i] = uint8_t(rng());
    b.keep = b.strb = axis::low_bits<4>(n);
    b.user = user;
    b.last = off + 32 >= len;
    beats.push_back(b);
  }
  return beats;
}

// Runs until the source is empty and the output quiet for a while.
uint64_t run(WideCore& core, Streams& s, uint64_t max_cycles) {
  uint64_t quiet = 0;
  while (core.time() < max_cycles && (quiet < 20 || !s.idle())) {
    core.cycle();
    quiet = s.idle() ? quiet + 1 : 0;
  }
  return core.time();
}

// Sends `lengths` as packets and returns what the DUT must give back.
std::vector<OutBeat> send_packets(Streams& s, const std::vector<std::size_t>& lengths, uint64_t seed,
                                  std::vector<InBeat>* sent = nullptr) {
  std::mt19937_64 rng(seed);
  std::vector<OutBeat> want;
  for (std::size_t p = 0; p < lengths.size(); ++p) {
    for (const InBeat& b : packet_beats(rng, lengths[p], p % 16)) {
      s.send(b);
      if (sent) sent->push_back(b);
      for (const OutBeat& o : expected_out(b)) want.push_back(o);
    }
  }
  return want;
}

TEST(AxisWide, PacketsThroughA256BitInAnd128BitOutStreamUnderStalls) {
  WideCore core("axis_wide");
  Streams s(7, 0.3);
  Binder binder(s);
  core.add_port(binder);
  core.start_timeline();
  // Whole beats, partial last beats of every size class (1 byte, within the
  // low half, exactly 16, within the high half), a one-beat packet.
  std::vector<InBeat> sent;
  const auto want = send_packets(s, {96, 33, 40, 48, 63, 1, 17, 31}, 1, &sent);
  s.expect(want);
  const uint64_t cycles = run(core, s, 20000);
  ASSERT_NO_THROW(s.finish(cycles));

  // Independently of the beat list: the kept output bytes, undone, are the
  // packets' bytes, and TLAST / TUSER frame them as sent.
  std::vector<uint8_t> in_bytes, out_bytes;
  std::vector<uint64_t> in_users, out_users;
  for (const InBeat& b : sent) {
    for (std::size_t i = 0; i < 32; ++i)
      if ((b.keep >> i) & 1) in_bytes.push_back(b.data.b[i]);
    if (b.last) in_users.push_back(b.user);
  }
  const auto& got = s.received();
  ASSERT_EQ(got.size(), want.size());
  std::size_t lane = 0;
  for (const OutBeat& b : got) {
    EXPECT_EQ(b.keep, b.strb);
    for (std::size_t i = 0; i < 16; ++i)
      if ((b.keep >> i) & 1) out_bytes.push_back(xform(b.data.b[i], (lane + i) % 32));
    lane = b.last || lane == 16 ? 0 : 16;
    if (b.last) out_users.push_back(b.user);
  }
  EXPECT_EQ(out_bytes, in_bytes);
  EXPECT_EQ(out_users, in_users);
  EXPECT_EQ(in_bytes.size(), 96u + 33 + 40 + 48 + 63 + 1 + 17 + 31);
  // The partial last beat of the 33-byte packet: one byte in the low half.
  // Packet 1 starts at output beat 6 (96 bytes = 3 input beats = 6 out beats).
  EXPECT_EQ(got[8].keep, 0x1u);
  EXPECT_TRUE(got[8].last);
  // Stalls on both sides cost cycles: more than the 2 per input beat.
  EXPECT_GT(cycles, 2 * sent.size());
}

TEST(AxisWide, AWrongTkeepOnThePartialLastBeatIsCaught) {
  WideCore core("axis_wide");
  Streams s(3, 0.2);
  Binder binder(s);
  core.add_port(binder);
  core.start_timeline();
  auto want = send_packets(s, {64, 45}, 2);  // 45 bytes: the last output beat keeps 13 bytes
  ASSERT_EQ(want.back().keep, 0x1fffu);
  want.back().keep = want.back().strb = 0x3fff;  // one byte too many
  s.expect(want);
  // A wrong TKEEP must not go unnoticed.
  expect_contains(what_of<axis::ProtocolError>([&] { run(core, s, 5000); }),
                  {"axis axis_wide.m_axis", "unexpected: expected", "TKEEP 0x3fff", "TKEEP 0x1fff"});
}

TEST(AxisWide, AWideTdataChangeWhileStalledIsCaught) {
  WideCore core("axis_wide");
  Streams s(5, 0.5);
  s.corrupt_stalled_out = true;
  Binder binder(s);
  core.add_port(binder);
  core.start_timeline();
  s.expect(send_packets(s, {256}, 3));
  try {
    run(core, s, 5000);
    FAIL() << "TDATA changing while stalled went unnoticed";
  } catch (const axis::ProtocolError& e) {
    EXPECT_NE(std::string(e.what()).find("TDATA changed while stalled"), std::string::npos) << e.what();
  }
}

TEST(AxisWide, ABeatTheExpectationLacksIsCaught) {
  WideCore core("axis_wide");
  Streams s(9, 0.0);
  Binder binder(s);
  core.add_port(binder);
  core.start_timeline();
  auto want = send_packets(s, {64}, 4);
  want.erase(want.begin() + 1);  // the checker now expects beat 2 where beat 1 comes
  s.expect(want);
  try {
    run(core, s, 5000);
    FAIL() << "a beat missing from the expectation went unnoticed";
  } catch (const axis::ProtocolError& e) {
    EXPECT_NE(std::string(e.what()).find("beat 1 unexpected"), std::string::npos) << e.what();
  }
}

// A memory image of 0xee bytes (to see stray writes) with len random bytes at src.
std::vector<uint8_t> image_with_source(std::size_t size, uint64_t seed, std::size_t src, std::size_t len) {
  std::vector<uint8_t> image(size, 0xee);
  std::mt19937_64 rng(seed);
  for (std::size_t i = 0; i < len; ++i) image[src + i] = uint8_t(rng());
  return image;
}

// The DMA models around a DUT, as the harness's DMA wraps them: MM2S feeds
// s_axis from memory, S2MM writes m_axis back; out_check_ watches m_axis and,
// with kCheckIn, in_check_ watches s_axis.
template <class B, std::size_t kInBytes, std::size_t kOutBytes, bool kCheckIn>
class DmaStreams final : public B::Ends {
 public:
  DmaStreams(MemoryPort& mem, uint64_t seed, const std::string& dut)
      : mm2s_(mem, seed, 0.3), s2mm_(mem, seed + 1, 0.3), in_check_(dut + ".s_axis"), out_check_(dut + ".m_axis") {}
  axis::BasicMm2sDma<kInBytes> mm2s_;
  axis::BasicS2mmDma<kOutBytes> s2mm_;
  axis::BasicChecker<kInBytes> in_check_;
  axis::BasicChecker<kOutBytes> out_check_;

  // Attaches to core and moves len bytes at src through the DUT to dst (room
  // bytes there), until S2MM has its packet or the core reaches max_time.
  template <class CoreT>
  void run(CoreT& core, uint64_t src, uint64_t len, uint64_t dst, uint64_t room, uint64_t max_time) {
    core.add_port(binder_);
    core.start_timeline();
    mm2s_.start(src, len);
    s2mm_.start(dst, room);
    while (core.time() < max_time && s2mm_.busy()) core.cycle();
  }

  void drive(typename B::InPins& in, typename B::OutPins& out) override {
    mm2s_.drive(in);
    s2mm_.drive(out);
  }
  void observe(uint64_t time, const typename B::InPins& in, const typename B::OutPins& out) override {
    if constexpr (kCheckIn) in_check_.observe(time, in);
    out_check_.observe(time, out);
  }
  void update(uint64_t time, const typename B::InPins& in, const typename B::OutPins& out) override {
    (void)time;
    mm2s_.update(in);
    s2mm_.update(out);
  }

 private:
  B binder_{*this};
};

// The DMA models at both widths around the DUT: 100 bytes from memory as
// three full 256-bit beats and a 4-byte one, back as seven 128-bit beats.
TEST(AxisWide, DmaAtBothWidthsMovesEveryByte) {
  constexpr std::size_t kLen = 100, kSrc = 64, kDst = 512;
  std::vector<uint8_t> image = image_with_source(1024, 11, kSrc, kLen);
  VectorMemory mem(image);
  WideCore core("axis_wide");
  DmaStreams<Binder, 32, 16, false> s(mem, 21, "axis_wide");
  std::vector<InBeat> fetched;
  s.mm2s_.set_beat_hook([&](const InBeat& b) { fetched.push_back(b); });
  s.out_check_.expect_packet(7);
  s.run(core, kSrc, kLen, kDst, 256, 5000);
  ASSERT_FALSE(s.s2mm_.busy()) << "S2MM still waiting after " << s.s2mm_.bytes_written() << " bytes";
  s.out_check_.finish(core.time());
  ASSERT_EQ(fetched.size(), 4u);
  EXPECT_EQ(fetched.back().keep, 0xfu);  // the 4-byte last beat
  EXPECT_TRUE(fetched.back().last);
  EXPECT_EQ(s.s2mm_.bytes_written(), kLen);
  for (std::size_t i = 0; i < kLen; ++i)
    ASSERT_EQ(image[kDst + i], xform(image[kSrc + i], i % 32)) << "byte " << i;
  EXPECT_EQ(image[kDst + kLen], 0xee) << "S2MM wrote past the packet (a null byte took room)";
}

// A 24-bit stream: its ports are 4-byte IData, the manifest's data_bytes
// makes the beat 3 bytes: 10 bytes go as 3 + 3 + 3 + 1 (TKEEP 0x1).
namespace npins = cosim::axis_narrow::pins;
using NarrowBinder = AxisBinder<Vaxis_narrow_top, npins::In, npins::Out>;
static_assert(npins::In::kDataBytes == 3);
static_assert(NarrowBinder::InPins::kDataBytes == 3 && NarrowBinder::OutPins::kDataBytes == 3);
static_assert(std::is_same_v<NarrowBinder::InPins, axis::BasicPins<3>>);


TEST(AxisNarrow, ThreeByteBeatsThroughTheDmaModels) {
  constexpr std::size_t kLen = 10, kSrc = 16, kDst = 128;
  std::vector<uint8_t> image = image_with_source(256, 5, kSrc, kLen);
  VectorMemory mem(image);
  Core<Vaxis_narrow_top, NeverDone, npins::Top> core("axis_narrow");
  DmaStreams<NarrowBinder, 3, 3, true> s(mem, 31, "axis_narrow");
  std::vector<axis::BasicBeat<3>> fetched;
  s.mm2s_.set_beat_hook([&](const axis::BasicBeat<3>& b) {
    fetched.push_back(b);
    s.in_check_.expect_beat(b);
  });
  s.out_check_.expect_packet(4);
  s.run(core, kSrc, kLen, kDst, 64, 2000);
  ASSERT_FALSE(s.s2mm_.busy()) << "S2MM still waiting after " << s.s2mm_.bytes_written() << " bytes";
  s.in_check_.finish(core.time());
  s.out_check_.finish(core.time());
  ASSERT_EQ(fetched.size(), 4u);
  EXPECT_EQ(fetched[0].keep, 0x7u);
  EXPECT_EQ(fetched[0].data >> 24, 0u) << "a 3-byte beat carries no fourth byte";
  EXPECT_EQ(fetched.back().keep, 0x1u);
  EXPECT_EQ(s.s2mm_.bytes_written(), kLen);
  for (std::size_t i = 0; i < kLen; ++i)
    ASSERT_EQ(image[kDst + i], uint8_t(image[kSrc + i] + i % 3 + 1)) << "byte " << i;
  EXPECT_EQ(image[kDst + kLen], 0xee);
}

// `beats` beats of kBytes each from the image at kThroughSrc through a DUT whose output beat is as
// wide as its input to kThroughDst, one packet, by DMA both ways (streams stalled at random).
constexpr std::size_t kThroughSrc = 16, kThroughDst = 128;
template <class Model, class Top, class Binder, std::size_t kBytes>
void stream_through(const std::string& dut, std::vector<uint8_t>& image, std::size_t beats, uint64_t seed) {
  VectorMemory mem(image);
  Core<Model, NeverDone, Top> core(dut);
  DmaStreams<Binder, kBytes, kBytes, false> s(mem, seed, dut);
  s.out_check_.expect_packet(beats);
  s.run(core, kThroughSrc, kBytes * beats, kThroughDst, 64, 2000);
  ASSERT_FALSE(s.s2mm_.busy()) << "S2MM still waiting after " << s.s2mm_.bytes_written() << " bytes";
  EXPECT_EQ(s.s2mm_.bytes_written(), kBytes * beats);
}

// An 18-bit stream (data_bits: 18): three bytes a beat, the bits above 18 cleared on the way into
// the model. Beats whose three bytes are all ones are 18 ones to the DUT, which answers 1; with the
// bits left set it would see no match and answer x + 1.
namespace bpins = cosim::axis_bits::pins;
using BitsBinder = AxisBinder<Vaxis_bits_top, bpins::In, bpins::Out>;
static_assert(bpins::In::kDataBits == 18 && bpins::In::kDataBytes == 3);
static_assert(std::is_same_v<BitsBinder::InPins, axis::BasicPins<3>>);


TEST(AxisBits, EighteenBitBeatsTakeThreeBytesAndOnlyTheirBits) {
  constexpr std::size_t kBeats = 8, kSrc = kThroughSrc, kDst = kThroughDst;
  std::vector<uint8_t> image = image_with_source(256, 9, kSrc, 3 * kBeats);
  for (std::size_t b : {1u, 4u, 7u}) std::fill_n(image.begin() + kSrc + 3 * b, 3, 0xff);
  stream_through<Vaxis_bits_top, bpins::Top, BitsBinder, 3>("axis_bits", image, kBeats, 41);
  for (std::size_t b = 0; b < kBeats; ++b) {
    const uint8_t* in = &image[kSrc + 3 * b];
    const uint32_t x = (in[0] | in[1] << 8 | in[2] << 16) & 0x3ffffu;
    const uint32_t want = x == 0x3ffffu ? 1u : (x + 1) & 0x3ffffu;
    const uint8_t* out = &image[kDst + 3 * b];
    EXPECT_EQ(uint32_t(out[0] | out[1] << 8 | out[2] << 16), want) << "beat " << b;
  }
}

// A stream whose beat is on two data ports each way (tdata: [s_a, s_b], 12 + 20 bits in; [m_lo,
// m_hi], 5 + 27 out): four bytes a beat, the first port's bits from bit 0. The DUT answers v * 3 + 1
// for the beat v = {b, a}; a wrong split of the bytes among the ports gives other values.
namespace spins = cosim::axis_split::pins;
using SplitBinder = AxisBinder<Vaxis_split_top, spins::In, spins::Out>;
static_assert(spins::In::kDataBytes == 4 && spins::Out::kDataBytes == 4);
static_assert(std::is_same_v<SplitBinder::InPins, axis::BasicPins<4>>);

TEST(AxisSplit, ABeatOnTwoPortsOfOddWidthsIsTheirBitsTogether) {
  constexpr std::size_t kBeats = 16, kSrc = kThroughSrc, kDst = kThroughDst;
  std::vector<uint8_t> image = image_with_source(256, 13, kSrc, 4 * kBeats);
  stream_through<Vaxis_split_top, spins::Top, SplitBinder, 4>("axis_split", image, kBeats, 43);
  for (std::size_t b = 0; b < kBeats; ++b) {
    uint32_t v = 0, u = 0;
    std::memcpy(&v, &image[kSrc + 4 * b], 4);
    std::memcpy(&u, &image[kDst + 4 * b], 4);
    EXPECT_EQ(u, v * 3u + 1u) << "beat " << b;
  }
}

// The pin copies the binder uses, without a model.
TEST(AxisWidePins, WideAndNarrowPortsCopyLittleEndian) {
  VlWide<4> wide{};
  axis::Bytes<16> v;
  for (std::size_t i = 0; i < 16; ++i) v.b[i] = uint8_t(0x10 + i);
  field_to_pin(wide, v);
  EXPECT_EQ(wide[0], 0x13121110u);
  EXPECT_EQ(wide[3], 0x1f1e1d1cu);
  axis::Bytes<16> back;
  pin_to_field(wide, back);
  EXPECT_EQ(back, v);

  uint16_t keep16 = 0;
  field_to_pin(keep16, uint64_t{0x1ffff});  // truncated to the port
  EXPECT_EQ(keep16, 0xffffu);
  uint64_t keep = 0;
  pin_to_field(keep16, keep);
  EXPECT_EQ(keep, 0xffffu);

  uint64_t q = 0;
  field_to_pin(q, uint64_t{0x0123456789abcdefULL});
  EXPECT_EQ(q, 0x0123456789abcdefULL);

  // Ports taken as one (a beat on several data ports): the first's bits from bit 0.
  uint16_t a = 0;
  uint32_t b = 0;
  field_to_pin(concat_pins<12, 20>(a, b), uint64_t{0x89abcdefULL});
  EXPECT_EQ(a, 0xdefu);
  EXPECT_EQ(b, 0x89abcu);
  uint64_t ab = 0;
  pin_to_field(concat_pins<12, 20>(a, b), ab);
  EXPECT_EQ(ab, 0x89abcdefULL);
  uint8_t c = 0;  // 3 bits, then a 70-bit port: 73 bits in ten bytes
  VlWide<3> w{};
  axis::Bytes<10> cw;
  for (std::size_t i = 0; i < 10; ++i) cw.b[i] = uint8_t(0xa5 ^ i);
  field_to_pin(concat_pins<3, 70>(c, w), cw);
  EXPECT_EQ(c, 0x5u);                                 // 0xa5's low three bits
  EXPECT_EQ(w[0], (0xa5u >> 3) | 0xa4u << 5 | 0xa7u << 13 | 0xa6u << 21 | (0xa1u & 0x7u) << 29);
  EXPECT_EQ(w[2], (0xadu >> 3) | (0xacu & 0x1u) << 5);  // bits 64..69 only
  axis::Bytes<10> cw_back;
  pin_to_field(concat_pins<3, 70>(c, w), cw_back);
  for (std::size_t i = 0; i < 9; ++i) EXPECT_EQ(cw_back.b[i], cw.b[i]) << "byte " << i;
  EXPECT_EQ(cw_back.b[9], cw.b[9] & 0x1u);  // bit 72 the last
  EXPECT_EQ(axis::low_bits<16>(9).b[0], 0xffu);
  EXPECT_EQ(axis::low_bits<16>(9).b[1], 0x01u);
  EXPECT_EQ(axis::low_bits<16>(9).b[2], 0x00u);
  EXPECT_EQ(axis::low_bits<8>(64), ~uint64_t{0});
  EXPECT_EQ(axis::field_hex(axis::low_bits<16>(9), false), "0x1ff");
}

// Null bytes (TKEEP low) carry no data: a beat matches whatever they hold.
TEST(AxisWidePins, NullBytesAreNotCompared) {
  OutBeat a, b;
  a.keep = b.keep = a.strb = b.strb = 0x00ff;
  a.data.b[3] = b.data.b[3] = 7;
  a.data.b[12] = 1;  // a null byte
  EXPECT_TRUE(a.matches(b));
  b.data.b[3] = 8;
  EXPECT_FALSE(a.matches(b));
}

}  // namespace
}  // namespace cosim::tb::harness
