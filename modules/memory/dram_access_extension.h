#pragma once

#include <cstdint>
#include <tlm>

namespace ohmvp {

// What the heterogeneous-memory manager asks of the DRAM controller beyond plain reads and
// writes, for the Ohm-GPU functions (OHM_FUNCTIONS.md). Optional on a base-protocol payload;
// without it a payload is a plain access on the data route.
//  - access on the memory route: the burst goes between the DRAM and the XPoint device (a swap
//    driven by the XPoint controller's DDR sequence generator, or a reverse write), not to the
//    controller;
//  - preset (TLM_IGNORE_COMMAND): open the row of the payload's address (precharge and activate
//    as needed) and keep it open: until the release, the bank serves only that row, and requests
//    to its other rows wait. Answered when the row is open (tRCD after its ACT);
//  - release (TLM_IGNORE_COMMAND): end the preset of that bank. Answered at once.
// The controller answers in `from_queue` whether an access took a burst of its own on the data
// bus: another device can snarf a burst that crosses (auto-read/write), not one that does not.
class DramAccessExtension : public tlm::tlm_extension<DramAccessExtension> {
 public:
  enum class Kind : uint8_t { access, preset, release };
  Kind kind = Kind::access;   // written by the initiator
  bool memory_route = false;  // written by the initiator
  // Written by the controller, false until then: a read it answered from a queued write's
  // bytes, or a write it merged into a queued write to the same burst (whose burst carries it).
  bool from_queue = false;

  tlm::tlm_extension_base* clone() const override { return new DramAccessExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const DramAccessExtension&>(other);
  }
};

}  // namespace ohmvp
