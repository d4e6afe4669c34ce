// Bit and wide-multiply intrinsics (tests/data/ptx/bit_intrinsics.cu) on the timed GPU, each
// thread's results against the same operations written out on the host: popc, clz, brev, ffs,
// prmt, shf (wrapping and clamped), mul.hi of 32 and 64 bits, sad, a bit-field mask, rhadd.
#include <catch2/catch.hpp>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_runner.h"

namespace {

constexpr int k_threads = 256;

using u128 = unsigned __int128;
using s128 = __int128;

uint32_t reverse32(uint32_t x) {
  uint32_t r = 0;
  for (int b = 0; b < 32; ++b)
    if ((x >> b) & 1) r |= 1u << (31 - b);
  return r;
}

uint64_t reverse64(uint64_t x) {
  uint64_t r = 0;
  for (int b = 0; b < 64; ++b)
    if ((x >> b) & 1) r |= uint64_t{1} << (63 - b);
  return r;
}

// Thread i's 16 32-bit results.
std::vector<uint32_t> expected_32(int i, uint32_t x, uint32_t y, uint64_t q) {
  std::vector<uint32_t> r(16);
  const int shift = int(y & 31);
  r[0] = uint32_t(__builtin_popcount(x));
  r[1] = x ? uint32_t(__builtin_clz(x)) : 32;
  r[2] = reverse32(x);
  r[3] = x ? uint32_t(__builtin_ctz(x)) + 1 : 0;
  r[4] = uint32_t(__builtin_popcountll(q));
  r[5] = q ? uint32_t(__builtin_clzll(q)) : 64;
  r[6] = q ? uint32_t(__builtin_ctzll(q)) + 1 : 0;
  // prmt: selector nibbles pick bytes of {y, x}, x's bytes 0-3, y's 4-7.
  const uint32_t selector = 0x7531u ^ uint32_t(i & 0x3333);
  const uint64_t bytes = (uint64_t{y} << 32) | x;
  r[7] = 0;
  for (int k = 0; k < 4; ++k)
    r[7] |= uint32_t((bytes >> (8 * ((selector >> (4 * k)) & 7))) & 0xff) << (8 * k);
  // Funnel shifts of y:x; the clamped one shifts by at most 32.
  r[8] = uint32_t((bytes << shift) >> 32);
  r[9] = uint32_t(bytes >> shift);
  const int clamped = int(y & 63) > 32 ? 32 : int(y & 63);
  r[10] = uint32_t((u128{bytes} << clamped) >> 32);
  r[11] = uint32_t((uint64_t{x} * y) >> 32);
  r[12] = uint32_t(uint64_t(int64_t(int32_t(x)) * int32_t(y)) >> 32);
  const int64_t difference = int64_t(int32_t(x)) - int32_t(y);
  r[13] = uint32_t((difference < 0 ? -difference : difference) + 5);
  r[14] = (x >> shift) & ((1u << (y >> 28)) - 1);
  r[15] = uint32_t(int32_t((int64_t(int32_t(x)) + int32_t(y) + 1) >> 1));
  return r;
}

std::vector<uint64_t> expected_64(uint32_t x, uint32_t y, uint64_t q) {
  const uint64_t m = uint64_t{x} * 0x9e3779b97f4a7c15ull;
  return {reverse64(q), uint64_t((u128{q} * m) >> 64),
          uint64_t((s128(int64_t(q)) * s128(-int64_t(y))) >> 64)};
}

template <class T>
std::string bytes_of(const std::vector<T>& values) {
  return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
}

}  // namespace

TEST_CASE("cli: bit and wide-multiply intrinsics give the host's results on the timed GPU") {
  const std::string dir = scratch_dir("bit_intrinsics");
  // xorshift64 inputs, some shifted down (short words, leading zeros), and the edge values.
  std::vector<uint32_t> a(k_threads);
  std::vector<uint64_t> w(k_threads);
  uint64_t state = 88172645463325252ull;
  const auto next = [&state] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  for (int i = 0; i < k_threads; ++i) {
    a[i] = uint32_t(next());
    w[i] = next();
    if (i % 5 == 0) a[i] >>= i % 32;
    if (i % 7 == 0) w[i] >>= i % 64;
  }
  const uint32_t edges32[] = {0, 0xffffffffu, 0x80000000u, 1};
  const uint64_t edges64[] = {0, ~uint64_t{0}, uint64_t{1} << 63, 1};
  for (int i = 0; i < 4; ++i) {
    a[i] = edges32[i];
    w[i] = edges64[i];
  }
  write_text(dir + "/a.bin", bytes_of(a));
  write_text(dir + "/w.bin", bytes_of(w));
  const nlohmann::json workload = {
      {"type", "kernel"},
      {"ptx", shipped("tests/data/ptx/bit_intrinsics.ptx")},
      {"buffers",
       {{"a", {{"type", "u32"}, {"count", k_threads}, {"init", {{"file", "a.bin"}}}}},
        {"w", {{"type", "u64"}, {"count", k_threads}, {"init", {{"file", "w.bin"}}}}},
        {"out", {{"type", "u32"}, {"count", 16 * k_threads}}},
        {"out64", {{"type", "u64"}, {"count", 3 * k_threads}}}}},
      {"launches",
       {{{"kernel", "bit_intrinsics"},
         {"grid", {2, 1, 1}},
         {"block", {128, 1, 1}},
         {"args",
          {{{"buffer", "a"}}, {{"buffer", "w"}}, {{"buffer", "out"}}, {{"buffer", "out64"}}}}}}},
      {"outputs", {"out", "out64"}}};
  write_text(dir + "/w.json", workload.dump());
  const CliResult r =
      run_ohmvp("run -q --workload " + dir + "/w.json --out " + dir + " --dump " + dir + "/d");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto out = read_dump<uint32_t>(dir, "out", 16 * k_threads);
  const auto out64 = read_dump<uint64_t>(dir, "out64", 3 * k_threads);
  for (int i = 0; i < k_threads; ++i) {
    INFO("thread " << i);
    const uint32_t x = a[i], y = a[(i + 7) & 255];
    CHECK(std::vector<uint32_t>(out.begin() + 16 * i, out.begin() + 16 * (i + 1)) ==
          expected_32(i, x, y, w[i]));
    CHECK(std::vector<uint64_t>(out64.begin() + 3 * i, out64.begin() + 3 * (i + 1)) ==
          expected_64(x, y, w[i]));
  }
}
