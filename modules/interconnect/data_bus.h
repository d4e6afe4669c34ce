#pragma once

#include <cstdint>

namespace ohmvp {

// The device at the far end of a data transfer on a memory channel (the near end is the memory
// controller).
enum class BusDevice : uint8_t { dram, xpoint };

// The data wires of one memory channel as the transfers that share them see it. The DRAM
// controller places its bursts at fixed offsets after their commands (tCL, tCWL); the DDR-T
// port places XPoint data wherever it fits. Both ask where a transfer fits; whoever drives the
// transfer onto the wires occupies them.
class DataBus {
 public:
  virtual ~DataBus() = default;
  // The earliest start at or after `from_ps` at which `duration_ps` fits between transfers.
  virtual uint64_t earliest_free(uint64_t from_ps, uint64_t duration_ps) const = 0;
  // Takes [start_ps, end_ps) for a transfer of `bytes`. Overlapping another transfer is a
  // SimulationError: the one who placed it did not ask.
  virtual void occupy(uint64_t start_ps, uint64_t end_ps, uint32_t bytes) = 0;
  // Time from a transfer's end on the wires to its last bit at the receiver, on top of the
  // transfer's own time: 0 for electrical wires; the optical channel's time of flight plus
  // SerDes. Whoever waits for data adds it.
  virtual uint64_t arrival_latency_ps() const { return 0; }
  // Light or wire time a transfer of nominal `duration_ps` takes here: the duration itself,
  // except on a WOM-coded memory route (3 cells carry 2 bits: 3/2 of it).
  virtual uint64_t occupied_ps(uint64_t duration_ps) const { return duration_ps; }
  // The bytes of a transfer placed with occupy() cross: wires carry them as they are; the
  // optical channel's fault injection may flip bits, which its link ECC then corrects or
  // detects.
  virtual void carry(uint8_t* data, uint32_t bytes) {
    (void)data;
    (void)bytes;
  }
};

}  // namespace ohmvp
