// Lowers an int8 ADD (VTA 16-bit scheme, seed 000) to a VTA program whose
// output equals ops::vta_add bit for bit.
//
// The host dequantizes both inputs to 16-bit values (quant::vta_add_dequantize,
// broadcasting size-1 dims), laid out flat in blocks of 16 (the element count
// is zero-padded up to a multiple of 16): one ACC entry per block. Each value
// is stored as two int8 bytes in WGT beside four INP selector rows
// (add_operands.hpp), so per entry the program runs a GEMM reset and one GEMM
// that leaves A' + B' in ACC, then MUL, SHR, ADD zp and the clamps (MIN 127,
// MAX -128, each only when some output can cross it). The LOAD engine brings
// the operands (64 bytes per entry) in under COMPUTE's work on the previous
// chunk, and STORE writes a chunk while the next computes: chunks alternate
// between two shares of ACC and of WGT, with small chunks at both ends of the
// layer (what does not overlap). Values without a two-byte split (only
// parameters outside the scheme's normalisation give them) fall back to
// loading A' and B' into ACC as int32 (COMPUTE moves them) and an ALU ADD.
#pragma once

#include "ops/add.hpp"
#include "vta/golden/vta_quant.hpp"
#include "tensor/tensor.hpp"
#include "vta/compiler/compiled_program.hpp"

namespace cosim::vta {

// a, b: int8 tensors of broadcast-compatible shapes. The output tensor has the
// broadcast shape. Throws cosim::InputError for bad types, incompatible
// shapes, an empty output or a DRAM image above opt.dram_limit.
CompiledProgram compile_add(const Tensor& a, const Tensor& b, const quant::VtaAddParams& p,
                            const CompileOptions& opt = {});

// TFLite ADD (requant: tflite_double / tflite_single): the output equals
// ops::add(a, b, p) bit for bit. The host does TFLite's per-input rescale
// requant((x - zp) << 20, m_i) (int32, into ACC; the VTA scheme dequantizes
// on the host too); VTA adds the two and runs the output requantization, zp
// and clamp as a TfliteRequantProgram. Its vectors take the first ACC
// entries; per chunk, B's entries become temporary 0 after the ADD and one
// more chunk-sized region holds temporary 1.
CompiledProgram compile_add(const Tensor& a, const Tensor& b, const ops::AddParams& p,
                            const CompileOptions& opt = {});

}  // namespace cosim::vta
