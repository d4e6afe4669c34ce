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

void start_line_request(tlm::tlm_generic_payload& payload, GpuMemoryExtension& extension,
                        GpuRequestKind kind, uint32_t sm, uint64_t line_address, uint8_t* data,
                        uint32_t line_bytes, uint32_t sectors) {
  payload.set_command(kind == GpuRequestKind::load ? tlm::TLM_READ_COMMAND
                                                   : tlm::TLM_WRITE_COMMAND);
  payload.set_address(line_address);
  payload.set_data_ptr(data);
  payload.set_data_length(line_bytes);
  payload.set_streaming_width(line_bytes);
  payload.set_byte_enable_ptr(nullptr);
  payload.set_byte_enable_length(0);
  payload.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  extension.kind = kind;
  extension.sm = sm;
  extension.sector_mask = sectors;
  extension.lanes.clear();
  extension.l2_hit = false;
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
