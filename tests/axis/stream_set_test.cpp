// A DUT's streams as a trace reaches them (tb/axis/stream_ends.hpp,
// stream_set.hpp), driven here cycle by cycle in the phases harness::Core
// runs (drive, observe, update) against a receiver and a sender written in
// the test: the bytes a feed sends come back whole through its beats, TLAST
// and TKEEP where the protocol puts them; a capture keeps what TKEEP marks
// and reports a stalled beat that changes; StreamSet finds streams by name
// and says what a run left behind.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "axis/stream_ends.hpp"
#include "axis/stream_set.hpp"
#include "common/error.hpp"

namespace {

using namespace cosim::tb::axis;

std::vector<uint8_t> counting(std::size_t n, uint8_t from) {
  std::vector<uint8_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(from + i);
  return v;
}

// The DUT side of an input stream: ready on odd cycles; each beat taken
// kept whole.
struct Taken {
  std::vector<BasicBeat<4>> beats;
  std::vector<uint8_t> bytes;  // the bytes TKEEP marks, in order
};

Taken run_feed(BasicStreamFeed<4>& feed, int cycles) {
  Taken t;
  for (int c = 0; c < cycles; ++c) {
    BasicPins<4> p;
    feed.drive(p);
    p.tready = c % 2 == 1;
    feed.observe(p);
    if (p.fire()) {
      t.beats.push_back(p.beat());
      for (std::size_t i = 0; i < 4; ++i)
        if ((p.tkeep >> i) & 1) t.bytes.push_back(static_cast<uint8_t>(p.tdata >> (8 * i)));
    }
    feed.update(p);
  }
  return t;
}

TEST(StreamFeed, PacketsComeBackWholeWithTlastAndAShortLastBeat) {
  BasicStreamFeed<4> feed("p0", /*has_tkeep=*/true, 5, 0.3);
  feed.send(counting(10, 1));
  feed.send(counting(8, 100));
  EXPECT_EQ(feed.pending_bytes(), 18u);
  const Taken t = run_feed(feed, 200);
  std::vector<uint8_t> want = counting(10, 1);
  for (uint8_t b : counting(8, 100)) want.push_back(b);
  EXPECT_EQ(t.bytes, want);
  ASSERT_EQ(t.beats.size(), 5u);  // 4 + 4 + 2 bytes, then 4 + 4
  const bool last[] = {false, false, true, false, true};
  const uint64_t keep[] = {0xf, 0xf, 0x3, 0xf, 0xf};
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(t.beats[i].last, last[i]) << "beat " << i;
    EXPECT_EQ(t.beats[i].keep, keep[i]) << "beat " << i;
  }
  EXPECT_EQ(feed.pending_bytes(), 0u);
  EXPECT_NE(feed.describe().find("p0: 0 bytes to send"), std::string::npos) << feed.describe();
}

TEST(StreamFeed, WithoutTkeepOnlyWholeBeats) {
  BasicStreamFeed<4> feed("p0", /*has_tkeep=*/false, 1, 0.0);
  try {
    feed.send(counting(10, 0));
    FAIL() << "10 bytes on a 4-byte stream without TKEEP were taken";
  } catch (const cosim::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("not a whole number of beats"), std::string::npos) << e.what();
  }
  EXPECT_THROW(feed.send({}), cosim::InputError);
  feed.send(counting(12, 0));
  EXPECT_EQ(run_feed(feed, 20).bytes, counting(12, 0));
}

