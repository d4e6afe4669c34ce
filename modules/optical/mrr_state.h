#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "modules/optical/optical_config.h"

namespace ohmvp {

// The operating state of one micro-ring resonator (Ohm-GPU, "MRR design for dual routes"):
// fully coupled (a working modulator or detector that absorbs its wavelength), half-coupled (a
// tunable splitter: takes part of the light and lets the rest travel on) or off resonance (lets
// the wavelength pass, as a disabled detector does when the demultiplexer yields the channel to
// another device). Modulating data bit by bit is not retuning; changing the state is.
enum class MrrCoupling : uint8_t { off_resonance, half, full };

const char* to_string(MrrCoupling coupling);

// Time to move one MRR from `from` to `to`: nothing when the state stays, the fine tuning time
// when half-coupling is entered or left, the on/off time otherwise.
uint32_t tuning_ps(const MrrTuningConfig& tuning, MrrCoupling from, MrrCoupling to);

// The transmitter or receiver array of one endpoint: one MRR per wavelength it serves. Each ring
// has its own tuner, so rings retune in parallel: retuning the array takes as long as its slowest
// ring (a modelling choice; the paper tunes one MRR at a time in its example).
class MrrArray {
 public:
  explicit MrrArray(size_t rings, MrrCoupling initial = MrrCoupling::off_resonance)
      : m_states(rings, initial) {}

  size_t size() const { return m_states.size(); }
  MrrCoupling state(size_t ring) const { return m_states.at(ring); }
  // Rings whose state changed since construction, counted per change.
  uint64_t retunings() const { return m_retunings; }

  // Moves one ring to `target`; the time it takes (0 when it is there already).
  uint32_t retune(const MrrTuningConfig& tuning, size_t ring, MrrCoupling target);
  // Moves every ring to `target`; the time of the slowest change.
  uint32_t retune_all(const MrrTuningConfig& tuning, MrrCoupling target);

 private:
  std::vector<MrrCoupling> m_states;
  uint64_t m_retunings = 0;
};

}  // namespace ohmvp
