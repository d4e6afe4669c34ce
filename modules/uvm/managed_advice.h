#pragma once

namespace ohmvp {

// What cudaMemAdvise may say about managed memory here (docs/uvm.md): read duplication
// (cudaMemAdviseSetReadMostly), a preferred location in host memory
// (cudaMemAdviseSetPreferredLocation with cudaCpuDeviceId) and the GPU's mapping of pages in host
// memory (cudaMemAdviseSetAccessedBy the GPU), and their Unsets.
enum class ManagedAdvice {
  set_read_mostly,
  unset_read_mostly,
  set_preferred_location_host,
  unset_preferred_location,
  set_accessed_by,
  unset_accessed_by
};

}  // namespace ohmvp
