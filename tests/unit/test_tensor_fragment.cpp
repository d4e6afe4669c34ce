#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <vector>

#include "modules/gpu/simt/fragment_layout.h"

using namespace ohmvp::gpu;

namespace {

const MatrixShape k_wmma_shapes[] = {MatrixShape::m16n16k16, MatrixShape::m32n8k16,
                                     MatrixShape::m8n32k16};

// How many (lane, index) pairs hold each element of the matrix.
std::map<std::pair<uint32_t, uint32_t>, uint32_t> holders(const FragmentSpec& spec) {
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> count;
  for (uint32_t lane = 0; lane < 32; ++lane)
    for (uint32_t i = 0; i < spec.elements(); ++i) {
      const MatrixPosition p = fragment_position(spec, lane, i);
      ++count[{p.row, p.col}];
    }
  return count;
}

// Types of the fragments of `role` that wmma moves: f16 and s8 for A and B, f16, f32 and s32 for
// the accumulators.
std::vector<DataType> fragment_types(MatrixRole role) {
  if (role == MatrixRole::c) return {DataType::f16, DataType::f32, DataType::s32};
  return {DataType::f16, DataType::s8};
}

}  // namespace

TEST_CASE("fragment sizes match the PTX ISA's register counts", "[tensor]") {
  CHECK(fragment_registers(MatrixShape::m16n16k16, MatrixRole::a, DataType::f16) == 8);
  CHECK(fragment_registers(MatrixShape::m32n8k16, MatrixRole::b, DataType::f16) == 8);
  CHECK(fragment_registers(MatrixShape::m16n16k16, MatrixRole::c, DataType::f32) == 8);
  CHECK(fragment_registers(MatrixShape::m8n32k16, MatrixRole::c, DataType::f16) == 4);
  CHECK(fragment_registers(MatrixShape::m16n16k16, MatrixRole::a, DataType::s8) == 2);
  CHECK(fragment_registers(MatrixShape::m32n8k16, MatrixRole::a, DataType::u8) == 4);
  CHECK(fragment_registers(MatrixShape::m32n8k16, MatrixRole::b, DataType::s8) == 1);
  CHECK(fragment_registers(MatrixShape::m8n32k16, MatrixRole::a, DataType::s8) == 1);
  CHECK(fragment_registers(MatrixShape::m8n32k16, MatrixRole::b, DataType::s8) == 4);
  CHECK(fragment_registers(MatrixShape::m16n16k16, MatrixRole::c, DataType::s32) == 8);
  CHECK(fragment_registers(MatrixShape::m16n8k8, MatrixRole::a, DataType::f16) == 2);
  CHECK(fragment_registers(MatrixShape::m16n8k8, MatrixRole::b, DataType::f16) == 1);
  CHECK(fragment_registers(MatrixShape::m16n8k8, MatrixRole::c, DataType::f32) == 4);
  CHECK(fragment_registers(MatrixShape::m16n8k8, MatrixRole::c, DataType::f16) == 2);
}

TEST_CASE("every matrix element is held, accumulators exactly once", "[tensor]") {
  for (MatrixShape shape : k_wmma_shapes) {
    const MatrixGeometry g = matrix_geometry(shape);
    INFO(shape_name(shape));
    for (DataType type : {DataType::f16, DataType::f32, DataType::s32}) {
      const auto count = holders({shape, MatrixRole::c, type, MatrixLayout::row});
      CHECK(count.size() == g.m * g.n);
      for (const auto& [element, n] : count) CHECK(n == 1);
    }
    for (MatrixLayout layout : {MatrixLayout::row, MatrixLayout::col}) {
      // f16 A and B: each element by 512 / (elements of the matrix) lanes (Volta duplication).
      const auto a = holders({shape, MatrixRole::a, DataType::f16, layout});
      CHECK(a.size() == g.m * g.k);
      for (const auto& [element, n] : a) CHECK(n == 512 / (g.m * g.k));
      const auto b = holders({shape, MatrixRole::b, DataType::f16, layout});
      CHECK(b.size() == g.k * g.n);
      for (const auto& [element, n] : b) CHECK(n == 512 / (g.k * g.n));
      // s8: each element once (Turing).
      for (MatrixRole role : {MatrixRole::a, MatrixRole::b}) {
        const auto once = holders({shape, role, DataType::s8, layout});
        CHECK(once.size() == matrix_rows(shape, role) * matrix_cols(shape, role));
        for (const auto& [element, n] : once) CHECK(n == 1);
      }
    }
  }
  for (MatrixRole role : {MatrixRole::a, MatrixRole::b, MatrixRole::c}) {
    const auto once = holders({MatrixShape::m16n8k8, role, DataType::f16, MatrixLayout::row});
    CHECK(once.size() ==
          matrix_rows(MatrixShape::m16n8k8, role) * matrix_cols(MatrixShape::m16n8k8, role));
    for (const auto& [element, n] : once) CHECK(n == 1);
  }
}

