// The AXI4 master binder: one axi4 interface of a model (AW, W, B, AR, R;
// optional signals when the model has them) to and from an Axi4Pins, served by an AXI4
// slave: the cycle-level tb/axi Axi4SlaveModel (bare harnesses) or the TLM
// testbench's TimedAxiSlave, behind the AxiSlavePort interface. The data
// width is the model's (the storage of its RDATA pin).
#pragma once

#include <cstdint>

#include "axi/axi4_slave.hpp"
#include "harness/bus.hpp"
#include "harness/pins.hpp"
#include "harness/port.hpp"

namespace cosim::tb::harness {

// What a harness puts behind a DUT's AXI4 master.
class AxiSlavePort {
 public:
  virtual ~AxiSlavePort() = default;
  virtual void drive(Axi4Pins& pins) = 0;
  virtual void tick(const Axi4Pins& pins) = 0;
};

// Any slave with drive(Axi4Pins&) / tick(const Axi4Pins&), by reference.
template <class Slave>
class AxiSlaveRef final : public AxiSlavePort {
 public:
  explicit AxiSlaveRef(Slave& s) : s_(s) {}
  void drive(Axi4Pins& pins) override { s_.drive(pins); }
  void tick(const Axi4Pins& pins) override { s_.tick(pins); }

 private:
  Slave& s_;
};

// The data pin of master `Bus`: RDATA, or WDATA for a master that only writes.
template <class Model, class Bus, bool kReads = COSIM_HAS(Bus, rdata, Model)>
struct AxiDataPin {
  using type = decltype(Bus::rdata(std::declval<Model&>()));
};
template <class Model, class Bus>
struct AxiDataPin<Model, Bus, false> {
  using type = decltype(Bus::wdata(std::declval<Model&>()));
};

// The DUT's AXI4 master interface `Bus` (generated binding, harness/bus.hpp).
// Optional signals the top lacks take their AXI defaults: ARSIZE / AWSIZE the
// full data width, ARBURST / AWBURST INCR, IDs 0, WSTRB all lanes. A master
// with read channels only (AR, R) or write channels only (AW, W, B: the
// manifest's `channels`) issues no request on the other side.
template <class Model, class Bus>
class AxiMasterBinder final : public Port<Model> {
 public:
  static constexpr bool kReads = COSIM_HAS(Bus, arvalid, Model);
  static constexpr bool kWrites = COSIM_HAS(Bus, awvalid, Model);
  static constexpr std::size_t kDataBytes = pin_bytes<typename AxiDataPin<Model, Bus>::type>;
  static_assert(kDataBytes <= kAxiMaxDataBytes, "AXI data wider than Axi4Pins holds");
  static constexpr uint8_t kFullSize = kDataBytes >= 64 ? 6 : kDataBytes >= 32 ? 5 : kDataBytes >= 16 ? 4
                                     : kDataBytes >= 8 ? 3 : kDataBytes >= 4 ? 2 : kDataBytes >= 2 ? 1 : 0;

  explicit AxiMasterBinder(AxiSlavePort& slave) : slave_(slave) {}

  // Slave outputs -> master inputs.
  void drive(Model& m) override {
    slave_.drive(p_);
    if constexpr (kReads) {
      set_pin(Bus::arready(m), p_.arready);
      set_pin(Bus::rvalid(m), p_.rvalid);
      if (p_.rvalid) bytes_to_pin(Bus::rdata(m), p_.rdata.data(), kDataBytes);
      if constexpr (COSIM_HAS(Bus, rresp, Model)) set_pin(Bus::rresp(m), p_.rresp);
      if constexpr (COSIM_HAS(Bus, rlast, Model)) set_pin(Bus::rlast(m), p_.rlast);
      if constexpr (COSIM_HAS(Bus, rid, Model)) set_pin(Bus::rid(m), p_.rid);
    }
    if constexpr (kWrites) {
      set_pin(Bus::awready(m), p_.awready);
      set_pin(Bus::wready(m), p_.wready);
      set_pin(Bus::bvalid(m), p_.bvalid);
      if constexpr (COSIM_HAS(Bus, bresp, Model)) set_pin(Bus::bresp(m), p_.bresp);
      if constexpr (COSIM_HAS(Bus, bid, Model)) set_pin(Bus::bid(m), p_.bid);
    }
  }

  // Master outputs -> slave, which sees this cycle's handshakes.
  void sample(const Model& m, uint64_t time) override {
    (void)time;
    if constexpr (kReads) sample_reads(m);
    if constexpr (kWrites) sample_writes(m);
    // Bursts accepted and not yet finished (the last read beat, the write
    // response), from this cycle's handshakes.
    reads_owed_ += (p_.arvalid && p_.arready) - (p_.rvalid && p_.rready && p_.rlast);
    writes_owed_ += (p_.awvalid && p_.awready) - (p_.bvalid && p_.bready);
    slave_.tick(p_);
  }
  bool owed() const override { return reads_owed_ > 0 || writes_owed_ > 0; }
  int clock() const override { return bus_clock<Bus>; }

 private:
  void sample_reads(const Model& m) {
    p_.arvalid = Bus::arvalid(m);
    p_.araddr = Bus::araddr(m);
    p_.arlen = Bus::arlen(m);
    if constexpr (COSIM_HAS(Bus, arsize, Model)) p_.arsize = Bus::arsize(m); else p_.arsize = kFullSize;
    if constexpr (COSIM_HAS(Bus, arburst, Model)) p_.arburst = Bus::arburst(m); else p_.arburst = 1;
    if constexpr (COSIM_HAS(Bus, arid, Model)) p_.arid = Bus::arid(m);
    p_.rready = Bus::rready(m);
  }
  void sample_writes(const Model& m) {
    p_.awvalid = Bus::awvalid(m);
    p_.awaddr = Bus::awaddr(m);
    p_.awlen = Bus::awlen(m);
    if constexpr (COSIM_HAS(Bus, awsize, Model)) p_.awsize = Bus::awsize(m); else p_.awsize = kFullSize;
    if constexpr (COSIM_HAS(Bus, awburst, Model)) p_.awburst = Bus::awburst(m); else p_.awburst = 1;
    if constexpr (COSIM_HAS(Bus, awid, Model)) p_.awid = Bus::awid(m);
    p_.wvalid = Bus::wvalid(m);
    if (p_.wvalid) pin_to_bytes(Bus::wdata(m), p_.wdata.data(), kDataBytes);
    if constexpr (COSIM_HAS(Bus, wstrb, Model)) {
      p_.wstrb = Bus::wstrb(m);
    } else {
      p_.wstrb = kDataBytes >= 64 ? ~uint64_t{0} : (uint64_t{1} << kDataBytes) - 1;
    }
    p_.wlast = Bus::wlast(m);
    p_.bready = Bus::bready(m);
  }

  AxiSlavePort& slave_;
  Axi4Pins p_;
  int64_t reads_owed_ = 0, writes_owed_ = 0;
};

}  // namespace cosim::tb::harness
