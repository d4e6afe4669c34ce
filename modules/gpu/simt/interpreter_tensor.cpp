// wmma.load, wmma.store, wmma.mma and mma.sync: warp-wide fragments in the lanes' registers
// (docs/gpu_tensor.md).
#include <array>
#include <cstring>
#include <vector>

#include "modules/gpu/simt/fragment_layout.h"
#include "modules/gpu/simt/interpreter_internal.h"
#include "modules/gpu/simt/tile_arithmetic.h"

namespace ohmvp::gpu::detail {
namespace {

constexpr uint64_t k_whole_warp = 0xffffffffull;

bool whole_warp(Exec& x) {
  if (x.warp.warp_size() == k_fragment_lanes && x.lanes == k_whole_warp) return true;
  x.fail(FaultKind::unsupported, 0, "wmma and mma.sync need all 32 lanes of a 32-lane warp");
  return false;
}

uint32_t element_mask(uint32_t width) {
  return width >= 32 ? 0xffffffffu : (1u << width) - 1;
}

// Element `index` of a fragment of `width`-bit elements packed into 32-bit registers, the first
// in the low bits.
uint32_t get_element(const WarpState& warp, const Operand& fragment, uint32_t lane, uint32_t index,
                     uint32_t width) {
  const uint32_t bit = index * width;
  const uint64_t reg = warp.reg(fragment.vector_regs[bit / 32], lane);
  return static_cast<uint32_t>(reg >> (bit % 32)) & element_mask(width);
}

void set_element(WarpState& warp, const Operand& fragment, uint32_t lane, uint32_t index,
                 uint32_t width, uint32_t bits) {
  const uint32_t bit = index * width;
  uint64_t& reg = warp.reg(fragment.vector_regs[bit / 32], lane);
  const uint32_t shift = bit % 32;
  const uint32_t mask = element_mask(width) << shift;
  reg = (static_cast<uint32_t>(reg) & ~mask) | ((bits << shift) & mask);
}

uint32_t read_bits(const uint8_t* bytes, uint32_t count) {
  uint32_t value = 0;
  std::memcpy(&value, bytes, count);  // little-endian host
  return value;
}

// A fragment whose first `loaded` elements came from memory: the elements after them repeat
// those (a Turing f16 A or B fragment; register moves, no memory access).
void copy_repeats(WarpState& warp, const Operand& fragment, uint32_t lane, uint32_t loaded,
                  uint32_t bytes) {
  const uint32_t elements = uint32_t{fragment.vector_count} * 4 / bytes;
  for (uint32_t e = loaded; e < elements; ++e)
    set_element(warp, fragment, lane, e, bytes * 8,
                get_element(warp, fragment, lane, e % loaded, bytes * 8));
}

}  // namespace

void execute_fragment_memory(Exec& x, bool& pending) {
  if (!whole_warp(x)) return;
  const Instruction& in = x.instruction;
  const bool is_store = in.op == Opcode::wmma_store_d;
  const FragmentSpec spec = fragment_spec_of(in, x.context.fragment_mapping);
  const Operand& fragment = in.operands[is_store ? 1 : 0];
  const Operand& address = in.operands[is_store ? 0 : 1];
  const uint32_t element_bytes = spec.element_bytes(), element_bits = spec.element_bits();
  const uint32_t elements = spec.distinct_elements();
  const uint32_t tile_stride = default_stride(spec);
  const FragmentRuns runs = fragment_runs(spec);
  const AddressSource address_of = address_source(x, address, in.space);
  MemoryRequest& request = x.warp.memory_request();
  request.lanes = 0;
  for_each_lane(x.lanes, [&](uint32_t lane) {
    if (x.failed()) return;
    // The instruction's stride counts its own elements (4-bit ones for s4/u4).
    const uint64_t given = in.operand_count == 3 ? static_cast<uint32_t>(read(x, 2, lane)) : 0;
    const uint64_t stride = in.operand_count == 3 ? storage_stride(in, given) : tile_stride;
    if (stride < tile_stride) {
      x.fail(FaultKind::unsupported, lane, "wmma stride shorter than the tile");
      return;
    }
    const uint64_t raw = lane_address(x, address_of, lane);
    const Place place =
        in.space == StateSpace::generic ? resolve_generic(raw) : Place{in.space, raw};
    // Rows (columns) 16 bytes apart, as the PTX ISA asks, and a tile aligned to the widest
    // access (16 bytes; the ISA's 256-bit alignment is more than the model needs).
    const bool whole_rows = in.operand_count < 3 || given * type_bits(in.type) % 128 == 0;
    if (place.address % 16 != 0 || !whole_rows) {
      x.fail(FaultKind::misaligned_address, lane,
             "wmma needs a 16-byte aligned tile and a stride of a multiple of 16 bytes", raw,
             in.space);
      return;
    }
    const auto offset = [&](uint32_t index) {
      return fragment_byte_offset(spec, stride, lane, index);
    };
    if (place.space == StateSpace::global) {
      const uint64_t first = offset(0);
      const bool leader = request.lanes == 0;
      request.lanes |= uint64_t{1} << lane;
      request.space[lane] = StateSpace::global;
      request.address[lane] = place.address + first;
      for (uint32_t r = 0; r < runs.runs; ++r) {
        const int64_t run = static_cast<int64_t>(offset(r * runs.run_elements) - first);
        if (leader) request.run_offset[r] = run;
        if (run != request.run_offset[r]) {
          x.fail(FaultKind::unsupported, lane, "wmma lanes with different strides");
          return;
        }
      }
      if (is_store)
        for (uint32_t e = 0; e < elements; ++e) {
          const uint32_t bits = get_element(x.warp, fragment, lane, e, element_bits);
          std::memcpy(request.data[lane].data() + e * element_bytes, &bits, element_bytes);
        }
      return;
    }
    if (place.space != StateSpace::shared) {
      x.fail(FaultKind::unsupported, lane, "wmma outside global and shared memory", raw,
             place.space);
      return;
    }
    for (uint32_t e = 0; e < elements; ++e) {
      uint8_t* pointer =
          immediate_pointer(x, place.space, place.address + offset(e), element_bytes, lane);
      if (!pointer) {
        x.fail(FaultKind::out_of_window, lane, "", raw, place.space);
        return;
      }
      if (is_store) {
        const uint32_t bits = get_element(x.warp, fragment, lane, e, element_bits);
        std::memcpy(pointer, &bits, element_bytes);
      } else {
        set_element(x.warp, fragment, lane, e, element_bits, read_bits(pointer, element_bytes));
      }
    }
    if (!is_store) copy_repeats(x.warp, fragment, lane, elements, element_bytes);
  });
  if (x.failed() || request.lanes == 0) return;
  request.kind = is_store ? MemoryKind::store : MemoryKind::load;
  request.function = x.function;
  request.pc = x.pc;
  request.bytes = runs.run_elements * element_bytes;
  request.type = spec.element;
  request.vector_width = 1;
  request.atomic_op = AtomicOp::none;
  request.destination = is_store ? Operand{} : fragment;
  request.run_count = static_cast<uint8_t>(runs.runs);
  request.fragment = !is_store;
  request.filtered = false;
  pending = true;
}

void write_loaded_fragment(WarpState& warp, const MemoryRequest& request) {
  const uint32_t element_bytes = static_cast<uint32_t>(type_bytes(request.type));
  const uint32_t element_bits = element_bytes * 8;
  const uint32_t elements = request.run_count * request.bytes / element_bytes;
  for_each_lane(request.lanes, [&](uint32_t lane) {
    for (uint32_t e = 0; e < elements; ++e)
      set_element(warp, request.destination, lane, e, element_bits,
                  read_bits(request.data[lane].data() + e * element_bytes, element_bytes));
    copy_repeats(warp, request.destination, lane, elements, element_bytes);
  });
}

namespace {

// The whole matrix of tile `tile` that the warp's fragment holds, row-major; an element several
// lanes hold is taken from the lowest lane, one a lane holds several times from its first copy.
std::vector<uint32_t> gather_matrix(const Exec& x, const FragmentSpec& spec,
                                    const Operand& fragment, uint32_t tile) {
  const uint32_t cols = matrix_cols(spec.shape, spec.role);
  std::vector<uint32_t> matrix(size_t{matrix_rows(spec.shape, spec.role)} * cols, 0);
  std::vector<bool> seen(matrix.size(), false);
  for (uint32_t lane = 0; lane < k_fragment_lanes; ++lane) {
    if (tile_of_lane(spec.shape, lane) != tile) continue;
    for (uint32_t e = 0; e < spec.distinct_elements(); ++e) {
      const MatrixPosition p = fragment_position(spec, lane, e);
      const size_t i = size_t{p.row} * cols + p.col;
      if (seen[i]) continue;
      seen[i] = true;
      matrix[i] = get_element(x.warp, fragment, lane, e, spec.element_bits());
    }
  }
  return matrix;
}

}  // namespace

void execute_matrix_multiply(Exec& x) {
  if (!whole_warp(x)) return;
  const Instruction& in = x.instruction;
  const MatrixShape shape = in.mod.shape;
  const FragmentMapping mapping = x.context.fragment_mapping;
  const FragmentSpec a{shape, MatrixRole::a, in.source_type, in.mod.layout_a, mapping};
  const DataType b_type = in.mod.b_type == DataType::none ? in.source_type : in.mod.b_type;
  const FragmentSpec b{shape, MatrixRole::b, b_type, in.mod.layout_b, mapping};
  const FragmentSpec c{shape, MatrixRole::c, in.mod.accumulator_type, MatrixLayout::row, mapping};
  const FragmentSpec d{shape, MatrixRole::c, in.type, MatrixLayout::row, mapping};
  const TileTypes types{in.source_type, b_type, in.mod.accumulator_type, in.type, in.mod.satfinite};
  const uint32_t cols = matrix_cols(shape, MatrixRole::c);
  // Every tile is read before D is written: D may share registers with A, B or C.
  std::vector<std::vector<uint32_t>> results;
  for (uint32_t tile = 0; tile < tiles_per_warp(shape); ++tile)
    results.push_back(multiply_accumulate_tile(
        matrix_geometry(shape), types, gather_matrix(x, a, in.operands[1], tile),
        gather_matrix(x, b, in.operands[2], tile), gather_matrix(x, c, in.operands[3], tile)));
  for (uint32_t lane = 0; lane < k_fragment_lanes; ++lane) {
    const std::vector<uint32_t>& result = results[tile_of_lane(shape, lane)];
    for (uint32_t e = 0; e < d.elements(); ++e) {
      const MatrixPosition p = fragment_position(d, lane, e);
      set_element(x.warp, in.operands[0], lane, e, d.element_bits(), result[p.row * cols + p.col]);
    }
  }
}

// ldmatrix: lanes 8i..8i+7 give the row addresses of matrix i (8 rows of 8 b16 elements, 16
// bytes each, in shared memory); lane l receives in register i the two elements of row l / 4 at
// columns 2 (l % 4) and 2 (l % 4) + 1, or with .trans those of column l / 4 at rows 2 (l % 4)
// and 2 (l % 4) + 1 (the PTX ISA's layout, the one mma.sync.m16n8k8 takes).
void execute_ldmatrix(Exec& x) {
  if (!whole_warp(x)) return;
  const Instruction& in = x.instruction;
  const uint32_t matrices = in.mod.vector_width;
  std::array<std::array<uint8_t, 16>, 32> rows{};
  const AddressSource address_of = address_source(x, in.operands[1], in.space);
  for (uint32_t lane = 0; lane < 8 * matrices; ++lane) {
    const uint64_t raw = lane_address(x, address_of, lane);
    const Place place =
        in.space == StateSpace::generic ? resolve_generic(raw) : Place{in.space, raw};
    if (place.space != StateSpace::shared) {
      x.fail(FaultKind::unsupported, lane, "ldmatrix reads shared memory only", raw, place.space);
      return;
    }
    if (place.address % 16 != 0) {
      x.fail(FaultKind::misaligned_address, lane, "ldmatrix rows are 16-byte aligned", raw,
             place.space);
      return;
    }
    const uint8_t* row = immediate_pointer(x, StateSpace::shared, place.address, 16, lane);
    if (!row) {
      x.fail(FaultKind::out_of_window, lane, "", raw, place.space);
      return;
    }
    std::memcpy(rows[lane].data(), row, 16);
  }
  const Operand& destination = in.operands[0];
  for (uint32_t lane = 0; lane < k_fragment_lanes; ++lane)
    for (uint32_t m = 0; m < matrices; ++m) {
      const auto matrix = rows.begin() + 8 * m;
      uint32_t value = 0;
      for (uint32_t j = 0; j < 2; ++j) {
        const uint32_t row = in.mod.transpose ? lane % 4 * 2 + j : lane / 4;
        const uint32_t col = in.mod.transpose ? lane / 4 : lane % 4 * 2 + j;
        value |= read_bits(matrix[row].data() + col * 2, 2) << (16 * j);
      }
      x.warp.reg(destination.vector_regs[m], lane) = value;
    }
}

}  // namespace ohmvp::gpu::detail
