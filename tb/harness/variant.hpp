// Verilated variants as the C++ side sees them. Every variant of a DUT's
// manifest (`variants:`) is Verilated into its own model class V<variant>,
// so any variant links with any other in one binary. A DUT's core code is a
// class template over that model class, instantiated once per variant by the
// build (cosim_core_over_variants, cmake/cosim_dut.cmake), which also
// describes the variant here (VariantOf). Callers pick a variant through a
// ModelBuild: the variant and the factory of the core's model-specific half,
// behind a small abstract seam (virtual calls per register access or run,
// never per clock cycle: the clock loop stays inside the template).
#pragma once

#include <memory>
#include <string>
#include <type_traits>

namespace cosim::tb::harness {

// One variant of a DUT's manifest.
struct Variant {
  const char* name;  // the manifest's variant, e.g. "vta_rtl_trace"
  bool assertions;   // Verilated with its SystemVerilog assertions (--assert)
  bool trace;        // FST-capable (cosim run --trace)
};

// Defined once per variant, in the source cosim_core_over_variants generates
// for it (before it instantiates a core over Model).
template <class Model>
struct VariantOf {
  static const Variant kVariant;
};

// A core over one variant: what a caller hands the core to pick it. `Seam`
// is the core's abstract model-specific half, `make` builds the variant's.
template <class Seam, class... Args>
struct ModelBuild {
  const Variant& variant;
  std::unique_ptr<Seam> (*make)(Args...);
};

// The ModelBuild of variant Model: its description and Impl::make, Impl being
// the core's model-specific half over Model. One object per variant, made on
// first use (what each core's <Core>Over<Model>::build() returns).
template <class Build, class Model, class Impl>
const Build& build_of() {
  static const Build b{VariantOf<Model>::kVariant, &Impl::make};
  return b;
}

// The variants a binary gives a DUT's wrapper: the default, checked one
// (assertions, no tracing) and, when linked, a fast one (no assertions:
// cosim run --fast) and a traced one (checked and FST-capable: a run with a
// waveform). Verilator's --trace costs every evaluation (11 % of a VTA conv2d
// run's instructions, tb/wave/README.md) even when no waveform is written, so
// only --wave pays it.
template <class Build>
struct Builds {
  const Build* checked = nullptr;
  const Build* fast = nullptr;
  const Build* traced = nullptr;
  // The fast build when asked for and linked; else the traced one for a
  // waveform when linked; else the checked one.
  const Build& pick(bool want_fast, bool want_wave = false) const {
    if (want_fast && fast != nullptr) return *fast;
    return want_wave && traced != nullptr ? *traced : *checked;
  }
  // Which one pick(want_fast, ...) gives, as report.json and report.html name it:
  // "fast", or "checked" (the default build, with the assertions its
  // manifest enables).
  const char* name(bool want_fast) const { return want_fast && fast != nullptr ? "fast" : "checked"; }
};

// The Builds of a DUT's core template `Over` (<Core>Over<Model>::build())
// over the model classes of its checked, fast and traced variants.
template <template <class> class Over, class Checked, class Fast, class Traced>
auto builds_over() {
  using Build = std::decay_t<decltype(Over<Checked>::build())>;
  return Builds<Build>{&Over<Checked>::build(), &Over<Fast>::build(), &Over<Traced>::build()};
}

}  // namespace cosim::tb::harness