TEST_CASE("Volta m16n16k16 mapping: threadgroups, octets and segments of Raihan et al.",
          "[tensor]") {
  const FragmentSpec a{MatrixShape::m16n16k16, MatrixRole::a, DataType::f16, MatrixLayout::row};
  const FragmentSpec b{MatrixShape::m16n16k16, MatrixRole::b, DataType::f16, MatrixLayout::col};
  const FragmentSpec c{MatrixShape::m16n16k16, MatrixRole::c, DataType::f32, MatrixLayout::row};
  const auto rows_of = [&](uint32_t group) {
    std::set<uint32_t> rows;
    for (uint32_t t = 0; t < 4; ++t)
      for (uint32_t i = 0; i < 16; ++i) rows.insert(fragment_position(a, group * 4 + t, i).row);
    return rows;
  };
  // Threadgroups 0 and 2 load the first four rows of A (a 4 x 16 segment).
  CHECK(rows_of(0) == std::set<uint32_t>{0, 1, 2, 3});
  CHECK(rows_of(2) == std::set<uint32_t>{0, 1, 2, 3});
  CHECK(rows_of(1) == std::set<uint32_t>{4, 5, 6, 7});
  CHECK(rows_of(4) == std::set<uint32_t>{8, 9, 10, 11});
  // Row-major A matches column-major B: lane holds row (column) r, k = index.
  for (uint32_t lane = 0; lane < 32; ++lane)
    for (uint32_t i = 0; i < 16; ++i) {
      const MatrixPosition pa = fragment_position(a, lane, i), pb = fragment_position(b, lane, i);
      CHECK(pa.col == i);
      CHECK(pb.row == i);
    }
  // Which thread holds which row (docs/gpu_tensor.md): threadgroup g = lane / 4, thread
  // t = lane % 4, octet o = g % 4, half h = g / 4; the threadgroup's rows start at
  // 4 (o % 2 + 2 h), its C columns at 8 (o / 2); A's thread holds row t of them, C's 32-bit
  // element i lies at row (t & 1) + (i & 2), column (i & 4) + (t & 2) + (i & 1).
  CHECK(fragment_position(a, 5, 3) == MatrixPosition{5, 3});
  CHECK(fragment_position(a, 9, 0) == MatrixPosition{1, 0});
  CHECK(fragment_position(a, 18, 7) == MatrixPosition{10, 7});
  CHECK(fragment_position(a, 31, 15) == MatrixPosition{15, 15});
  CHECK(fragment_position(c, 5, 0) == MatrixPosition{5, 0});
  CHECK(fragment_position(c, 5, 7) == MatrixPosition{7, 5});
  CHECK(fragment_position(c, 26, 3) == MatrixPosition{10, 11});
  CHECK(fragment_position(c, 31, 6) == MatrixPosition{15, 14});
  // Octet X (threadgroups X and X + 4) computes an 8 x 8 block of C whose rows are its A rows
  // and whose columns are the B columns its two threadgroups loaded.
  for (uint32_t octet = 0; octet < 4; ++octet) {
    std::set<uint32_t> c_rows, c_cols, a_rows, b_cols;
    for (uint32_t group : {octet, octet + 4})
      for (uint32_t t = 0; t < 4; ++t)
        for (uint32_t i = 0; i < 8; ++i) {
          const uint32_t lane = group * 4 + t;
          c_rows.insert(fragment_position(c, lane, i).row);
          c_cols.insert(fragment_position(c, lane, i).col);
          a_rows.insert(fragment_position(a, lane, i).row);
          b_cols.insert(fragment_position(b, lane, i).col);
        }
    CHECK(c_rows.size() == 8);
    CHECK(c_cols.size() == 8);
    CHECK(c_rows == a_rows);
    CHECK(c_cols == b_cols);
  }
  // mma.sync.m16n8k8 follows the PTX ISA: lane 5 is group 1, thread 1.
  const FragmentSpec mma_a{MatrixShape::m16n8k8, MatrixRole::a, DataType::f16, MatrixLayout::row};
  CHECK(fragment_position(mma_a, 5, 0) == MatrixPosition{1, 2});
  CHECK(fragment_position(mma_a, 5, 3) == MatrixPosition{9, 3});
  const FragmentSpec mma_b{MatrixShape::m16n8k8, MatrixRole::b, DataType::f16, MatrixLayout::col};
  CHECK(fragment_position(mma_b, 5, 1) == MatrixPosition{3, 1});
}

