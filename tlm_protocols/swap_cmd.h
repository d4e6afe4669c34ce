#pragma once

#include <array>
#include <cstdint>

namespace ohmvp {

// SWAP-CMD (Ohm-GPU, "Swap and reverse write functions"): the memory controller asks the XPoint
// controller to move data between DRAM and XPoint by itself. The command reuses the data route:
// the planar mode sends the encoded SwapCommand as a control message over it (PlanarMode,
// docs/hetero_memory.md), after presetting the target DRAM bank (row activated), and the
// XPoint end drives the swap from the command it decodes. It answers with the encoded
// SwapCompletion once the migration is complete. (DDR-T also has a swap REQ for the same wire
// form, DdrTExtension::command swap; the XPoint controller refuses it: no platform sends one.)

enum class SwapDirection : uint8_t {
  dram_to_xpoint = 0,
  xpoint_to_dram = 1,
  exchange = 2,  // both ways: the DRAM and the XPoint block trade places
};

struct SwapCommand {
  uint64_t dram_address = 0;    // byte address of the block in the DRAM device's space
  uint64_t xpoint_address = 0;  // byte address of the block in the XPoint device's space
  uint32_t size = 0;            // bytes to move (a multiple of the channel burst)
  SwapDirection direction = SwapDirection::dram_to_xpoint;

  bool operator==(const SwapCommand& o) const {
    return dram_address == o.dram_address && xpoint_address == o.xpoint_address && size == o.size &&
           direction == o.direction;
  }
};

// Wire form, little-endian: dram_address (8 bytes), xpoint_address (8), size (4), direction (1),
// three reserved zero bytes.
constexpr uint32_t swap_command_bytes = 24;
using SwapCommandBytes = std::array<uint8_t, swap_command_bytes>;

SwapCommandBytes encode(const SwapCommand& command);
// False when the bytes are not a valid SwapCommand (unknown direction, reserved bytes set).
bool decode(const uint8_t* bytes, SwapCommand& command);

// What SWAP_DONE reports, written by the XPoint controller into the payload's data (same wire
// convention, 8 bytes: bytes_moved (4), status (1), three reserved zero bytes).
enum class SwapStatus : uint8_t { ok = 0, address_error = 1, unsupported = 2 };

struct SwapCompletion {
  uint32_t bytes_moved = 0;
  SwapStatus status = SwapStatus::ok;
};

constexpr uint32_t swap_completion_bytes = 8;
std::array<uint8_t, swap_completion_bytes> encode(const SwapCompletion& completion);
bool decode_completion(const uint8_t* bytes, SwapCompletion& completion);

}  // namespace ohmvp
