// Lowers an int8 ADD (VTA 16-bit scheme, seed 000) to a VTA program whose
// output equals ops::vta_add bit for bit.
//
// The host dequantizes both inputs to 16-bit values (quant::vta_add_dequantize,
// broadcasting size-1 dims), laid out flat in blocks of 16 (the element count
// is zero-padded up to a multiple of 16). The program walks chunks that fit a
// thread's share of ACC: LOAD ACC A and B, then ALU ADD (register B), MUL,
// SHR, ADD zp, MIN 127, MAX -128, each one instruction over the chunk, and a
// STORE of the chunk. Chunks alternate between two ACC halves so the STORE of
// one chunk overlaps the loads and ALU work of the next (LOAD ACC runs on the
// COMPUTE engine, so it does not overlap the ALU).
#pragma once

#include "ops/add.hpp"
#include "quant/vta_quant.hpp"
#include "tensor/tensor.hpp"
#include "vta_compiler/compiled_program.hpp"

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
