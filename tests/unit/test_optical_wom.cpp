#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "modules/common/random.h"
#include "modules/optical/wom_code.h"

using namespace ohmvp;

namespace {

std::vector<uint8_t> random_bytes(uint64_t seed, size_t n) {
  Rng rng(seed);
  std::vector<uint8_t> bytes(n);
  for (auto& b : bytes) b = static_cast<uint8_t>(rng.next());
  return bytes;
}

bool only_adds_ones(uint8_t before, uint8_t after) {
  return (before & ~after & 0b111u) == 0;
}

}  // namespace

TEST_CASE("WOM symbols follow the Rivest-Shamir table", "[optical][wom]") {
  CHECK(wom::encode_first(0b00) == 0b000);
  CHECK(wom::encode_first(0b01) == 0b001);
  CHECK(wom::encode_first(0b10) == 0b010);
  CHECK(wom::encode_first(0b11) == 0b100);
  CHECK(wom::encode_second(0b00) == 0b111);
  CHECK(wom::encode_second(0b01) == 0b110);
  CHECK(wom::encode_second(0b10) == 0b101);
  CHECK(wom::encode_second(0b11) == 0b011);
}

TEST_CASE("WOM: every pair of first and second data decodes and only adds light absorption",
          "[optical][wom]") {
  for (uint8_t first = 0; first < 4; ++first) {
    const uint8_t gen1 = wom::encode_first(first);
    CHECK(wom::decode(gen1) == first);
    CHECK(wom::generation_of(gen1) == wom::Generation::first);
    for (uint8_t second = 0; second < 4; ++second) {
      INFO("first " << int(first) << " second " << int(second));
      const uint8_t overlaid = wom::overlay_second(gen1, second);
      CHECK(wom::decode(overlaid) == second);
      CHECK(only_adds_ones(gen1, overlaid));
      // Equal data keeps the first-generation word; otherwise the second generation is written.
      CHECK(wom::generation_of(overlaid) ==
            (first == second ? wom::Generation::first : wom::Generation::second));
      CHECK(wom::decode(wom::encode_second(second)) == second);
    }
  }
  // All 8 cell patterns decode: weight decides the generation.
  for (uint8_t cells = 0; cells < 8; ++cells) {
    const int weight = (cells & 1) + ((cells >> 1) & 1) + ((cells >> 2) & 1);
    CHECK(wom::generation_of(cells) ==
          (weight <= 1 ? wom::Generation::first : wom::Generation::second));
  }
}

TEST_CASE("WOM buffers: round trips of random bytes through both generations", "[optical][wom]") {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const size_t n = 1 + static_cast<size_t>(seed * 13 % 97);
    const std::vector<uint8_t> controller = random_bytes(seed, n);
    const std::vector<uint8_t> device = random_bytes(seed + 1000, n);
    wom::CellBuffer light = wom::encode_first(controller.data(), n);
    REQUIRE(light.cells() == 12 * n);
    CHECK(wom::decode(light) == controller);
    const wom::CellBuffer first = light;
    wom::overlay_second(light, device.data(), n);
    CHECK(wom::decode(light) == device);
    CHECK_FALSE(wom::check_second_write(first, light).has_value());
  }
}

TEST_CASE("WOM: a packed buffer has the documented cell order", "[optical][wom]") {
  const uint8_t byte = 0b11'10'01'00;  // symbols 00, 01, 10, 11 from the low bits up
  const wom::CellBuffer cells = wom::encode_first(&byte, 1);
  // Symbols 000, 001, 010, 100 at cells 0-2, 3-5, 6-8, 9-11, LSB first.
  CHECK(cells.bits().size() == 2);
  CHECK(cells.bits()[0] == 0b1000'1000);  // cell 3 (symbol 1 bit 0), cell 7 (symbol 2 bit 1)
  CHECK(cells.bits()[1] == 0b0000'1000);  // cell 11 (symbol 3 bit 2)
}

TEST_CASE("WOM: a second write that gives light back is reported", "[optical][wom]") {
  const std::vector<uint8_t> data = {0x5A, 0xC3};
  const wom::CellBuffer first = wom::encode_first(data.data(), data.size());
  wom::CellBuffer forged = first;
  // Symbol 1 of byte 0 is 10 -> 010; writing a plain first-generation 001 over it drops cell 4.
  REQUIRE(first.symbol(1) == 0b010);
  forged.set_symbol(1, 0b001);
  const auto violation = wom::check_second_write(first, forged);
  REQUIRE(violation.has_value());
  CHECK(violation->symbol == 1);
  CHECK(violation->cell == 4);
  CHECK(violation->before == 0b010);
  CHECK(violation->after == 0b001);
  CHECK_THAT(violation->describe(), Catch::Matchers::Contains("symbol 1 cell 4 goes from 1 to 0") &&
                                        Catch::Matchers::Contains("010 -> 001"));
  CHECK_THROWS_AS(wom::check_second_write(first, wom::CellBuffer(3)), std::invalid_argument);
  wom::CellBuffer cells = first;
  CHECK_THROWS_AS(wom::overlay_second(cells, data.data(), 1), std::invalid_argument);
}

TEST_CASE("WOM: bandwidth efficiency is 2/3 of the light", "[optical][wom]") {
  CHECK(wom::efficiency() == Approx(2.0 / 3.0));
  const size_t bytes = 64;
  const wom::CellBuffer cells = wom::encode_first(random_bytes(7, bytes).data(), bytes);
  CHECK(static_cast<double>(bytes * 8) / static_cast<double>(cells.cells()) ==
        Approx(wom::efficiency()));
  CHECK(wom::cells_for_bytes(bytes) == 768);
}
