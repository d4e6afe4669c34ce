#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "modules/gpu/ptx/instruction.h"
#include "modules/gpu/ptx/ptx_decode.h"

namespace ohmvp::gpu {

// The tensor-core instructions' shapes and fragment sizes, and their decoding (wmma.load,
// wmma.store, wmma.mma, mma.sync, ldmatrix). docs/gpu_tensor.md lists what is accepted.

struct MatrixGeometry {
  uint32_t m = 0, n = 0, k = 0;
};

// A, B, or the accumulator (C of wmma.load.c / wmma.mma, and D).
enum class MatrixRole : uint8_t { a, b, c };

// One tile's m, n and k.
MatrixGeometry matrix_geometry(MatrixShape shape);
// Tiles one warp instruction multiplies: 4 for mma.sync.m8n8k4 (each quad pair, lanes 4q..4q+3
// and 4q+16..4q+19, its own 8x8x4 tile), 1 for the other shapes.
uint32_t tiles_per_warp(MatrixShape shape);
// mma.sync's shapes (m16n8k8, m8n8k16, m8n8k4, m8n8k32), whose fragments are laid out as the PTX
// ISA says (wmma's m8n8k32 too).
bool is_mma_shape(MatrixShape shape);
std::string_view shape_name(MatrixShape shape);
std::string_view layout_name(MatrixLayout layout);

// Rows and columns of the matrix a fragment of `role` holds: A is m x k, B k x n, C and D m x n.
uint32_t matrix_rows(MatrixShape shape, MatrixRole role);
uint32_t matrix_cols(MatrixShape shape, MatrixRole role);

// Elements of the matrix each lane holds in its fragment. wmma's f16 A and B fragments hold 16
// per lane whatever the shape (every element is held by more than one lane: the Volta mapping,
// docs/gpu_tensor.md); every other fragment holds each element of its tile once (rows x cols x
// tiles_per_warp / 32).
uint32_t fragment_elements(MatrixShape shape, MatrixRole role, DataType element);
// 32-bit registers of that fragment (f16 pairs, s8/u8 quadruples and s4/u4 octets share one).
uint32_t fragment_registers(MatrixShape shape, MatrixRole role, DataType element);

// The role a wmma.load/wmma.store opcode moves.
MatrixRole role_of(Opcode op);

// Decodes a wmma.*, mma.* or ldmatrix instruction (`pieces` is `word` split at its dots). Throws
// DecodeError for a shape, layout, type or operand the model does not support.
void decode_matrix_instruction(std::string_view word, const std::vector<std::string_view>& pieces,
                               std::vector<RawOperand>& operands, const Function& function,
                               Instruction& inst);

}  // namespace ohmvp::gpu
