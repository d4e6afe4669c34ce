#pragma once

#include <cstddef>
#include <cstdint>

#include "modules/common/bit_error_injector.h"

namespace ohmvp {

// A DRAM burst crossing the light with fault injection: the sender codes each 64-byte chunk with
// SEC-DED (modules/xpoint/sec_ded.h, an 8-byte ECC word beside it, as on a x72 link), the
// injector flips bits of both at the forced BER, and the receiver decodes: one flip per chunk is
// corrected, two are detected and the bytes left as they arrived. A shorter last chunk is coded
// the same way with the missing bytes taken as zeros (a shortened code), so every byte that
// crosses is protected.
class LinkEcc {
 public:
  LinkEcc(double ber, uint64_t seed) : m_injector(ber, seed) {}

  void cross(uint8_t* bytes, size_t length);

  uint64_t bits_flipped() const { return m_injector.bits_flipped(); }
  uint64_t corrected() const { return m_corrected; }
  uint64_t uncorrectable() const { return m_uncorrectable; }

 private:
  BitErrorInjector m_injector;
  uint64_t m_corrected = 0;
  uint64_t m_uncorrectable = 0;
};

}  // namespace ohmvp
