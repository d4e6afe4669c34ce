#pragma once

#include <cstdint>
#include <vector>

#include "modules/gpu/ptx/ptx_matrix.h"

namespace ohmvp::gpu {

// D = A x B + C on one tile, as the model's tensor cores compute it (docs/gpu_tensor.md): the
// k dimension goes in steps of four, each a four-element dot product (FEDP, Raihan et al. 2019)
// whose products are exact and whose sum with the accumulator is rounded once to the
// accumulator's precision (round to nearest even). The accumulator is f32 when C or D is f32
// (mixed precision) and f16 when both are f16 (FP16 mode); D is the accumulator converted to
// D's type at the end. s8/u8 (s4/u4) products are summed exactly in s32, wrapping unless
// `satfinite`.
// Matrices hold raw element bits: A m x k and B k x n row-major, C and D m x n row-major.
struct TileTypes {
  DataType a = DataType::f16;   // A's element type: f16, s8, u8, s4 or u4
  DataType b = DataType::f16;   // B's: the same, but for s8 with u8 (s4 with u4) in mma.sync
  DataType c = DataType::f32;   // f16, f32 or s32
  DataType d = DataType::f32;
  bool satfinite = false;
};

std::vector<uint32_t> multiply_accumulate_tile(const MatrixGeometry& geometry,
                                               const TileTypes& types,
                                               const std::vector<uint32_t>& a,
                                               const std::vector<uint32_t>& b,
                                               const std::vector<uint32_t>& c);

// One FEDP step: `accumulator` + a[0]*b[0] + ... + a[3]*b[3] of f16 elements, rounded once.
float dot4_f32(float accumulator, const uint16_t a[4], const uint16_t b[4]);
uint16_t dot4_f16(uint16_t accumulator, const uint16_t a[4], const uint16_t b[4]);

}  // namespace ohmvp::gpu