TEST_CASE("fragment runs are Volta's 128-bit and 64-bit accesses", "[tensor]") {
  using R = FragmentRuns;
  const auto runs = [](MatrixShape shape, MatrixRole role, DataType type, MatrixLayout layout) {
    const R r = fragment_runs({shape, role, type, layout});
    return std::pair<uint32_t, uint32_t>{r.runs, r.run_elements};
  };
  using P = std::pair<uint32_t, uint32_t>;
  const MatrixShape s = MatrixShape::m16n16k16;
  // A row-major: two 128-bit loads; column-major: four 64-bit loads (Raihan et al. 2019).
  CHECK(runs(s, MatrixRole::a, DataType::f16, MatrixLayout::row) == P{2, 8});
  CHECK(runs(s, MatrixRole::a, DataType::f16, MatrixLayout::col) == P{4, 4});
  CHECK(runs(s, MatrixRole::b, DataType::f16, MatrixLayout::col) == P{2, 8});
  CHECK(runs(s, MatrixRole::b, DataType::f16, MatrixLayout::row) == P{4, 4});
  CHECK(runs(s, MatrixRole::c, DataType::f32, MatrixLayout::row) == P{4, 2});
  CHECK(runs(s, MatrixRole::c, DataType::f32, MatrixLayout::col) == P{8, 1});
  CHECK(runs(s, MatrixRole::c, DataType::f16, MatrixLayout::row) == P{1, 8});
  CHECK(runs(s, MatrixRole::a, DataType::s8, MatrixLayout::row) == P{1, 8});
  CHECK(runs(MatrixShape::m32n8k16, MatrixRole::a, DataType::s8, MatrixLayout::row) == P{1, 16});
  // The runs' offsets from a lane's first element are the same for every lane, on both
  // mappings.
  for (FragmentMapping mapping : {FragmentMapping::volta, FragmentMapping::turing})
    for (MatrixShape shape : k_wmma_shapes)
      for (MatrixRole role : {MatrixRole::a, MatrixRole::b, MatrixRole::c})
        for (DataType type : fragment_types(role))
          for (MatrixLayout layout : {MatrixLayout::row, MatrixLayout::col}) {
            const FragmentSpec spec{shape, role, type, layout, mapping};
            const FragmentRuns r = fragment_runs(spec);
            const uint64_t stride = default_stride(spec) + 24;
            for (uint32_t lane = 1; lane < 32; ++lane)
              for (uint32_t run = 0; run < r.runs; ++run) {
                const uint32_t i = run * r.run_elements;
                CHECK(fragment_byte_offset(spec, stride, lane, i) -
                          fragment_byte_offset(spec, stride, lane, 0) ==
                      fragment_byte_offset(spec, stride, 0, i) -
                          fragment_byte_offset(spec, stride, 0, 0));
              }
          }
}

namespace {

FragmentSpec turing(MatrixShape shape, MatrixRole role, DataType type, MatrixLayout layout) {
  return {shape, role, type, layout, FragmentMapping::turing};
}

// How often a warp's wmma.load reads each matrix element: every run of every lane.
std::map<std::pair<uint32_t, uint32_t>, uint32_t> loads(const FragmentSpec& spec) {
  const FragmentRuns r = fragment_runs(spec);
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> count;
  for (uint32_t lane = 0; lane < 32; ++lane)
    for (uint32_t i = 0; i < r.runs * r.run_elements; ++i) {
      const MatrixPosition p = fragment_position(spec, lane, i);
      ++count[{p.row, p.col}];
    }
  return count;
}

}  // namespace

