#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ohmvp {

// The Rivest-Shamir write-once-memory code Ohm-WOM uses to let two data streams share the light
// of one wavelength set: two writes of 2 data bits into 3 cells (PARAMETERS.md, "WOM code").
//
//   data | 1st generation | 2nd generation
//    00  |      000       |      111
//    01  |      001       |      110
//    10  |      010       |      101
//    11  |      100       |      011
//
// Cells are written as (a, b, c) = bits 2, 1, 0 of a symbol. A cell value of 1 is light absorbed
// by an MRR; a second write may only absorb more light (turn 0 cells into 1), never give light
// back. Decode: weight <= 1 is a first-generation word, weight >= 2 a second-generation one, and
// data = (a xor b, a xor c) for both.
namespace wom {

constexpr unsigned data_bits_per_symbol = 2;
constexpr unsigned cells_per_symbol = 3;
constexpr unsigned symbols_per_byte = 8 / data_bits_per_symbol;

// Data bits carried per light cell: 2/3, the bandwidth a route keeps while it is WOM-coded.
constexpr double efficiency() {
  return static_cast<double>(data_bits_per_symbol) / cells_per_symbol;
}

enum class Generation : uint8_t { first, second };

// One symbol. `data` and the results use the low 2 and low 3 bits.
uint8_t encode_first(uint8_t data);
uint8_t encode_second(uint8_t data);
// The cells after overlaying `data` on the first-generation word `cells`: unchanged when they
// already decode to `data` (Rivest-Shamir: the second write is skipped), otherwise the
// second-generation word of `data`, which only adds 1s to any other first-generation word.
uint8_t overlay_second(uint8_t cells, uint8_t data);
uint8_t decode(uint8_t cells);
Generation generation_of(uint8_t cells);

// The cells of a coded byte buffer: 3 cells per 2 data bits, packed LSB first (cell i is bit
// i % 8 of bytes[i / 8]); symbol k of data byte j covers data bits 2k, 2k+1 of that byte and
// occupies cells 3 (4j + k) .. 3 (4j + k) + 2, with cell a (bit 2 of the symbol) last.
class CellBuffer {
 public:
  CellBuffer() = default;
  explicit CellBuffer(size_t cells) : m_cells(cells), m_bits((cells + 7) / 8, 0) {}

  size_t cells() const { return m_cells; }
  size_t symbols() const { return m_cells / cells_per_symbol; }
  // Whole bytes the cells take on the light (cells rounded up to bytes).
  const std::vector<uint8_t>& bits() const { return m_bits; }

  bool cell(size_t index) const { return (m_bits[index / 8] >> (index % 8)) & 1u; }
  void set_cell(size_t index, bool value);

  uint8_t symbol(size_t index) const;
  void set_symbol(size_t index, uint8_t cells);

  bool operator==(const CellBuffer& other) const {
    return m_cells == other.m_cells && m_bits == other.m_bits;
  }

 private:
  size_t m_cells = 0;
  std::vector<uint8_t> m_bits;
};

// Light cells needed for `data_bytes` bytes: 12 per byte.
constexpr size_t cells_for_bytes(size_t data_bytes) {
  return data_bytes * symbols_per_byte * cells_per_symbol;
}

// First write: the controller's data as first-generation words.
CellBuffer encode_first(const uint8_t* data, size_t bytes);
// Second write over `cells` (a first-generation buffer of the same length): the device's data
// overlaid symbol by symbol (overlay_second). Throws std::invalid_argument on a length mismatch.
void overlay_second(CellBuffer& cells, const uint8_t* data, size_t bytes);
// Decodes either generation (symbol by symbol, so a buffer may mix them). `out` gets
// cells.symbols() / 4 bytes.
std::vector<uint8_t> decode(const CellBuffer& cells);

// A second write that gave light back: cell `cell` (of symbol `symbol`) was 1 before and 0 after.
struct WomViolation {
  size_t symbol = 0;
  size_t cell = 0;
  uint8_t before = 0;  // the symbol's cells
  uint8_t after = 0;

  std::string describe() const;
};

// Checks that `after` only turns 0 cells of `before` into 1; the first violation, if any.
// Throws std::invalid_argument when the buffers differ in length.
std::optional<WomViolation> check_second_write(const CellBuffer& before, const CellBuffer& after);

}  // namespace wom
}  // namespace ohmvp
