#pragma once

#include <cstdint>
#include <optional>

#include "modules/gpu/ldst_unit.h"

namespace ohmvp::gpu {

class Sm;

// What an SM asks of the unified-memory driver for a request to a managed address, as it leaves
// the L1 for the L2 (the MMU's place in ARCHITECTURE.md: the L1 is virtually addressed, the L2
// physically). A resident page's request goes on to its frame; a page mapped in host memory
// (cudaMemAdvise's remote mappings) is read or written there over PCIe by the driver, which
// answers the request through Sm::remote_response; any other raises a far fault: the driver
// keeps the request and hands it back through Sm::replay once the page is mapped.
// The SM's TLB (tlb.h) decides how long translation takes; the driver unmaps a page only after
// Gpu::invalidate_translations has dropped its TLB entries.
class ManagedTranslation {
 public:
  virtual ~ManagedTranslation() = default;

  // The managed window [base, base + bytes): requests outside it are not translated.
  virtual uint64_t window_base() const = 0;
  virtual uint64_t window_bytes() const = 0;
  // The page a translation maps (a TLB entry's reach).
  virtual uint64_t page_bytes() const = 0;
  struct Translation {
    enum class Outcome {
      frame,   // go on to `frame`, counted in flight until answered()
      remote,  // the page is mapped in host memory: the driver serves the request
      fault    // parked: the driver calls sm.replay(request) once the page is mapped
    };
    Outcome outcome = Outcome::fault;
    uint64_t frame = 0;
  };
  virtual Translation translate(uint64_t address, Sm& sm, LdstUnit::Outbound& request) = 0;
  // A translated request to frame address `frame` was answered.
  virtual void answered(uint64_t frame) = 0;
  // The bytes of [address, address + bytes) wherever they lie now, in zero time (what printf's
  // %s reads). A page still on its way to host memory or a neighbour reads as its destination
  // held it before.
  virtual void read(uint64_t address, void* data, uint64_t bytes) = 0;
};

}  // namespace ohmvp::gpu
