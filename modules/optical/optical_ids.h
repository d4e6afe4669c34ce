#pragma once

#include <cstdint>

namespace ohmvp {

// Typed indices of the optical channel, so a wavelength is never passed where a virtual channel
// or a waveguide is meant.
enum class WaveguideId : uint32_t {};
enum class WavelengthId : uint32_t {};  // index within one waveguide (0 .. wavelengths - 1)
enum class VirtualChannelId : uint32_t {};

template <class Id>
constexpr uint32_t index(Id id) {
  return static_cast<uint32_t>(id);
}

}  // namespace ohmvp