TEST_CASE("Turing mapping: every element held by one lane, repeats in the same lane", "[tensor]") {
  for (MatrixShape shape : k_wmma_shapes)
    for (MatrixRole role : {MatrixRole::a, MatrixRole::b, MatrixRole::c})
      for (DataType type : fragment_types(role))
        for (MatrixLayout layout : {MatrixLayout::row, MatrixLayout::col}) {
          const FragmentSpec spec = turing(shape, role, type, layout);
          INFO(shape_name(shape) << " role " << int(role) << " " << int(type));
          const uint32_t size = matrix_rows(shape, role) * matrix_cols(shape, role);
          REQUIRE(spec.distinct_elements() == size / 32);
          const uint32_t copies = spec.elements() / spec.distinct_elements();
          CHECK(copies * spec.distinct_elements() == spec.elements());
          const auto count = holders(spec);
          CHECK(count.size() == size);
          for (const auto& [element, n] : count) CHECK(n == copies);
          for (uint32_t lane = 0; lane < 32; ++lane)
            for (uint32_t i = spec.distinct_elements(); i < spec.elements(); ++i)
              CHECK(fragment_position(spec, lane, i) ==
                    fragment_position(spec, lane, i % spec.distinct_elements()));
        }
  // f16 A and B of m16n16k16: each element twice, in one lane; m32n8k16's B and m8n32k16's A
  // four times.
  CHECK(turing(MatrixShape::m16n16k16, MatrixRole::a, DataType::f16, MatrixLayout::row)
            .distinct_elements() == 8);
  CHECK(turing(MatrixShape::m32n8k16, MatrixRole::a, DataType::f16, MatrixLayout::row)
            .distinct_elements() == 16);
  CHECK(turing(MatrixShape::m32n8k16, MatrixRole::b, DataType::f16, MatrixLayout::row)
            .distinct_elements() == 4);
}

TEST_CASE("Turing m16n16k16 mapping: the 8 x 8 blocks of mma.sync and ldmatrix", "[tensor]") {
  const MatrixShape s = MatrixShape::m16n16k16;
  // Lane 5 is group 1, thread 1: row 1 of each block, elements 2 and 3 of it (PTX ISA's
  // mma.m16n8k16 fragments; A's x[i + 8] repeats x[i]).
  for (MatrixLayout layout : {MatrixLayout::row, MatrixLayout::col}) {
    const FragmentSpec a = turing(s, MatrixRole::a, DataType::f16, layout);
    CHECK(fragment_position(a, 5, 0) == MatrixPosition{1, 2});
    CHECK(fragment_position(a, 5, 1) == MatrixPosition{1, 3});
    CHECK(fragment_position(a, 5, 2) == MatrixPosition{9, 2});
    CHECK(fragment_position(a, 5, 4) == MatrixPosition{1, 10});
    CHECK(fragment_position(a, 5, 7) == MatrixPosition{9, 11});
    CHECK(fragment_position(a, 5, 8) == MatrixPosition{1, 2});
    const FragmentSpec b = turing(s, MatrixRole::b, DataType::f16, layout);
    CHECK(fragment_position(b, 5, 0) == MatrixPosition{2, 1});
    CHECK(fragment_position(b, 5, 3) == MatrixPosition{11, 1});
    CHECK(fragment_position(b, 5, 4) == MatrixPosition{2, 9});
    CHECK(fragment_position(b, 5, 15) == MatrixPosition{11, 9});
  }
  for (DataType type : {DataType::f32, DataType::f16, DataType::s32}) {
    const FragmentSpec c = turing(s, MatrixRole::c, type, MatrixLayout::row);
    CHECK(fragment_position(c, 5, 0) == MatrixPosition{1, 2});
    CHECK(fragment_position(c, 5, 3) == MatrixPosition{9, 3});
    CHECK(fragment_position(c, 5, 4) == MatrixPosition{1, 10});
  }
  // s8: 16-byte blocks, four k per lane (mma.m16n8k16's .s8 fragments).
  const FragmentSpec a8 = turing(s, MatrixRole::a, DataType::s8, MatrixLayout::row);
  CHECK(fragment_position(a8, 5, 0) == MatrixPosition{1, 4});
  CHECK(fragment_position(a8, 5, 3) == MatrixPosition{1, 7});
  CHECK(fragment_position(a8, 5, 4) == MatrixPosition{9, 4});
  const FragmentSpec b8 = turing(s, MatrixRole::b, DataType::s8, MatrixLayout::col);
  CHECK(fragment_position(b8, 5, 2) == MatrixPosition{6, 1});
  CHECK(fragment_position(b8, 5, 4) == MatrixPosition{4, 9});
  // mma.sync.m16n8k8 is the same under both mappings.
  for (MatrixRole role : {MatrixRole::a, MatrixRole::b, MatrixRole::c}) {
    const FragmentSpec volta{MatrixShape::m16n8k8, role, DataType::f16, MatrixLayout::row};
    const FragmentSpec blocks =
        turing(MatrixShape::m16n8k8, role, DataType::f16, MatrixLayout::row);
    for (uint32_t lane = 0; lane < 32; ++lane)
      for (uint32_t i = 0; i < volta.elements(); ++i)
        CHECK(fragment_position(volta, lane, i) == fragment_position(blocks, lane, i));
  }
}

