#pragma once

#include <cstdint>

#include "modules/gpu/ptx/instruction.h"

namespace ohmvp::gpu {

// IEEE binary16 (f16) and bfloat16 (bf16) held as raw 16-bit patterns.
//
// Widening (to f32/f64) is exact; a NaN keeps its sign and payload and becomes quiet.
// Narrowing rounds once from the exact source value with `mode` (rn: nearest even; rz: toward
// zero; rm: toward -inf; rp: toward +inf; the integral modes rni.. and `none` mean rn), producing
// subnormals where the format has them; overflow gives infinity or the largest finite value as
// the mode dictates. Any NaN narrows to the canonical NaN 0x7fff, as NVIDIA GPUs produce it.

float f16_to_f32(uint16_t bits);
double f16_to_f64(uint16_t bits);
float bf16_to_f32(uint16_t bits);
double bf16_to_f64(uint16_t bits);

uint16_t f32_to_f16(float value, RoundingMode mode = RoundingMode::rn);
uint16_t f64_to_f16(double value, RoundingMode mode = RoundingMode::rn);
uint16_t f32_to_bf16(float value, RoundingMode mode = RoundingMode::rn);
uint16_t f64_to_bf16(double value, RoundingMode mode = RoundingMode::rn);

constexpr uint16_t canonical_half_nan = 0x7fff;

}  // namespace ohmvp::gpu
