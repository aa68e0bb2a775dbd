// The native memory port binder: one sram interface of a model (an SRAM /
// BRAM-style master port: address, optional enable, write enable, byte
// enables and write data, read data back after a fixed latency) on a
// MemoryPort (tb/axi/memory_port.hpp): in the TLM testbench the port's own
// bridge to the one DRAM the AXI masters reach (DutWrapper::memory), in a
// bare harness a VectorMemory. Every cycle, as the rising edge takes them:
//   - en (absent: always) and a write (we high, or any byte enable when the
//     port has only be): the enabled bytes of wdata are written;
//   - en and no write, on a port with rdata: the word is read, and shown on
//     rdata `latency` cycles later (1: the cycle after the address, a
//     BRAM's), held there until the next read's data replaces it.
// The address counts data words (`addressing: word`, the default) or bytes
// (`byte`: aligned down to its word, as a memory with word lines does),
// from the DRAM byte address `base`. The port is never stalled: DRAM
// latency and stalls do not apply (a native port has no ready to wait on).
// An access the memory refuses (outside the DRAM) reads zeros and is
// reported by errors(), naming the interface, address and cycle.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "axi/memory_port.hpp"
#include "common/text.hpp"
#include "harness/bus.hpp"
#include "harness/pins.hpp"
#include "harness/port.hpp"

namespace cosim::tb::harness {

// One sram interface of a DUT as the testbench serves it.
struct SramSpec {
  std::string name;         // interface name
  uint32_t data_bytes = 0;  // bytes of its word
};

// Bytes of an sram port's word: the manifest's data_bytes (Bus::kDataBytes),
// else the storage of its read data, or of its write data on a write-only port.
template <class Model, class Bus, class = void>
struct SramDataBytes {
  static constexpr std::size_t pin() {
    if constexpr (COSIM_HAS(Bus, rdata, Model)) {
      return pin_bytes<decltype(Bus::rdata(std::declval<Model&>()))>;
    } else {
      return pin_bytes<decltype(Bus::wdata(std::declval<Model&>()))>;
    }
  }
  static constexpr std::size_t value = pin();
};
template <class Model, class Bus>
struct SramDataBytes<Model, Bus, std::void_t<decltype(Bus::kDataBytes)>> {
  static constexpr std::size_t value = Bus::kDataBytes;
};

template <class Model, class Bus>
class SramBinder final : public Port<Model> {
 public:
  static constexpr std::size_t kDataBytes = SramDataBytes<Model, Bus>::value;
  static constexpr bool kReads = COSIM_HAS(Bus, rdata, Model);
  static constexpr bool kWe = COSIM_HAS(Bus, we, Model);
  static constexpr bool kBe = COSIM_HAS(Bus, be, Model);
  static constexpr bool kWrites = kWe || kBe;
  static_assert(kReads || kWrites, "an sram port reads or writes (dutgen's port check says which signal is missing)");
  static_assert(std::is_integral_v<std::remove_reference_t<decltype(Bus::addr(std::declval<Model&>()))>>,
                "an sram address of at most 64 bits");

  explicit SramBinder(MemoryPort& mem) : mem_(mem) {}

  void drive(Model& m) override {
    if constexpr (kReads) {
      if (!pending_.empty() && pending_.front().due <= samples_) {
        bytes_to_pin(Bus::rdata(m), pending_.front().data.data(), kDataBytes);
        if constexpr (DataBits<Bus>::value != 0) clear_bits_from(Bus::rdata(m), DataBits<Bus>::value);
        pending_.pop_front();
      }
    } else {
      (void)m;
    }
  }

  void sample(const Model& m, uint64_t time) override {
    ++samples_;
    if constexpr (COSIM_HAS(Bus, en, Model)) {
      if (!Bus::en(m)) return;
    }
    const uint64_t addr = Bus::addr(m);
    const uint64_t byte = Bus::kBase + (Bus::kByteAddressing ? addr - addr % kDataBytes : addr * kDataBytes);
    if (write(m, addr, byte, time)) return;
    if constexpr (kReads) {
      Pending r{samples_ + Bus::kLatency - 1, {}};
      access("read", addr, byte, time, [&] { mem_.read(byte, r.data.data(), kDataBytes); });
      ++reads_;
      pending_.push_back(r);
    }
  }

  // Reads whose data the DUT has not been shown yet.
  bool owed() const override { return !pending_.empty(); }
  int clock() const override { return bus_clock<Bus>; }