TEST(StreamCapture, KeepsTheBytesTkeepMarksAndTakesInOrder) {
  BasicStreamCapture<4> cap("p1", 9, 0.0);
  const uint32_t data[] = {0x44332211, 0x88776655, 0x0000aa99};
  const uint64_t keep[] = {0xf, 0xf, 0x3};
  for (int c = 0; c < 3; ++c) {
    BasicPins<4> p;
    cap.drive(p);
    p.tvalid = true;
    p.tdata = data[c];
    p.tkeep = keep[c];
    p.tlast = c == 2;
    cap.observe(static_cast<uint64_t>(c), p);
    cap.update(static_cast<uint64_t>(10 + c), p);
  }
  EXPECT_EQ(cap.pending_bytes(), 10u);
  std::vector<uint64_t> cycles;
  EXPECT_EQ(cap.take(3, &cycles), (std::vector<uint8_t>{0x11, 0x22, 0x33}));
  EXPECT_EQ(cycles, (std::vector<uint64_t>{10, 10, 10}));  // each byte's handover cycle
  EXPECT_EQ(cap.take(100, &cycles), (std::vector<uint8_t>{0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa}));
  EXPECT_EQ(cycles, (std::vector<uint64_t>{10, 11, 11, 11, 11, 12, 12}));
  EXPECT_TRUE(cap.protocol_error().empty()) << cap.protocol_error();
}

TEST(StreamCapture, AStalledBeatThatChangesIsItsOneReport) {
  BasicStreamCapture<4> cap("p1", 9, 1.0);  // never ready: every beat stalls
  for (uint64_t c = 0; c < 4; ++c) {
    BasicPins<4> p;
    cap.drive(p);
    EXPECT_FALSE(p.tready);
    p.tvalid = true;
    p.tdata = c < 2 ? 0x1234 : 0x1235 + c;  // changes at cycle 2 while stalled, and again
    cap.observe(c, p);
    cap.update(c, p);
    EXPECT_TRUE(cap.owed());
  }
  EXPECT_NE(cap.protocol_error().find("axis p1: cycle 2: TDATA changed while stalled"), std::string::npos)
      << cap.protocol_error();
}

TEST(StreamSet, FindsByNameAndSaysWhatWasLeft) {
  BasicStreamFeed<4> in0("p0", true, 1, 0.0), in1("p2", true, 2, 0.0);
  BasicStreamCapture<4> out("p1", 3, 0.0);
  StreamSet set("krnl", {&in0, &in1, &out});
  EXPECT_TRUE(set.errors().empty());
  try {
    set.send("p9", {1, 2, 3, 4});
    FAIL() << "an unknown stream took bytes";
  } catch (const cosim::InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "trace: stream_send of 'p9', which is not an input stream of DUT krnl (its input streams: p0, p2)");
  }
  EXPECT_THROW(set.send("p1", {1, 2, 3, 4}), cosim::InputError);  // an output
  EXPECT_THROW(set.receive("p0", 4), cosim::InputError);          // an input
  set.send("p2", {1, 2, 3, 4, 5, 6});
  EXPECT_EQ(in1.pending_bytes(), 6u);
  EXPECT_EQ(in0.pending_bytes(), 0u);

  // The DUT gives 4 bytes; a check wants 8, a second wants 0.
  BasicPins<4> p;
  out.drive(p);
  p.tvalid = true;
  p.tdata = 0x04030201;
  out.observe(0, p);
  out.update(0, p);
  EXPECT_EQ(set.receive("p1", 8), (std::vector<uint8_t>{1, 2, 3, 4}));
  const std::vector<std::string> want = {"stream p1: a check wanted 8 bytes, the DUT had given 4",
                                         "stream p2: 6 bytes sent that the DUT never took"};
  EXPECT_EQ(set.errors(), want);
  EXPECT_EQ(set.describe().substr(0, 40), "p0: 0 bytes to send, TVALID=0 TREADY=0; ");
}

TEST(StreamSet, NoStreamsOfAKind) {
  BasicStreamCapture<4> out("p1", 3, 0.0);
  StreamSet set("krnl", {&out});
  try {
    set.send("p0", {1});
    FAIL() << "a DUT without inputs took bytes";
  } catch (const cosim::InputError& e) {
    EXPECT_EQ(std::string(e.what()), "trace: stream_send of 'p0', but DUT krnl has no input streams");
  }
  BasicStreamCapture<4> extra("p3", 3, 0.0);
  BasicPins<4> p;
  extra.drive(p);
  p.tvalid = true;
  extra.observe(0, p);
  extra.update(0, p);
  StreamSet left("krnl", {&extra});
  EXPECT_EQ(left.errors(), std::vector<std::string>{"stream p3: 4 bytes the DUT gave that no check took"});
}

}  // namespace
