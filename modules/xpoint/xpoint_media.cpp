#include "modules/xpoint/xpoint_media.h"

#include <algorithm>
#include <stdexcept>

#include "modules/common/power_of_two.h"

namespace ohmvp {

XPointMedia::XPointMedia(uint64_t physical_lines, uint32_t line_bytes, bool ecc,
                         const FaultInjectionConfig& faults)
    : m_lines(physical_lines),
      m_line_bytes(line_bytes),
      m_chunks(line_bytes / sec_ded::data_bytes),
      m_ecc(ecc),
      m_faults(faults.ber > 0.0 ? std::make_unique<BitErrorInjector>(faults.ber, faults.seed)
                                : nullptr),
      m_data(line_bytes),
      m_ecc_words(8),
      m_wear(((physical_lines - 1) >> k_chunk_shift) + 1),
      m_scratch(line_bytes) {
  if (physical_lines == 0 || line_bytes < sec_ded::data_bytes || !is_power_of_two(line_bytes)) {
    throw std::invalid_argument("XPointMedia: needs lines and a power-of-two line of >= 64 bytes");
  }
}

sec_ded::Outcome XPointMedia::read_line(uint64_t line, uint8_t* out, uint64_t* bad_chunks) {
  m_data.read(data_address(line), out, m_line_bytes);
  if (m_faults) m_faults->corrupt(out, m_line_bytes);
  if (!m_ecc) return sec_ded::Outcome::clean;
  sec_ded::Outcome worst = sec_ded::Outcome::clean;
  for (uint32_t c = 0; c < m_chunks; ++c) {
    uint64_t word;
    m_ecc_words.read(ecc_address(line, c), reinterpret_cast<uint8_t*>(&word), sizeof word);
    if (m_faults) m_faults->corrupt(reinterpret_cast<uint8_t*>(&word), sizeof word);
    const sec_ded::Outcome outcome = sec_ded::decode(out + c * sec_ded::data_bytes, word);
    if (outcome == sec_ded::Outcome::corrected) ++m_corrected;
    if (outcome == sec_ded::Outcome::uncorrectable) {
      ++m_uncorrectable;
      if (bad_chunks != nullptr) *bad_chunks |= uint64_t{1} << c;
    }
    worst = std::max(worst, outcome);
  }
  return worst;
}

void XPointMedia::write_line(uint64_t line, const uint8_t* data, uint64_t poisoned) {
  m_data.write(data_address(line), data, m_line_bytes);
  encode_line(line, data, poisoned);
  count_write(line);
}

void XPointMedia::copy_line(uint64_t from, uint64_t to) {
  uint64_t bad_chunks = 0;
  read_line(from, m_scratch.data(), &bad_chunks);
  write_line(to, m_scratch.data(), bad_chunks);
}

void XPointMedia::encode_line(uint64_t line, const uint8_t* data, uint64_t poisoned) {
  if (!m_ecc) return;
  // Two check bits off: SEC-DED reads any two-bit error as uncorrectable.
  constexpr uint64_t k_poison = 0b11;
  for (uint32_t c = 0; c < m_chunks; ++c) {
    uint64_t word = sec_ded::encode(data + c * sec_ded::data_bytes, 0);
    if ((poisoned >> c & 1u) != 0) word ^= k_poison;
    m_ecc_words.write(ecc_address(line, c), reinterpret_cast<const uint8_t*>(&word), sizeof word);
  }
}

void XPointMedia::count_write(uint64_t line) {
  auto& chunk = m_wear[line >> k_chunk_shift];
  if (!chunk) chunk = std::make_unique<uint32_t[]>(std::size_t{1} << k_chunk_shift);
  uint32_t& count = chunk[line & ((uint64_t{1} << k_chunk_shift) - 1)];
  if (count != UINT32_MAX) ++count;
  ++m_total_writes;
  m_max_writes = std::max(m_max_writes, count);
}

uint32_t XPointMedia::writes_of(uint64_t line) const {
  const auto& chunk = m_wear[line >> k_chunk_shift];
  return chunk ? chunk[line & ((uint64_t{1} << k_chunk_shift) - 1)] : 0;
}

void XPointMedia::flip_data_bit(uint64_t line, uint32_t bit) {
  uint8_t byte;
  const uint64_t address = data_address(line) + bit / 8;
  m_data.read(address, &byte, 1);
  byte ^= static_cast<uint8_t>(1u << (bit % 8));
  m_data.write(address, &byte, 1);
}

void XPointMedia::flip_ecc_bit(uint64_t line, uint32_t chunk, uint32_t bit) {
  uint64_t word;
  m_ecc_words.read(ecc_address(line, chunk), reinterpret_cast<uint8_t*>(&word), sizeof word);
  word ^= uint64_t{1} << bit;
  m_ecc_words.write(ecc_address(line, chunk), reinterpret_cast<const uint8_t*>(&word), sizeof word);
}

void XPointMedia::peek(uint64_t line, uint32_t offset, uint8_t* out, uint32_t length) const {
  m_data.read(data_address(line) + offset, out, length);
}

void XPointMedia::poke(uint64_t line, uint32_t offset, const uint8_t* data, uint32_t length) {
  m_data.write(data_address(line) + offset, data, length);
  m_data.read(data_address(line), m_scratch.data(), m_line_bytes);
  encode_line(line, m_scratch.data(), 0);
}

}  // namespace ohmvp
