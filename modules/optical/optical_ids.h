#pragma once

#include <cstdint>

namespace ohmvp {

// Typed indices of the optical channel, so a wavelength is never passed where a virtual channel
// or a waveguide is meant.
enum class WaveguideId : uint32_t {};
enum class WavelengthId : uint32_t {};  // index within one waveguide (0 .. wavelengths - 1)
enum class VirtualChannelId : uint32_t {};

// Named index_of, not index: tlm_protocols/ddr_protocol.h has an index() template of its own
// and the two may meet in one translation unit.
template <class Id>
constexpr uint32_t index_of(Id id) {
  return static_cast<uint32_t>(id);
}

}  // namespace ohmvp
