#include "tlm_protocols/gpu_memory_protocol.h"

#include "modules/common/errors.h"

namespace ohmvp {

const char* to_string(GpuRequestKind kind) {
  switch (kind) {
    case GpuRequestKind::load:
      return "load";
    case GpuRequestKind::store:
      return "store";
    case GpuRequestKind::atomic:
      return "atomic";
  }
  return "?";
}

tlm::tlm_extension_base* GpuMemoryExtension::clone() const {
  return new GpuMemoryExtension(*this);
}

void GpuMemoryExtension::copy_from(const tlm::tlm_extension_base& other) {
  const auto& o = static_cast<const GpuMemoryExtension&>(other);
  kind = o.kind;
  sm = o.sm;
  sector_mask = o.sector_mask;
  lanes = o.lanes;
  l2_hit = o.l2_hit;
  return_port = o.return_port;
}

GpuMemoryExtension& gpu_extension(const tlm::tlm_generic_payload& payload) {
  GpuMemoryExtension* extension = payload.get_extension<GpuMemoryExtension>();
  if (extension == nullptr) {
    throw SimulationError("GPU memory transaction at address " +
                          std::to_string(payload.get_address()) + " carries no GpuMemoryExtension");
  }
  return *extension;
}

}  // namespace ohmvp
