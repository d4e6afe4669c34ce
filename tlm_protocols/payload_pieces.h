#pragma once

#include <algorithm>
#include <cstdint>
#include <tlm>
#include <vector>

#include "tlm_protocols/byte_enables.h"

namespace ohmvp {

// Hands `payload` to `access(piece, address)` in pieces that do not cross a multiple of
// `block_bytes`: each time the payload itself, its address (`address`, which `access` may change),
// data, length and byte enables set to the piece's. `access` returns the bytes it moved; the split
// stops after a piece that moved fewer than its length. The payload is put back as it was. Returns
// the bytes moved in all.
template <class Access>
unsigned for_each_block(tlm::tlm_generic_payload& payload, uint64_t block_bytes, Access&& access) {
  const uint64_t start = payload.get_address();
  uint8_t* const data = payload.get_data_ptr();
  const uint32_t length = payload.get_data_length();
  uint8_t* const byte_enable = payload.get_byte_enable_ptr();
  const uint32_t byte_enable_length = payload.get_byte_enable_length();
  std::vector<uint8_t> enables = unrolled_byte_enables(payload);
  unsigned done = 0;
  while (done < length) {
    const uint64_t address = start + done;
    const uint32_t chunk =
        uint32_t(std::min<uint64_t>(length - done, block_bytes - address % block_bytes));
    payload.set_address(address);
    payload.set_data_ptr(data + done);
    payload.set_data_length(chunk);
    if (byte_enable != nullptr) {
      payload.set_byte_enable_ptr(enables.data() + done);
      payload.set_byte_enable_length(chunk);
    }
    const unsigned moved = access(payload, address);
    done += moved;
    if (moved < chunk) break;
  }
  payload.set_address(start);
  payload.set_data_ptr(data);
  payload.set_data_length(length);
  payload.set_byte_enable_ptr(byte_enable);
  payload.set_byte_enable_length(byte_enable_length);
  return done;
}

}  // namespace ohmvp
