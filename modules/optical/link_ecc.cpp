#include "modules/optical/link_ecc.h"

#include <cstring>

#include "modules/xpoint/sec_ded.h"

namespace ohmvp {

void LinkEcc::cross(uint8_t* bytes, size_t length) {
  for (size_t at = 0; at + sec_ded::data_bytes <= length; at += sec_ded::data_bytes) {
    uint8_t* chunk = bytes + at;
    uint64_t word = sec_ded::encode(chunk, 0);
    uint8_t word_bytes[sizeof word];
    std::memcpy(word_bytes, &word, sizeof word);
    const uint64_t flipped = m_injector.corrupt(chunk, sec_ded::data_bytes) +
                             m_injector.corrupt(word_bytes, sizeof word_bytes);
    if (flipped == 0) continue;
    std::memcpy(&word, word_bytes, sizeof word);
    const sec_ded::Outcome outcome = sec_ded::decode(chunk, word);
    if (outcome == sec_ded::Outcome::corrected) ++m_corrected;
    if (outcome == sec_ded::Outcome::uncorrectable) ++m_uncorrectable;
  }
}

}  // namespace ohmvp