TEST_CASE("Turing fragment runs load each element once, in 32-bit or narrower accesses",
          "[tensor]") {
  using P = std::pair<uint32_t, uint32_t>;
  const auto runs = [](MatrixShape shape, MatrixRole role, DataType type, MatrixLayout layout) {
    const FragmentRuns r = fragment_runs(turing(shape, role, type, layout));
    return P{r.runs, r.run_elements};
  };
  const MatrixShape s = MatrixShape::m16n16k16;
  const MatrixLayout row = MatrixLayout::row, col = MatrixLayout::col;
  // f16 A row-major: four 32-bit loads per lane (Volta: two 128-bit); column-major: eight 16-bit.
  CHECK(runs(s, MatrixRole::a, DataType::f16, row) == P{4, 2});
  CHECK(runs(s, MatrixRole::a, DataType::f16, col) == P{8, 1});
  CHECK(runs(s, MatrixRole::b, DataType::f16, col) == P{4, 2});
  CHECK(runs(s, MatrixRole::b, DataType::f16, row) == P{8, 1});
  CHECK(runs(MatrixShape::m32n8k16, MatrixRole::a, DataType::f16, row) == P{8, 2});
  CHECK(runs(MatrixShape::m32n8k16, MatrixRole::b, DataType::f16, col) == P{2, 2});
  CHECK(runs(s, MatrixRole::c, DataType::f32, row) == P{4, 2});
  CHECK(runs(s, MatrixRole::c, DataType::f32, col) == P{8, 1});
  CHECK(runs(s, MatrixRole::c, DataType::f16, row) == P{4, 2});
  CHECK(runs(s, MatrixRole::a, DataType::s8, row) == P{2, 4});
  CHECK(runs(s, MatrixRole::b, DataType::s8, col) == P{2, 4});
  CHECK(runs(s, MatrixRole::a, DataType::s8, col) == P{8, 1});
  // Across the warp every element is read once (Volta: f16 A and B twice).
  for (MatrixShape shape : k_wmma_shapes)
    for (MatrixRole role : {MatrixRole::a, MatrixRole::b, MatrixRole::c})
      for (DataType type : fragment_types(role))
        for (MatrixLayout layout : {row, col}) {
          INFO(shape_name(shape) << " role " << int(role) << " " << int(type));
          const auto count = loads(turing(shape, role, type, layout));
          CHECK(count.size() == matrix_rows(shape, role) * matrix_cols(shape, role));
          for (const auto& [element, n] : count) CHECK(n == 1);
        }
  for (const auto& [element, n] : loads({s, MatrixRole::a, DataType::f16, row})) CHECK(n == 2);
}

