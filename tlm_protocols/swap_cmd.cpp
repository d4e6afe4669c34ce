#include "tlm_protocols/swap_cmd.h"

namespace ohmvp {

namespace {

void put(uint8_t* out, uint64_t value, unsigned bytes) {
  for (unsigned i = 0; i < bytes; ++i) out[i] = static_cast<uint8_t>(value >> (8 * i));
}

uint64_t take(const uint8_t* in, unsigned bytes) {
  uint64_t value = 0;
  for (unsigned i = 0; i < bytes; ++i) value |= uint64_t{in[i]} << (8 * i);
  return value;
}

bool zero(const uint8_t* in, unsigned bytes) {
  return take(in, bytes) == 0;
}

}  // namespace

SwapCommandBytes encode(const SwapCommand& command) {
  SwapCommandBytes bytes{};
  put(&bytes[0], command.dram_address, 8);
  put(&bytes[8], command.xpoint_address, 8);
  put(&bytes[16], command.size, 4);
  bytes[20] = static_cast<uint8_t>(command.direction);
  return bytes;
}

bool decode(const uint8_t* bytes, SwapCommand& command) {
  if (bytes[20] > static_cast<uint8_t>(SwapDirection::exchange) || !zero(&bytes[21], 3)) {
    return false;
  }
  command.dram_address = take(&bytes[0], 8);
  command.xpoint_address = take(&bytes[8], 8);
  command.size = static_cast<uint32_t>(take(&bytes[16], 4));
  command.direction = static_cast<SwapDirection>(bytes[20]);
  return true;
}

std::array<uint8_t, swap_completion_bytes> encode(const SwapCompletion& completion) {
  std::array<uint8_t, swap_completion_bytes> bytes{};
  put(&bytes[0], completion.bytes_moved, 4);
  bytes[4] = static_cast<uint8_t>(completion.status);
  return bytes;
}

bool decode_completion(const uint8_t* bytes, SwapCompletion& completion) {
  if (bytes[4] > static_cast<uint8_t>(SwapStatus::unsupported) || !zero(&bytes[5], 3)) {
    return false;
  }
  completion.bytes_moved = static_cast<uint32_t>(take(&bytes[0], 4));
  completion.status = static_cast<SwapStatus>(bytes[4]);
  return true;
}

}  // namespace ohmvp