  uint64_t reads() const { return reads_; }
  uint64_t writes() const { return writes_; }
  // The first refused access, naming the interface, address and cycle, and how many there were.
  std::vector<std::string> errors() const {
    if (refused_ == 0) return {};
    return {first_error_ + (refused_ > 1 ? " (" + std::to_string(refused_) + " accesses refused in all)" : "")};
  }

 private:
  struct Pending {
    uint64_t due;  // the sample count from whose next drive on the DUT sees it
    std::array<uint8_t, kDataBytes> data;
  };

  // This cycle's write, if it is one.
  bool write(const Model& m, uint64_t addr, uint64_t byte, uint64_t time) {
    if constexpr (kWrites) {
      if constexpr (kWe) {
        if (!Bus::we(m)) return false;
      }
      std::array<uint8_t, kDataBytes> strobe;
      strobe.fill(1);
      if constexpr (kBe) {
        static_assert(std::is_integral_v<std::remove_reference_t<decltype(Bus::be(std::declval<Model&>()))>>,
                      "sram byte enables for a word of at most 64 bytes");
        const uint64_t be = Bus::be(m);
        if (be == 0) return kWe;  // we high with no byte enabled: a write of nothing
        for (std::size_t i = 0; i < kDataBytes; ++i) strobe[i] = (be >> i) & 1;
      }
      std::array<uint8_t, kDataBytes> data;
      pin_to_bytes(Bus::wdata(m), data.data(), kDataBytes);
      access("write", addr, byte, time, [&] { mem_.write(byte, data.data(), kDataBytes, strobe.data()); });
      ++writes_;
      return true;
    } else {
      (void)m, (void)addr, (void)byte, (void)time;
      return false;
    }
  }

  template <class F>
  void access(const char* what, uint64_t addr, uint64_t byte, uint64_t time, F&& f) {
    try {
      f();
    } catch (const std::exception& e) {
      if (refused_++ == 0) {
        first_error_ = std::string("sram ") + Bus::kName + ": " + what + " of address " + hex(addr) +
                       " (DRAM byte " + hex(byte) + ") in cycle " + std::to_string(time) + ": " + e.what();
      }
    }
  }

  MemoryPort& mem_;
  std::deque<Pending> pending_;
  uint64_t samples_ = 0;
  uint64_t reads_ = 0, writes_ = 0;
  uint64_t refused_ = 0;
  std::string first_error_;
};

// Every sram interface a manifest lists (the generated pins::Top::Srams),
// each on its own memory port, bound in the manifest's order.
template <class Model, class List>
class SramBinders;

template <class Model, class... Bus>
class SramBinders<Model, BusList<Bus...>> {
 public:
  static constexpr std::size_t kCount = sizeof...(Bus);

  static std::vector<SramSpec> specs() {
    return {SramSpec{Bus::kName, static_cast<uint32_t>(SramBinder<Model, Bus>::kDataBytes)}...};
  }

  // mems[i] serves the i-th sram interface of the list.
  explicit SramBinders(const std::vector<MemoryPort*>& mems)
      : SramBinders(one_per_interface(mems, kCount, "SramBinders", "memory ports for", "sram interfaces"),
                    std::index_sequence_for<Bus...>{}) {}

  template <class Core>
  void add_to(Core& core) {
    std::apply([&core](auto&... b) { (core.add_port(b), ...); }, binders_);
  }
  // Each port's refused accesses (SramBinder::errors), in order.
  std::vector<std::string> errors() const {
    std::vector<std::string> e;
    std::apply([&e](const auto&... b) { (append(e, b.errors()), ...); }, binders_);
    return e;
  }
  // <interface>.reads and <interface>.writes of each.
  std::map<std::string, uint64_t> counters() const {
    std::map<std::string, uint64_t> c;
    std::apply([&c](const auto&... b) { ((c[std::string(Bus::kName) + ".reads"] = b.reads(),
                                          c[std::string(Bus::kName) + ".writes"] = b.writes()), ...); },
               binders_);
    return c;
  }

 private:
  template <std::size_t... I>
  SramBinders(const std::vector<MemoryPort*>& mems, std::index_sequence<I...>) : binders_(*mems[I]...) {}

  static void append(std::vector<std::string>& to, std::vector<std::string> from) {
    for (std::string& s : from) to.push_back(std::move(s));
  }

  std::tuple<SramBinder<Model, Bus>...> binders_;
};

}  // namespace cosim::tb::harness
