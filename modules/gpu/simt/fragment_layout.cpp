#include "modules/gpu/simt/fragment_layout.h"

namespace ohmvp::gpu {
namespace {

// The 4 x 8 block of C that threadgroup `group` computes: its first row and column.
MatrixPosition group_block(MatrixShape shape, uint32_t group) {
  const uint32_t octet = group % 4, half = group / 4;
  const uint32_t row_blocks_per_half = matrix_geometry(shape).m / 8;
  const uint32_t row_block = octet % row_blocks_per_half + half * row_blocks_per_half;
  const uint32_t col_block = octet / row_blocks_per_half;
  return {row_block * 4, col_block * 8};
}

// Turing (and mma.sync): the matrix as blocks of 8 rows (A, C: rows of the matrix; B: its
// columns) by 16 bytes of k (A, B) or 8 elements (C), in order with the block row fastest. Lane l
// holds, of each block, row l / 4 and the elements of bytes 4 (l % 4) to 4 (l % 4) + 3 of k, or
// of C columns 2 (l % 4) and 2 (l % 4) + 1.
MatrixPosition block_position(const FragmentSpec& spec, uint32_t lane, uint32_t index) {
  const uint32_t group = lane / 4, thread = lane % 4;
  const bool accumulator = spec.role == MatrixRole::c;
  const uint32_t per_block = accumulator ? 2 : 32 / spec.element_bits();
  const uint32_t along = accumulator ? 8 : 128 / spec.element_bits();  // block length along k or n
  const uint32_t e = index % spec.distinct_elements();
  const uint32_t block = e / per_block;
  const uint32_t offset = thread * per_block + e % per_block;
  if (spec.role == MatrixRole::b) {
    const uint32_t row_blocks = matrix_rows(spec.shape, spec.role) / along;
    return {block % row_blocks * along + offset, block / row_blocks * 8 + group};
  }
  const uint32_t row_blocks = matrix_rows(spec.shape, spec.role) / 8;
  return {block % row_blocks * 8 + group, block / row_blocks * along + offset};
}

MatrixPosition accumulator(const FragmentSpec& spec, uint32_t lane, uint32_t index) {
  const MatrixPosition block = group_block(spec.shape, lane / 4);
  const uint32_t thread = lane % 4;
  if (spec.element == DataType::f16) return {block.row + thread, block.col + index};
  return {block.row + (thread & 1) + (index & 2),
          block.col + (index & 4) + (thread & 2) + (index & 1)};
}

MatrixPosition volta_operand(const FragmentSpec& spec, uint32_t lane, uint32_t index) {
  const uint32_t group = lane / 4, thread = lane % 4;
  const MatrixPosition block = group_block(spec.shape, group);
  if (spec.role == MatrixRole::a) {
    if (spec.layout == MatrixLayout::row) return {block.row + thread, index};
    return {block.row + index % 4, thread * 4 + index / 4};
  }
  const uint32_t first_col = block.col + group / 4 * 4;  // the octet's half its group loads
  if (spec.layout == MatrixLayout::col) return {index, first_col + thread};
  return {thread * 4 + index / 4, first_col + index % 4};
}

// Each element once: lane after lane along A's rows (k fastest) or B's columns (k fastest).
MatrixPosition linear_operand(const FragmentSpec& spec, uint32_t lane, uint32_t index) {
  const uint32_t k = matrix_geometry(spec.shape).k;
  const uint32_t flat = lane * spec.elements() + index;
  if (spec.role == MatrixRole::a) return {flat / k, flat % k};
  return {flat % k, flat / k};
}

// mma.sync.m8n8k4 (PTX ISA): lane l is thread r = l % 4 + 4 (l >= 16) of its quad pair. A row-
// major A or column-major B fragment is the thread's row of A (column of B): its 4 k; a column-
// major A or row-major B one is k = l % 4 of rows (columns) 4 (l >= 16) to + 3. An f16
// accumulator is the thread's row of 8; a 32-bit one pairs like Volta's HMMA.884.
MatrixPosition quad_pair_position(const FragmentSpec& spec, uint32_t lane, uint32_t index) {
  const uint32_t thread = lane % 4, upper = lane >= 16 ? 4 : 0;
  switch (spec.role) {
    case MatrixRole::a:
      if (spec.layout == MatrixLayout::row) return {thread + upper, index};
      return {upper + index, thread};
    case MatrixRole::b:
      if (spec.layout == MatrixLayout::col) return {index, thread + upper};
      return {thread, upper + index};
    case MatrixRole::c:
      break;
  }
  if (spec.element == DataType::f16) return {thread + upper, index};
  return {upper + (lane & 1) + (index & 2), (index & 4) + (lane & 2) + (index & 1)};
}

bool block_mapped(const FragmentSpec& spec) {
  return spec.shape != MatrixShape::m8n8k4 &&
         (spec.mapping == FragmentMapping::turing || is_mma_shape(spec.shape));
}

}  // namespace

uint32_t FragmentSpec::distinct_elements() const {
  if (!block_mapped(*this)) return elements();
  return matrix_rows(shape, role) * matrix_cols(shape, role) / k_fragment_lanes;
}

MatrixPosition fragment_position(const FragmentSpec& spec, uint32_t lane, uint32_t index) {
  if (spec.shape == MatrixShape::m8n8k4) return quad_pair_position(spec, lane, index);
  if (block_mapped(spec)) return block_position(spec, lane, index);
  if (spec.role == MatrixRole::c) return accumulator(spec, lane, index);
  if (spec.element == DataType::f16) return volta_operand(spec, lane, index);
  return linear_operand(spec, lane, index);
}

FragmentSpec fragment_spec_of(const Instruction& instruction, FragmentMapping mapping) {
  return storage_spec({instruction.mod.shape, role_of(instruction.op), instruction.type,
                       instruction.mod.layout_a, mapping});
}

uint32_t default_stride(const FragmentSpec& spec) {
  return spec.layout == MatrixLayout::col ? matrix_rows(spec.shape, spec.role)
                                          : matrix_cols(spec.shape, spec.role);
}

FragmentSpec storage_spec(const FragmentSpec& spec) {
  if (spec.shape != MatrixShape::m8n8k32) return spec;
  FragmentSpec bytes = spec;
  bytes.shape = MatrixShape::m8n8k16;
  if (is_sub_byte(spec.element)) bytes.element = DataType::u8;
  return bytes;
}

FragmentRuns fragment_runs(const FragmentSpec& spec) {
  const MatrixLayout memory = spec.layout;
  const uint32_t elements = spec.distinct_elements();
  const auto contiguous = [&](uint32_t length) {
    for (uint32_t lane = 0; lane < k_fragment_lanes; ++lane)
      for (uint32_t start = 0; start < elements; start += length) {
        const MatrixPosition first = fragment_position(spec, lane, start);
        for (uint32_t i = 1; i < length; ++i) {
          const MatrixPosition p = fragment_position(spec, lane, start + i);
          const bool next = memory == MatrixLayout::col
                                ? p.col == first.col && p.row == first.row + i
                                : p.row == first.row && p.col == first.col + i;
          if (!next) return false;
        }
      }
    return true;
  };
  uint32_t length = 16 / spec.element_bytes();
  while (length > 1 && (elements % length != 0 || !contiguous(length))) length /= 2;
  return {elements / length, length};
}

}  // namespace ohmvp::gpu
