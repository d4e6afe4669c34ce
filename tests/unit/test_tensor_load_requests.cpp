// The accesses a wmma.load / wmma.store hands the LD/ST unit under each fragment mapping: how
// many per lane, how wide, and how often each byte of the tile is read.
#include <catch2/catch.hpp>
#include <map>

#include "modules/gpu/simt/fragment_layout.h"
#include "tests/unit/ptx_builder.h"

using namespace ptxb;

namespace {

constexpr uint64_t k_tile = 0x10000;

struct Accesses {
  uint32_t runs = 0;
  uint32_t bytes = 0;                  // per run and lane
  std::map<uint64_t, uint32_t> reads;  // tile byte -> accesses that read it
};

// `wmma.<op>.sync.aligned.<layout>.m16n16k16.global.<type>` of fragment r1..r8 at [r9] (the
// tile's own stride), run over a whole warp of `h` with r9 = k_tile.
void run_fragment_access(Harness& h, Opcode op, DataType type, MatrixLayout layout) {
  h.set_all(9, k_tile);
  const Operand fragment = vec({1, 2, 3, 4, 5, 6, 7, 8});
  Instruction in = op == Opcode::wmma_store_d ? make(op, type, {at(9), fragment})
                                              : make(op, type, {fragment, at(9)});
  in.unit = UnitClass::ldst;
  in.space = StateSpace::global;
  in.mod.shape = MatrixShape::m16n16k16;
  in.mod.layout_a = layout;
  REQUIRE(h.run(in).status == StepStatus::memory_pending);
}

// The request that access leaves for the LD/ST unit under `mapping`.
Accesses issue(FragmentMapping mapping, Opcode op, DataType type, MatrixLayout layout) {
  Harness h;
  h.context.fragment_mapping = mapping;
  run_fragment_access(h, op, type, layout);
  const MemoryRequest& request = h.warp().memory_request();
  Accesses a{request.run_count, request.bytes, {}};
  for (uint32_t lane = 0; lane < 32; ++lane)
    for (uint32_t run = 0; run < request.run_count; ++run)
      for (uint32_t byte = 0; byte < request.bytes; ++byte)
        ++a.reads[request.address[lane] + uint64_t(request.run_offset[run]) + byte];
  return a;
}

// The access has `runs` accesses of `bytes` per lane and reads each of the tile's bytes `times`.
void check_accesses(const Accesses& a, uint32_t runs, uint32_t bytes, uint32_t tile_bytes,
                    uint32_t times) {
  CHECK(a.runs == runs);
  CHECK(a.bytes == bytes);
  CHECK(a.reads.size() == tile_bytes);
  CHECK(a.reads.begin()->first == k_tile);
  for (const auto& [address, n] : a.reads) CHECK(n == times);
}

}  // namespace

TEST_CASE("wmma.load of f16 A: Volta reads the tile twice, Turing once", "[tensor]") {
  const MatrixLayout row = MatrixLayout::row, col = MatrixLayout::col;
  const FragmentMapping volta = FragmentMapping::volta, turing = FragmentMapping::turing;
  const Opcode a = Opcode::wmma_load_a, b = Opcode::wmma_load_b;
  // Volta (Raihan et al.): row-major two 128-bit loads per lane, column-major four 64-bit.
  check_accesses(issue(volta, a, DataType::f16, row), 2, 16, 512, 2);
  check_accesses(issue(volta, a, DataType::f16, col), 4, 8, 512, 2);
  // Turing: four 32-bit loads per lane row-major, eight 16-bit column-major; every byte once.
  check_accesses(issue(turing, a, DataType::f16, row), 4, 4, 512, 1);
  check_accesses(issue(turing, a, DataType::f16, col), 8, 2, 512, 1);
  check_accesses(issue(turing, b, DataType::f16, col), 4, 4, 512, 1);
}

TEST_CASE("wmma.load.c / wmma.store.d of f32: every element once on both mappings", "[tensor]") {
  for (FragmentMapping mapping : {FragmentMapping::volta, FragmentMapping::turing})
    for (Opcode op : {Opcode::wmma_load_c, Opcode::wmma_store_d}) {
      check_accesses(issue(mapping, op, DataType::f32, MatrixLayout::row), 4, 8, 1024, 1);
      check_accesses(issue(mapping, op, DataType::f32, MatrixLayout::col), 8, 4, 1024, 1);
    }
}

TEST_CASE("a Turing f16 fragment's repeats are copies of the loaded halves", "[tensor]") {
  Harness h;
  h.context.fragment_mapping = FragmentMapping::turing;
  run_fragment_access(h, Opcode::wmma_load_a, DataType::f16, MatrixLayout::row);
  MemoryRequest& request = h.warp().memory_request();
  for (uint32_t lane = 0; lane < 32; ++lane)
    for (uint32_t byte = 0; byte < request.run_count * request.bytes; ++byte)
      request.data[lane][byte] = uint8_t(lane * 4 + byte);
  Interpreter::complete_memory(h.warp());
  for (uint32_t lane = 0; lane < 32; ++lane)
    for (uint32_t reg = 0; reg < 4; ++reg) {
      const uint32_t loaded = lane * 4 + reg * 4;
      const uint32_t expected =
          loaded | (loaded + 1) << 8 | (loaded + 2) << 16 | (loaded + 3) << 24;
      CHECK(h.get(1 + reg, lane) == expected);
      CHECK(h.get(5 + reg, lane) == expected);  // x[8..15] repeat x[0..7]
    }
}
