#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace ohmvp::gpu {

// Bank conflicts of a warp's shared-memory access. Shared memory is `banks` banks of
// `bank_width` bytes; consecutive words go to consecutive banks. One pass of the bank array
// serves, in every bank, one word; any number of lanes reading the same word are served by the
// same pass (broadcast), and lanes touching different banks are served together.
//
// A pass moves at most banks x bank_width bytes (128 on Volta), so an access is processed in
// phases of that many bytes worth of lanes: all 32 lanes for accesses of up to 4 bytes, half a
// warp per phase for 8-byte accesses and a quarter warp for 16-byte ones. Each phase costs as
// many passes as the most distinct words any one bank must deliver in it. This is our model
// of Volta (NVIDIA documents only the 32-bank, 4-byte, broadcast rules for compute capability
// 7.x); it makes 64- and 128-bit accesses of consecutive lanes conflict-free at the same bytes
// per pass as 32-bit ones, which is what V100 shared-memory bandwidth measurements show (about
// 9.6 TB/s for 32-, 64- and 128-bit accesses alike, ekondis/gpumembench issue 2). Phases with
// no active lane cost nothing.
class SharedMemoryBanks {
 public:
  static constexpr uint32_t k_max_lanes = 64;

  explicit SharedMemoryBanks(uint32_t banks = 32, uint32_t bank_width = 4);

  // Passes needed by the active lanes (`addresses[lane]`, byte addresses in shared memory,
  // `bytes_per_lane` 1..16); 0 when no lane is active.
  uint32_t passes(const uint64_t* addresses, uint32_t lane_count, uint64_t active_mask,
                  uint32_t bytes_per_lane);

  uint32_t lanes_per_phase(uint32_t bytes_per_lane) const;

 private:
  uint32_t phase_passes(size_t word_count);
  // Word and bank of an address: shifts and masks for the usual power-of-two geometry.
  struct PowerOfTwo {
    uint32_t width_shift;
    uint64_t bank_mask;
    uint64_t word(uint64_t address) const { return address >> width_shift; }
    uint32_t bank(uint64_t word) const { return uint32_t(word & bank_mask); }
  };
  struct AnyGeometry {
    uint32_t width;
    uint32_t banks;
    uint64_t word(uint64_t address) const { return address / width; }
    uint32_t bank(uint64_t word) const { return uint32_t(word % banks); }
  };
  enum class OneWordCheck { free, conflict, spans };  // spans: some lane touches two words
  template <class Geometry>
  OneWordCheck one_word_check(const uint64_t* addresses, uint64_t lanes, uint32_t bytes_per_lane,
                              Geometry geometry);
  template <class Geometry>
  bool any_conflict(const uint64_t* addresses, uint64_t lanes, uint32_t bytes_per_lane,
                    Geometry geometry);
  template <class Geometry>
  uint32_t count_passes(const uint64_t* addresses, uint64_t active_mask, uint32_t bytes_per_lane,
                        Geometry geometry);
  bool in_chain(uint16_t head, uint64_t word) const;

  static constexpr uint16_t k_end_of_chain = UINT16_MAX;

  uint32_t m_banks;
  uint32_t m_bank_width;
  uint32_t m_width_shift = 0;  // log2(bank_width) when it is a power of two, else 0
  bool m_banks_are_pow2 = false;
  // Words one phase touches; a lane of 16 bytes touches at most 16 / 4 + 1 words.
  std::array<uint64_t, k_max_lanes * 5> m_words{};
  std::array<uint16_t, k_max_lanes * 5> m_next_in_chain{};  // the bank's next distinct word
  std::array<uint16_t, 64> m_bank_chain{};                  // each bank's last distinct word
  std::array<uint32_t, 64> m_bank_load{};                   // distinct words per bank
  std::array<uint64_t, 64> m_bank_word{};                   // the first word asked of each bank
};

}  // namespace ohmvp::gpu
