#include "modules/optical/wom_code.h"

#include <array>
#include <bitset>
#include <stdexcept>

namespace ohmvp {
namespace wom {

namespace {

// First-generation words by data value (PARAMETERS.md); the second generation is their
// complement in 3 bits.
constexpr std::array<uint8_t, 4> k_first = {0b000, 0b001, 0b010, 0b100};

unsigned weight(uint8_t cells) {
  return static_cast<unsigned>(std::bitset<3>(cells & 0b111u).count());
}

uint8_t data_symbol(const uint8_t* data, size_t symbol) {
  const uint8_t byte = data[symbol / symbols_per_byte];
  return static_cast<uint8_t>((byte >> (data_bits_per_symbol * (symbol % symbols_per_byte))) & 3u);
}

void require_same_length(size_t a, size_t b, const char* what) {
  if (a != b)
    throw std::invalid_argument(std::string("wom: ") + what + ": " + std::to_string(a) +
                                " cells against " + std::to_string(b));
}

}  // namespace

uint8_t encode_first(uint8_t data) {
  return k_first[data & 3u];
}

uint8_t encode_second(uint8_t data) {
  return static_cast<uint8_t>(~k_first[data & 3u] & 0b111u);
}

uint8_t overlay_second(uint8_t cells, uint8_t data) {
  return decode(cells) == (data & 3u) ? static_cast<uint8_t>(cells & 0b111u) : encode_second(data);
}

uint8_t decode(uint8_t cells) {
  const unsigned a = (cells >> 2) & 1u;
  const unsigned b = (cells >> 1) & 1u;
  const unsigned c = cells & 1u;
  return static_cast<uint8_t>(((a ^ b) << 1) | (a ^ c));
}

Generation generation_of(uint8_t cells) {
  return weight(cells) <= 1 ? Generation::first : Generation::second;
}

void CellBuffer::set_cell(size_t index, bool value) {
  const uint8_t mask = static_cast<uint8_t>(1u << (index % 8));
  if (value) {
    m_bits[index / 8] |= mask;
  } else {
    m_bits[index / 8] &= static_cast<uint8_t>(~mask);
  }
}

uint8_t CellBuffer::symbol(size_t index) const {
  uint8_t cells = 0;
  for (unsigned j = 0; j < cells_per_symbol; ++j)
    cells |= static_cast<uint8_t>(cell(index * cells_per_symbol + j) << j);
  return cells;
}

void CellBuffer::set_symbol(size_t index, uint8_t cells) {
  for (unsigned j = 0; j < cells_per_symbol; ++j)
    set_cell(index * cells_per_symbol + j, (cells >> j) & 1u);
}

CellBuffer encode_first(const uint8_t* data, size_t bytes) {
  CellBuffer cells(cells_for_bytes(bytes));
  for (size_t s = 0; s < cells.symbols(); ++s)
    cells.set_symbol(s, encode_first(data_symbol(data, s)));
  return cells;
}

void overlay_second(CellBuffer& cells, const uint8_t* data, size_t bytes) {
  require_same_length(cells.cells(), cells_for_bytes(bytes), "overlay_second");
  for (size_t s = 0; s < cells.symbols(); ++s)
    cells.set_symbol(s, overlay_second(cells.symbol(s), data_symbol(data, s)));
}

std::vector<uint8_t> decode(const CellBuffer& cells) {
  std::vector<uint8_t> out(cells.symbols() / symbols_per_byte, 0);
  for (size_t s = 0; s < out.size() * symbols_per_byte; ++s) {
    const uint8_t data = decode(cells.symbol(s));
    out[s / symbols_per_byte] |=
        static_cast<uint8_t>(data << (data_bits_per_symbol * (s % symbols_per_byte)));
  }
  return out;
}

std::string WomViolation::describe() const {
  const auto word = [](uint8_t v) { return std::bitset<3>(v).to_string(); };
  return "WOM second write gives light back: symbol " + std::to_string(symbol) + " cell " +
         std::to_string(cell) + " goes from 1 to 0 (" + word(before) + " -> " + word(after) +
         "); a second write may only turn 0 cells into 1";
}

std::optional<WomViolation> check_second_write(const CellBuffer& before, const CellBuffer& after) {
  require_same_length(before.cells(), after.cells(), "check_second_write");
  for (size_t i = 0; i < before.cells(); ++i) {
    if (before.cell(i) && !after.cell(i)) {
      const size_t symbol = i / cells_per_symbol;
      return WomViolation{symbol, i, before.symbol(symbol), after.symbol(symbol)};
    }
  }
  return std::nullopt;
}

}  // namespace wom
}  // namespace ohmvp
