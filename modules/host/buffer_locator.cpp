#include "modules/host/buffer_locator.h"

#include "modules/common/hex_text.h"

namespace ohmvp {

namespace {

std::string bytes_text(uint64_t bytes) {
  return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
}

constexpr uint64_t far_bytes = uint64_t{1} << 32;

std::string described(const LocatedBuffer& buffer) {
  return "buffer '" + buffer.name + "' (" + std::to_string(buffer.count) + " " +
         buffer.element_type + " at " + hex_text(buffer.address) + ")";
}

}  // namespace

std::string locate_address(uint64_t address, const std::vector<LocatedBuffer>& buffers) {
  const LocatedBuffer* nearest = nullptr;
  uint64_t distance = 0;
  bool after = false;
  for (const LocatedBuffer& buffer : buffers) {
    const uint64_t end = buffer.address + buffer.count * buffer.element_bytes;
    if (address >= buffer.address && address < end) {
      const uint64_t offset = address - buffer.address;
      std::string text =
          "element " + std::to_string(offset / buffer.element_bytes) + " of " + described(buffer);
      if (offset % buffer.element_bytes)
        text += ", byte " + std::to_string(offset % buffer.element_bytes) + " of it";
      return text;
    }
    const bool is_after = address >= end;
    const uint64_t gap = is_after ? address - end : buffer.address - address;
    if (!nearest || gap < distance) {
      nearest = &buffer;
      distance = gap;
      after = is_after;
    }
  }
  if (!nearest) return "";
  if (!after && address < 4096) return "below every buffer: a null pointer?";
  // No index into a buffer lands 4 GiB away from it: the pointer itself is bad.
  if (distance >= far_bytes) return "far from every buffer: a corrupted pointer?";
  if (!after) return bytes_text(distance) + " before " + described(*nearest);
  std::string text = (distance == 0 ? std::string("just") : bytes_text(distance)) +
                     " past the end of " + described(*nearest);
  const uint64_t offset = address - nearest->address;
  if (offset % nearest->element_bytes == 0)
    text += ", where its element " + std::to_string(offset / nearest->element_bytes) + " would be";
  return text;
}

}  // namespace ohmvp
