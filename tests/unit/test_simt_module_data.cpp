#include <cstdint>
#include <cstring>
#include <vector>

#include <catch2/catch.hpp>

#include "modules/gpu/simt/functional_executor.h"
#include "modules/gpu/simt/module_image.h"
#include "tests/unit/executor_test_util.h"
#include "tests/unit/ptx_test_util.h"

using namespace ohmvp::gpu;
using namespace ohmvp::gpu::test;

TEST_CASE("module data: an initialiser's addresses are filled in where the loader places them",
          "[simt]") {
  const Module module = parse_snippet(
      ".global .align 4 .b8 a[8];\n"
      ".const .align 4 .b8 c[8];\n"
      ".global .align 8 .u64 p[3] = {generic(a)+4, generic(c), c+8};\n"
      ".global .align 1 .u8 q[3] = {7, 0xFF00(generic(a)-1), 0XFF(a)};\n");
  const Symbol& p = module.symbols[symbol_named(module, "p")];
  const Symbol& q = module.symbols[symbol_named(module, "q")];
  const uint64_t base = 0x1234'5600;
  const std::vector<uint8_t> p_bytes = initial_bytes(module, p, base);
  uint64_t values[3];
  std::memcpy(values, p_bytes.data(), 24);
  const uint64_t a_at = base + module.symbols[symbol_named(module, "a")].offset;
  const uint64_t c_offset = module.symbols[symbol_named(module, "c")].offset;
  CHECK(values[0] == a_at + 4);
  CHECK(values[1] == base + const_segment_offset(module) + c_offset);  // the bank's copy
  CHECK(values[2] == c_offset + 8);  // the constant bank's own address
  const std::vector<uint8_t> q_bytes = initial_bytes(module, q, base);
  CHECK(q_bytes == std::vector<uint8_t>{7, uint8_t((a_at - 1) >> 8), uint8_t(a_at)});
  CHECK(p.initializer.size() == 24);  // the parsed bytes stay as they were
}

TEST_CASE("module data: pointer tables, structs and packed structs nvcc initialises", "[simt]") {
  // tests/data/ptx/address_initialisers.cu: strings, pointers into .global and __constant__
  // arrays, struct members and byte-masked pointers at odd offsets, function pointers among them.
  const Module module = load_fixture("address_initialisers.ptx");
  DeviceMemory memory;
  FunctionalExecutor executor(module, memory, 32);
  constexpr uint32_t threads = 6;
  const uint64_t out_at = memory.allocate(8 * threads * 4);
  executor.launch(one_cta("address_initialisers", threads, {out_at}));
  const std::vector<int32_t> out = download<int32_t>(memory, out_at, 8 * threads);
  for (uint32_t t = 0; t < threads; ++t) {
    INFO("thread " << t);
    const bool even = t % 2 == 0;
    const int32_t* row = &out[8 * t];
    CHECK(row[0] == "abg"[t % 3]);
    CHECK(row[1] == 14 + int32_t(t));  // data[4]
    CHECK(row[2] == 3);                // scales[1] through the generic pointer in .const
    CHECK(row[3] == 7);                // scales[3]
    CHECK(row[4] == (even ? 'n' + 1 : 'w' + 2));
    CHECK(row[5] == (even ? 3 + 11 : 5 + 10));
    CHECK(row[6] == (even ? 'p' : 'q'));
    CHECK(row[7] == (even ? 24 : -17));  // twice(data[2]), negate(data[7])
  }
}
