#pragma once

#include <array>
#include <cstdint>

#include "modules/gpu/ptx/ptx_matrix.h"

namespace ohmvp::gpu {

// Which matrix element each lane's fragment element holds (docs/gpu_tensor.md), per architecture:
//  - volta: the mapping Raihan, Goli and Aamodt (ISPASS 2019) measured on the Titan V. lane =
//    threadgroup * 4 + thread; octet X is threadgroups X and X + 4; each threadgroup computes a
//    4 x 8 block of D from its own A rows and the octet's B columns, half of which its partner
//    loaded, so every f16 A and B element is held by several lanes (two on m16n16k16). The
//    accumulator mapping depends on the precision (32-bit: pairs; f16: a row of 8 per thread),
//    not on the memory layout. s8/u8 A and B: each element once, lanes in order.
//  - turing: each element held by one lane (the paper: loaded once). Every fragment is a run of
//    8-row blocks in the layout of ldmatrix and mma.sync (PTX ISA): lane l holds row l / 4 of
//    each block, 4 bytes of k (A, B) or two elements (C, D) at l % 4. An f16 A or B fragment
//    holds fewer elements than its 16 halves; the rest repeat them (element i is element i %
//    distinct_elements()).
// mma.sync (m16n8k8, m8n8k16) uses the PTX ISA's mapping, the turing one, whichever is chosen.
// mma.sync.m8n8k4 (Volta) has its own, the PTX ISA's too: each quad pair holds its own tile, the
// positions below are within it (tile_of_lane says whose).
enum class FragmentMapping : uint8_t { volta, turing };

struct FragmentSpec {
  MatrixShape shape = MatrixShape::m16n16k16;
  MatrixRole role = MatrixRole::a;
  DataType element = DataType::f16;
  MatrixLayout layout = MatrixLayout::row;  // the memory layout of A or B (C's ignores it)
  FragmentMapping mapping = FragmentMapping::volta;

  uint32_t elements() const { return fragment_elements(shape, role, element); }
  uint32_t element_bytes() const { return static_cast<uint32_t>(type_bytes(element)); }
  uint32_t element_bits() const { return type_bits(element); }
  // Fragment elements 0 .. distinct_elements() - 1 hold different matrix elements; element i
  // holds the same one as element i % distinct_elements() (elements() unless Turing f16 A/B).
  uint32_t distinct_elements() const;
};

struct MatrixPosition {
  uint32_t row = 0;
  uint32_t col = 0;
  bool operator==(const MatrixPosition& o) const { return row == o.row && col == o.col; }
};

constexpr uint32_t k_fragment_lanes = 32;

// The element of the matrix that fragment element `index` of `lane` holds (index <
// spec.elements(), lane < 32), in the lane's tile.
MatrixPosition fragment_position(const FragmentSpec& spec, uint32_t lane, uint32_t index);

// Which of the instruction's tiles_per_warp(shape) tiles `lane` holds a part of: its quad pair
// (lanes 4q..4q+3 and 4q+16..4q+19 are quad pair q) on m8n8k4, 0 on the other shapes.
inline uint32_t tile_of_lane(MatrixShape shape, uint32_t lane) {
  return shape == MatrixShape::m8n8k4 ? lane / 4 % 4 : 0;
}

// Offset in elements of matrix position `p` from the matrix's first element: row-major rows
// are `stride` elements apart, column-major columns.
inline uint64_t element_offset(MatrixPosition p, MatrixLayout layout, uint64_t stride) {
  return layout == MatrixLayout::col ? uint64_t{p.col} * stride + p.row
                                     : uint64_t{p.row} * stride + p.col;
}

// The same fragment as the bytes it moves to and from memory: the 4-bit mode's (m8n8k32) s4/u4 A
// or B as the u8 fragment of m8n8k16, whose byte i holds elements 2i (low nibble) and 2i + 1 (its
// row-major A and column-major B keep k's pairs in one byte), and its s32 C and D as m8n8k16's,
// laid out alike. Any other fragment is its own.
FragmentSpec storage_spec(const FragmentSpec& spec);

// The fragment a wmma.load/wmma.store moves under `mapping`, as it moves it (storage_spec), and
// the stride it takes when the instruction gives none (the tile's own row length for .row, column
// length for .col), in that fragment's elements.
FragmentSpec fragment_spec_of(const Instruction& instruction, FragmentMapping mapping);
uint32_t default_stride(const FragmentSpec& spec);
// A stride the instruction gives, in its own elements, in those of fragment_spec_of: halved for
// s4/u4 (two to a byte).
inline uint64_t storage_stride(const Instruction& instruction, uint64_t stride) {
  return is_sub_byte(instruction.type) ? stride / 2 : stride;
}

// Byte offset of fragment element `index` of `lane` from the tile's first byte, the tile laid
// out as spec.layout says with rows (or columns) `stride` elements apart.
inline uint64_t fragment_byte_offset(const FragmentSpec& spec, uint64_t stride, uint32_t lane,
                                     uint32_t index) {
  return element_offset(fragment_position(spec, lane, index), spec.layout, stride) *
         spec.element_bytes();
}

// How a lane's fragment moves to and from memory (laid out as spec.layout says): `runs` accesses of
// `run_elements` consecutive fragment elements that are contiguous in memory, at most 16 bytes
// each (one LD/ST of up to 128 bits, as Volta's wmma.load expands; Raihan et al. 2019), covering
// the distinct elements only: the repeats of a Turing f16 fragment are register copies.
struct FragmentRuns {
  uint32_t runs = 0;
  uint32_t run_elements = 0;
};
FragmentRuns fragment_runs(const FragmentSpec& spec);

}  // namespace ohmvp::gpu
