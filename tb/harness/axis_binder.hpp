// The AXI-Stream binder: a model's axis_in interface `In` (DUT input) and
// axis_out interface `Out` (DUT output), from the generated binding
// (harness/bus.hpp), to and from two axis::BasicPins, whose other ends
// (sources, sinks, DMA models, checkers) implement the binder's Ends. TLAST,
// TKEEP, TSTRB and TUSER are bound when the model has them; an input's TID
// and TDEST are held at 0.
//
// Any data width: each stream's pins are axis::BasicPins<W, U> with W the
// bytes of its TDATA and U those of its TUSER port (8 without one). Verilator
// stores a port in 1, 2, 4 or 8 bytes up to 64 bits (CData ... QData, carried
// in a uint64_t as before) and 4 bytes per 32-bit word beyond (VlWide<N>,
// carried in an axis::Bytes); W is that storage, or the manifest's
// data_bytes when TDATA has fewer bytes (dutgen's port check asks for it).
// So a 64-bit stream keeps the 64-bit Pins and AxisEnds; a 128-bit one has
// BasicPins<16>, a 24-bit one BasicPins<3>. The two streams may differ. A
// TDATA that is no whole number of bytes (data_bits: 18) is carried in the
// bytes that hold it, and the bits above it are cleared on the way into the
// model (a Verilated input must not carry them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "axis/axis_types.hpp"
#include "harness/bus.hpp"
#include "harness/pins.hpp"
#include "harness/port.hpp"

