#include "modules/memory/hetero_request.h"

namespace ohmvp {

void merge_into_line(const HeteroRequest& r, uint8_t* line) {
  const uint32_t offset = static_cast<uint32_t>(r.address % 64);
  for (uint32_t i = 0; i < r.length; ++i) {
    if (r.enable[i] != 0) line[offset + i] = r.data[i];
  }
}

}  // namespace ohmvp
