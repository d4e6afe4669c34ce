#include "modules/optical/link_ecc.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "modules/xpoint/sec_ded.h"

namespace ohmvp {

void LinkEcc::cross(uint8_t* bytes, size_t length) {
  for (size_t at = 0; at < length; at += sec_ded::data_bytes) {
    const size_t sent = std::min<size_t>(sec_ded::data_bytes, length - at);
    // A short last chunk is coded as a shortened code: the missing bytes are zeros that both
    // ends know, so they never cross and never flip.
    std::array<uint8_t, sec_ded::data_bytes> chunk{};
    std::memcpy(chunk.data(), bytes + at, sent);
    uint64_t word = sec_ded::encode(chunk.data(), 0);
    uint8_t word_bytes[sizeof word];
    std::memcpy(word_bytes, &word, sizeof word);
    const uint64_t flipped =
        m_injector.corrupt(chunk.data(), sent) + m_injector.corrupt(word_bytes, sizeof word_bytes);
    if (flipped == 0) continue;
    std::memcpy(&word, word_bytes, sizeof word);
    const sec_ded::Outcome outcome = sec_ded::decode(chunk.data(), word);
    if (outcome == sec_ded::Outcome::corrected) ++m_corrected;
    if (outcome == sec_ded::Outcome::uncorrectable) ++m_uncorrectable;
    std::memcpy(bytes + at, chunk.data(), sent);
  }
}

}  // namespace ohmvp
