#include <cmath>

#include <catch2/catch.hpp>

#include "modules/common/bit_cast.h"
#include "modules/gpu/ptx/atomic_alu.h"

using namespace ohmvp;
using namespace ohmvp::gpu;

namespace {

uint64_t f32_add(float old_value, float b, AtomicMemory memory) {
  return atomic_result(AtomicOp::add, DataType::f32, bit_cast<uint32_t>(old_value),
                       bit_cast<uint32_t>(b), 0, memory);
}

}  // namespace

// PTX ISA, atom: atom.add.f32 flushes subnormal inputs and results to sign-preserving zero in
// global memory, and keeps them in shared memory.
TEST_CASE("atomic ALU: atom.add.f32 flushes subnormals in global memory only", "[atomic]") {
  const float tiny = std::ldexp(1.0f, -149);  // the smallest subnormal
  CHECK(f32_add(tiny, tiny, AtomicMemory::global) == 0);
  CHECK(f32_add(tiny, tiny, AtomicMemory::shared) == 2);
  CHECK(f32_add(-tiny, -0.0f, AtomicMemory::global) == 0x80000000u);  // -0 + -0
  const float largest_subnormal = std::ldexp(1.0f, -126) - tiny;
  CHECK(f32_add(largest_subnormal, 2 * tiny, AtomicMemory::shared) == 0x00800001u);
  CHECK(f32_add(1.5f, 2.25f, AtomicMemory::global) == bit_cast<uint32_t>(3.75f));
}

TEST_CASE("atomic ALU: a NaN result is the canonical NaN", "[atomic]") {
  CHECK(f32_add(INFINITY, -INFINITY, AtomicMemory::global) == 0x7fffffffu);
  CHECK(atomic_result(AtomicOp::add, DataType::f32, 0x7fc00001u, bit_cast<uint32_t>(1.0f), 0,
                      AtomicMemory::shared) == 0x7fffffffu);
  CHECK(atomic_result(AtomicOp::add, DataType::f64, bit_cast<uint64_t>(double(INFINITY)),
                      bit_cast<uint64_t>(double(-INFINITY)), 0,
                      AtomicMemory::global) == 0x7fffffffffffffffULL);
}

TEST_CASE("atomic ALU: the op and type combinations are the PTX ISA's", "[atomic]") {
  CHECK(atomic_supported(AtomicOp::add, DataType::f32));
  CHECK(atomic_supported(AtomicOp::inc, DataType::u32));
  CHECK(atomic_supported(AtomicOp::exch, DataType::b32));
  CHECK(atomic_supported(AtomicOp::cas, DataType::b64));
  CHECK(atomic_supported(AtomicOp::min, DataType::s64));
  // ptxas refuses these: floats have add only, exch and cas bit-size types, add no .s64.
  CHECK_FALSE(atomic_supported(AtomicOp::min, DataType::f32));
  CHECK_FALSE(atomic_supported(AtomicOp::max, DataType::f64));
  CHECK_FALSE(atomic_supported(AtomicOp::exch, DataType::u32));
  CHECK_FALSE(atomic_supported(AtomicOp::cas, DataType::u64));
  CHECK_FALSE(atomic_supported(AtomicOp::add, DataType::s64));
  CHECK_FALSE(atomic_supported(AtomicOp::and_, DataType::u32));
  CHECK_THROWS_AS(atomic_result(AtomicOp::min, DataType::f32, 0, 0, 0, AtomicMemory::global),
                  std::invalid_argument);
}

TEST_CASE("atomic ALU: inc and dec wrap at b, min and max follow the type's sign", "[atomic]") {
  const auto run = [](AtomicOp op, DataType type, uint64_t old_value, uint64_t b) {
    return atomic_result(op, type, old_value, b, 0, AtomicMemory::global);
  };
  CHECK(run(AtomicOp::inc, DataType::u32, 4, 5) == 5);
  CHECK(run(AtomicOp::inc, DataType::u32, 5, 5) == 0);
  CHECK(run(AtomicOp::dec, DataType::u32, 0, 5) == 5);
  CHECK(run(AtomicOp::dec, DataType::u32, 7, 5) == 5);
  CHECK(run(AtomicOp::dec, DataType::u32, 3, 5) == 2);
  CHECK(run(AtomicOp::min, DataType::s32, 0xffffffffu, 1) == 0xffffffffu);
  CHECK(run(AtomicOp::min, DataType::u32, 0xffffffffu, 1) == 1);
  CHECK(run(AtomicOp::max, DataType::s64, 1, ~uint64_t{0}) == 1);
  CHECK(run(AtomicOp::max, DataType::u64, 1, ~uint64_t{0}) == ~uint64_t{0});
}