namespace cosim::tb::harness {

// The testbench side of a DUT's two streams, in the phases of a cycle.
template <class InPins, class OutPins>
class BasicAxisEnds {
 public:
  virtual ~BasicAxisEnds() = default;
  // Set TVALID / TDATA / TLAST (and TKEEP, TSTRB, TUSER) of `in` and TREADY of `out`.
  virtual void drive(InPins& in, OutPins& out) = 0;
  // Both streams as the rising edge will take them.
  virtual void observe(uint64_t time, const InPins& in, const OutPins& out) = 0;
  // After the edge: advance on the handshakes.
  virtual void update(uint64_t time, const InPins& in, const OutPins& out) = 0;
};

// Two 64-bit streams.
using AxisEnds = BasicAxisEnds<axis::Pins, axis::Pins>;

// Copies between a Verilated port (CData ... QData, or VlWide<N>; or ports
// taken as one, a ConcatPin, which tdata() returns by value) and a stream
// field (uint64_t, or axis::Bytes<N>). Integer to integer is a plain
// assignment (truncated to the port), the fast path; otherwise the common
// bytes are copied, little-endian, and a wider port's extra bytes are zero.
template <class PinRef, class V>
inline void field_to_pin(PinRef&& pin, const V& v) {
  using Pin = std::remove_reference_t<PinRef>;
  constexpr std::size_t n = pin_bytes<Pin>;
  if constexpr (std::is_integral_v<Pin> && std::is_integral_v<V>) {
    pin = static_cast<Pin>(v);
  } else {
    uint8_t buf[n] = {0};
    std::memcpy(buf, &v, sizeof(V) < n ? sizeof(V) : n);
    bytes_to_pin(pin, buf, n);
  }
}

template <class Pin, class V>
inline void pin_to_field(const Pin& pin, V& v) {
  constexpr std::size_t n = pin_bytes<Pin>;
  if constexpr (std::is_integral_v<Pin> && std::is_integral_v<V>) {
    v = static_cast<V>(pin);
  } else {
    uint8_t buf[n];
    pin_to_bytes(pin, buf, n);
    v = V{};
    std::memcpy(&v, buf, sizeof(V) < n ? sizeof(V) : n);
  }
}

// Bytes of a stream's TDATA: the manifest's data_bytes (Bus::kDataBytes,
// for a width Verilator stores in more bytes: 24 bits in 4, 72 in 12), else
// the port's storage. TUSER's: its port's storage, 8 when absent.
template <class Model, class Bus, class = void>
struct AxisDataBytes : std::integral_constant<std::size_t, pin_bytes<decltype(Bus::tdata(std::declval<Model&>()))>> {};
template <class Model, class Bus>
struct AxisDataBytes<Model, Bus, std::void_t<decltype(Bus::kDataBytes)>>
    : std::integral_constant<std::size_t, Bus::kDataBytes> {
  static_assert(Bus::kDataBytes <= pin_bytes<decltype(Bus::tdata(std::declval<Model&>()))>,
                "the manifest's data_bytes is more than the TDATA port holds");
};
template <class Model, class Bus>
constexpr std::size_t axis_data_bytes = AxisDataBytes<Model, Bus>::value;

template <class Model, class Bus, class = void>
struct AxisUserBytes : std::integral_constant<std::size_t, 8> {};
template <class Model, class Bus>
struct AxisUserBytes<Model, Bus, std::void_t<decltype(Bus::tuser(std::declval<Model&>()))>>
    : std::integral_constant<std::size_t, (pin_bytes<decltype(Bus::tuser(std::declval<Model&>()))> <= 8
                                               ? 8
                                               : pin_bytes<decltype(Bus::tuser(std::declval<Model&>()))>)> {};

// The pins of stream `Bus` of `Model`.
template <class Model, class Bus>
using AxisPinsOf = axis::BasicPins<axis_data_bytes<Model, Bus>, AxisUserBytes<Model, Bus>::value>;

// An input stream's pins into the model: TVALID, TDATA and the sidebands it has.
template <class Bus, class Model, class Pins>
void drive_axis_in(Model& m, const Pins& p) {
  set_pin(Bus::tvalid(m), p.tvalid);
  field_to_pin(Bus::tdata(m), p.tdata);
  if constexpr (DataBits<Bus>::value != 0) clear_bits_from(Bus::tdata(m), DataBits<Bus>::value);
  if constexpr (COSIM_HAS(Bus, tlast, Model)) set_pin(Bus::tlast(m), p.tlast);
  if constexpr (COSIM_HAS(Bus, tkeep, Model)) field_to_pin(Bus::tkeep(m), p.tkeep);
  if constexpr (COSIM_HAS(Bus, tstrb, Model)) field_to_pin(Bus::tstrb(m), p.tstrb);
  if constexpr (COSIM_HAS(Bus, tuser, Model)) field_to_pin(Bus::tuser(m), p.tuser);
  // Routing: one source, one destination (the testbench sends no ID or destination).
  if constexpr (COSIM_HAS(Bus, tid, Model)) set_pin(Bus::tid(m), 0);
  if constexpr (COSIM_HAS(Bus, tdest, Model)) set_pin(Bus::tdest(m), 0);
}

// An output stream's pins out of the model (TREADY is the testbench's; TID
// and TDEST, if the port has them, are not read: one stream, one receiver).
template <class Bus, class Model, class Pins>
void sample_axis_out(const Model& m, Pins& p) {
  p.tvalid = Bus::tvalid(m);
  pin_to_field(Bus::tdata(m), p.tdata);
  if constexpr (COSIM_HAS(Bus, tlast, Model)) p.tlast = Bus::tlast(m);
  if constexpr (COSIM_HAS(Bus, tkeep, Model)) pin_to_field(Bus::tkeep(m), p.tkeep);
  if constexpr (COSIM_HAS(Bus, tstrb, Model)) pin_to_field(Bus::tstrb(m), p.tstrb);
  if constexpr (COSIM_HAS(Bus, tuser, Model)) pin_to_field(Bus::tuser(m), p.tuser);
}

template <class Model, class In, class Out>
class AxisBinder final : public Port<Model> {
 public:
  using InPins = AxisPinsOf<Model, In>;
  using OutPins = AxisPinsOf<Model, Out>;
  using Ends = BasicAxisEnds<InPins, OutPins>;
  static_assert(bus_clock<In> == bus_clock<Out>, "a stream pair's binder runs on one clock");

  explicit AxisBinder(Ends& ends) : ends_(ends) {}

  void drive(Model& m) override {
    ends_.drive(in_, out_);
    drive_axis_in<In>(m, in_);
    set_pin(Out::tready(m), out_.tready);
  }
  void sample(const Model& m, uint64_t time) override {
    in_.tready = In::tready(m);
    sample_axis_out<Out>(m, out_);
    ends_.observe(time, in_, out_);
  }
  void update(const Model& m, uint64_t time) override {
    (void)m;
    ends_.update(time, in_, out_);
  }
  bool has_update() const override { return true; }
  int clock() const override { return bus_clock<In>; }

  const InPins& in() const { return in_; }
  const OutPins& out() const { return out_; }

 private:
  Ends& ends_;
  InPins in_;
  OutPins out_;
};

}  // namespace cosim::tb::harness
