#include <catch2/catch.hpp>

#include "modules/host/buffer_locator.h"

using ohmvp::locate_address;
using ohmvp::LocatedBuffer;

TEST_CASE("buffer locator: an address inside, past, before or far below the buffers", "[host]") {
  const std::vector<LocatedBuffer> buffers = {{"a", 0x10000, 1000, 4, "f32"},
                                              {"c", 0x20000, 8192, 4, "f32"}};
  CHECK(locate_address(0x10008, buffers) == "element 2 of buffer 'a' (1000 f32 at 0x10000)");
  CHECK(locate_address(0x1000a, buffers) ==
        "element 2 of buffer 'a' (1000 f32 at 0x10000), byte 2 of it");
  CHECK(locate_address(0x28000, buffers) ==
        "just past the end of buffer 'c' (8192 f32 at 0x20000), where its element 8192 would be");
  CHECK(locate_address(0x28006, buffers) ==
        "6 bytes past the end of buffer 'c' (8192 f32 at 0x20000)");
  // Between the buffers: the nearer one is named.
  CHECK(
      locate_address(0x10fa0 + 4, buffers) ==
      "4 bytes past the end of buffer 'a' (1000 f32 at 0x10000), where its element 1001 would be");
  CHECK(locate_address(0x1ff00, buffers) == "256 bytes before buffer 'c' (8192 f32 at 0x20000)");
  CHECK(locate_address(0x8, buffers) == "below every buffer: a null pointer?");
  // 4 GiB or more from the nearest buffer, either way: no index lands there.
  CHECK(locate_address(0xfffffffffffffffc, buffers) ==
        "far from every buffer: a corrupted pointer?");
  CHECK(locate_address(0x28000 + (uint64_t{1} << 32), buffers) ==
        "far from every buffer: a corrupted pointer?");
  CHECK(locate_address(0x28000 + (uint64_t{1} << 32) - 1, buffers).find("past the end of") !=
        std::string::npos);
  CHECK(locate_address(0x8, {}).empty());
}
