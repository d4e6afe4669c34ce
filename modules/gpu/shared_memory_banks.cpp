#include "modules/gpu/shared_memory_banks.h"

#include <algorithm>
#include <string>

#include "modules/common/errors.h"
#include "modules/gpu/lane_mask.h"

namespace ohmvp::gpu {

SharedMemoryBanks::SharedMemoryBanks(uint32_t banks, uint32_t bank_width)
    : m_banks(banks), m_bank_width(bank_width) {
  if (banks == 0 || banks > m_bank_load.size() || bank_width < 4 || bank_width > 16)
    throw SimulationError("shared memory banks: unsupported geometry " + std::to_string(banks) +
                          " x " + std::to_string(bank_width) + " bytes");
  if ((bank_width & (bank_width - 1)) == 0) m_width_shift = uint32_t(__builtin_ctz(bank_width));
  m_banks_are_pow2 = (banks & (banks - 1)) == 0;
}

uint32_t SharedMemoryBanks::lanes_per_phase(uint32_t bytes_per_lane) const {
  const uint32_t pass_bytes = m_banks * m_bank_width;
  return std::max(1u, pass_bytes / std::max(bytes_per_lane, m_bank_width));
}

// Counts each bank's distinct words through a chain per bank (each word is linked into its
// bank's chain the first time it is seen), in one pass over the words and without sorting.
uint32_t SharedMemoryBanks::phase_passes(size_t word_count) {
  if (word_count == 0) return 0;
  std::fill(m_bank_chain.begin(), m_bank_chain.begin() + m_banks, k_end_of_chain);
  std::fill(m_bank_load.begin(), m_bank_load.begin() + m_banks, 0u);
  uint32_t passes = 0;
  for (size_t i = 0; i < word_count; ++i) {
    const uint32_t bank = uint32_t(m_words[i] % m_banks);
    if (in_chain(m_bank_chain[bank], m_words[i])) continue;
    m_next_in_chain[i] = m_bank_chain[bank];
    m_bank_chain[bank] = uint16_t(i);
    passes = std::max(passes, ++m_bank_load[bank]);
  }
  return passes;
}

bool SharedMemoryBanks::in_chain(uint16_t head, uint64_t word) const {
  for (uint16_t i = head; i != k_end_of_chain; i = m_next_in_chain[i])
    if (m_words[i] == word) return true;
  return false;
}

uint32_t SharedMemoryBanks::passes(const uint64_t* addresses, uint32_t lane_count,
                                   uint64_t active_mask, uint32_t bytes_per_lane) {
  if (lane_count > k_max_lanes)
    throw SimulationError("shared memory banks: " + std::to_string(lane_count) +
                          " lanes, at most " + std::to_string(k_max_lanes));
  if (bytes_per_lane < 1 || bytes_per_lane > 16)
    throw SimulationError("shared memory banks: " + std::to_string(bytes_per_lane) +
                          " bytes per lane, expected 1 to 16");
  if (lane_count < k_max_lanes) active_mask &= (uint64_t{1} << lane_count) - 1;
  if (m_width_shift != 0 && m_banks_are_pow2)
    return count_passes(addresses, active_mask, bytes_per_lane,
                        PowerOfTwo{m_width_shift, uint64_t{m_banks} - 1});
  return count_passes(addresses, active_mask, bytes_per_lane, AnyGeometry{m_bank_width, m_banks});
}

// When every lane's bytes lie in one word (each address a multiple of its power-of-two size, at
// most a bank wide, and banks a power of two bytes wide): each bank's last word is noted, then
// every lane compares its word with its bank's; a bank asked for two different words fails the
// comparison for one of them.
template <class Geometry>
SharedMemoryBanks::OneWordCheck SharedMemoryBanks::one_word_check(const uint64_t* addresses,
                                                                  uint64_t lanes,
                                                                  uint32_t bytes_per_lane,
                                                                  Geometry geometry) {
  if (m_width_shift == 0 || (bytes_per_lane & (bytes_per_lane - 1)) != 0 ||
      bytes_per_lane > m_bank_width)
    return OneWordCheck::spans;
  uint64_t any_bits = 0;
  for_each_lane(
      lanes, [&](uint32_t lane) __attribute__((always_inline)) {
        const uint64_t address = addresses[lane];
        any_bits |= address;
        const uint64_t word = geometry.word(address);
        m_bank_word[geometry.bank(word)] = word;
      });
  if ((any_bits & (bytes_per_lane - 1)) != 0) return OneWordCheck::spans;
  uint64_t differ = 0;
  for_each_lane(
      lanes, [&](uint32_t lane) __attribute__((always_inline)) {
        const uint64_t word = geometry.word(addresses[lane]);
        differ |= m_bank_word[geometry.bank(word)] ^ word;
      });
  return differ != 0 ? OneWordCheck::conflict : OneWordCheck::free;
}

template <class Geometry>
bool SharedMemoryBanks::any_conflict(const uint64_t* addresses, uint64_t lanes,
                                     uint32_t bytes_per_lane, Geometry geometry) {
  uint64_t banks_used = 0;
  bool conflict = false;
  const auto note = [&](uint64_t word) {
    const uint32_t bank = geometry.bank(word);
    const uint64_t bit = uint64_t{1} << bank;
    if (banks_used & bit) {
      conflict |= m_bank_word[bank] != word;
    } else {
      m_bank_word[bank] = word;
      banks_used |= bit;
    }
  };
  for (uint64_t m = lanes; m != 0; m &= m - 1) {
    const uint64_t address = addresses[__builtin_ctzll(m)];
    const uint64_t first_word = geometry.word(address);
    const uint64_t last_word = geometry.word(address + bytes_per_lane - 1);
    note(first_word);
    for (uint64_t word = first_word + 1; word <= last_word; ++word) note(word);
  }
  return conflict;
}

template <class Geometry>
uint32_t SharedMemoryBanks::count_passes(const uint64_t* addresses, uint64_t active_mask,
                                         uint32_t bytes_per_lane, Geometry geometry) {
  const uint32_t phase_lanes = lanes_per_phase(bytes_per_lane);
  uint32_t total = 0;
  for (uint32_t first = 0; first < k_max_lanes && (active_mask >> first) != 0;
       first += phase_lanes) {
    const uint64_t phase_mask =
        phase_lanes >= 64 ? ~uint64_t{0} : ((uint64_t{1} << phase_lanes) - 1) << first;
    const uint64_t lanes = active_mask & phase_mask;
    // A phase in which no bank is asked for two different words is one pass (the common case,
    // found without the chains).
    const OneWordCheck check = one_word_check(addresses, lanes, bytes_per_lane, geometry);
    bool conflict = check == OneWordCheck::conflict;
    if (check == OneWordCheck::spans)
      conflict = any_conflict(addresses, lanes, bytes_per_lane, geometry);
    if (!conflict) {
      total += lanes != 0 ? 1 : 0;
      continue;
    }
    size_t words = 0;
    for (uint64_t m = lanes; m != 0; m &= m - 1) {
      const uint64_t address = addresses[__builtin_ctzll(m)];
      const uint64_t last_word = geometry.word(address + bytes_per_lane - 1);
      for (uint64_t word = geometry.word(address); word <= last_word; ++word)
        m_words[words++] = word;
    }
    total += phase_passes(words);
  }
  return total;
}

}  // namespace ohmvp::gpu