TEST_CASE("mma.sync.m8n8k4: each quad pair holds its own tile once in the PTX ISA's layout",
          "[tensor]") {
  const MatrixShape s = MatrixShape::m8n8k4;
  const MatrixLayout row = MatrixLayout::row, col = MatrixLayout::col;
  CHECK(tiles_per_warp(s) == 4);
  CHECK(fragment_registers(s, MatrixRole::a, DataType::f16) == 2);
  CHECK(fragment_registers(s, MatrixRole::b, DataType::f16) == 2);
  CHECK(fragment_registers(s, MatrixRole::c, DataType::f16) == 4);
  CHECK(fragment_registers(s, MatrixRole::c, DataType::f32) == 8);
  // Quad pair q is lanes 4q..4q+3 and 4q+16..4q+19.
  for (uint32_t lane = 0; lane < 32; ++lane) CHECK(tile_of_lane(s, lane) == lane % 16 / 4);
  CHECK(tile_of_lane(MatrixShape::m16n8k8, 21) == 0);
  const std::pair<MatrixRole, DataType> fragments[] = {{MatrixRole::a, DataType::f16},
                                                       {MatrixRole::b, DataType::f16},
                                                       {MatrixRole::c, DataType::f16},
                                                       {MatrixRole::c, DataType::f32}};
  for (const auto& [role, type] : fragments)
    for (MatrixLayout layout : {row, col})
      for (FragmentMapping mapping : {FragmentMapping::volta, FragmentMapping::turing}) {
        const FragmentSpec spec{s, role, type, layout, mapping};
        CHECK(spec.distinct_elements() == spec.elements());
        for (uint32_t tile = 0; tile < 4; ++tile) {
          std::set<std::pair<uint32_t, uint32_t>> held;
          for (uint32_t lane = 0; lane < 32; ++lane)
            if (tile_of_lane(s, lane) == tile)
              for (uint32_t i = 0; i < spec.elements(); ++i) {
                const MatrixPosition p = fragment_position(spec, lane, i);
                CHECK(p.row < matrix_rows(s, role));
                CHECK(p.col < matrix_cols(s, role));
                held.insert({p.row, p.col});
              }
          INFO("role " << int(role) << " type " << int(type) << " tile " << tile);
          CHECK(held.size() == matrix_rows(s, role) * matrix_cols(s, role));
        }
      }
  // Lane 22 is thread 2 of quad pair 1's upper half (row 6 of a row-major A, ...).
  CHECK(fragment_position({s, MatrixRole::a, DataType::f16, row}, 22, 3) == MatrixPosition{6, 3});
  CHECK(fragment_position({s, MatrixRole::a, DataType::f16, col}, 22, 1) == MatrixPosition{5, 2});
  CHECK(fragment_position({s, MatrixRole::b, DataType::f16, col}, 22, 3) == MatrixPosition{3, 6});
  CHECK(fragment_position({s, MatrixRole::b, DataType::f16, row}, 22, 1) == MatrixPosition{2, 5});
  CHECK(fragment_position({s, MatrixRole::c, DataType::f16, row}, 22, 7) == MatrixPosition{6, 7});
  // 32-bit accumulators: row (lane & 1) + (i & 2) + 4 (lane >= 16), column (i & 4) + (lane & 2)
  // + (i & 1).
  CHECK(fragment_position({s, MatrixRole::c, DataType::f32, row}, 22, 7) == MatrixPosition{6, 7});
  CHECK(fragment_position({s, MatrixRole::c, DataType::f32, row}, 5, 2) == MatrixPosition{3, 0});
  CHECK(fragment_position({s, MatrixRole::c, DataType::f32, row}, 2, 5) == MatrixPosition{0, 7});
}

TEST_CASE("4-bit mode (m8n8k32): eight elements a register, moved as the bytes of m8n8k16",
          "[tensor]") {
  const MatrixShape s = MatrixShape::m8n8k32;
  CHECK(fragment_registers(s, MatrixRole::a, DataType::s4) == 1);
  CHECK(fragment_registers(s, MatrixRole::b, DataType::u4) == 1);
  CHECK(fragment_registers(s, MatrixRole::c, DataType::s32) == 2);
  for (FragmentMapping mapping : {FragmentMapping::volta, FragmentMapping::turing}) {
    // PTX ISA: a_i at (lane / 4, 8 (lane % 4) + i), b_i at (8 (lane % 4) + i, lane / 4).
    const FragmentSpec a{s, MatrixRole::a, DataType::s4, MatrixLayout::row, mapping};
    const FragmentSpec b{s, MatrixRole::b, DataType::u4, MatrixLayout::col, mapping};
    CHECK(a.elements() == 8);
    CHECK(fragment_position(a, 13, 5) == MatrixPosition{3, 13});
    CHECK(fragment_position(b, 13, 7) == MatrixPosition{15, 3});
    // In memory: byte j of the lane's register holds elements 2j and 2j + 1, so the fragment
    // moves as m8n8k16's u8 one: 4 bytes of a row of A (column of B) in one run.
    const FragmentSpec bytes = storage_spec(a);
    CHECK(bytes.shape == MatrixShape::m8n8k16);
    CHECK(bytes.element == DataType::u8);
    for (uint32_t lane = 0; lane < 32; ++lane)
      for (uint32_t j = 0; j < 4; ++j) {
        const MatrixPosition byte = fragment_position(bytes, lane, j);
        const MatrixPosition low = fragment_position(a, lane, 2 * j);
        CHECK(byte.row == low.row);
        CHECK(byte.col * 2 == low.col);
      }
    CHECK(fragment_runs(bytes).runs == 1);
    CHECK(fragment_runs(bytes).run_elements == 4);
    const FragmentSpec c{s, MatrixRole::c, DataType::s32, MatrixLayout::row, mapping};
    CHECK(storage_spec(c).shape == MatrixShape::m8n8k16);
    CHECK(fragment_position(storage_spec(c), 13, 1) == fragment_position(c, 13, 1));
  }
}
