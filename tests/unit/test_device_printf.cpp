#include <catch2/catch.hpp>
#include <cstring>
#include <map>
#include <vector>

#include "modules/gpu/simt/device_printf.h"

using ohmvp::gpu::format_device_printf;
using ohmvp::gpu::PrintfArguments;
using ohmvp::gpu::PrintfBuffer;

namespace {

// vprintf's packed argument block: each value at the next multiple of its own size.
class Block {
 public:
  Block& add(uint64_t value, size_t bytes) {
    m_bytes.resize((m_bytes.size() + bytes - 1) / bytes * bytes);
    const size_t at = m_bytes.size();
    m_bytes.resize(at + bytes);
    std::memcpy(m_bytes.data() + at, &value, bytes);
    return *this;
  }
  Block& add_double(double value) {
    uint64_t bits;
    std::memcpy(&bits, &value, 8);
    return add(bits, 8);
  }
  PrintfArguments arguments() const {
    return PrintfArguments([this](uint64_t offset, void* data, uint64_t bytes) {
      if (offset + bytes > m_bytes.size()) return false;
      std::memcpy(data, m_bytes.data() + offset, bytes);
      return true;
    });
  }

 private:
  std::vector<uint8_t> m_bytes;
};

std::string format(const std::string& text, const Block& block,
                   const std::map<uint64_t, std::string>& strings = {}) {
  PrintfArguments arguments = block.arguments();
  return format_device_printf(text, arguments, [&](uint64_t pointer) {
    const auto found = strings.find(pointer);
    return found == strings.end() ? std::string("?") : found->second;
  });
}

}  // namespace

TEST_CASE("device printf: integer conversions take 4 bytes, or 8 with l/ll/j/z/t", "[printf]") {
  Block block;
  block.add(uint32_t(-42), 4).add(uint64_t(-1234567890123LL), 8).add(0xbeef, 4).add(7, 4);
  CHECK(format("%d %lld %#x %05u", block) == "-42 -1234567890123 0xbeef 00007");
  Block narrow;
  narrow.add(0x18000, 4).add(0x1ff, 4).add(uint32_t(-1), 4);
  CHECK(format("%hd %hhu %u", narrow) == "-32768 255 4294967295");
  Block wide;
  wide.add(uint64_t(-1), 8).add(0x123456789aULL, 8).add(8, 8);
  CHECK(format("%lu %lX %zd", wide) == "18446744073709551615 123456789A 8");
  Block characters;
  characters.add('G', 4).add('P', 4);
  CHECK(format("%c%-3c|", characters) == "GP  |");
}

TEST_CASE("device printf: floating point arrives as 8-byte doubles", "[printf]") {
  Block block;
  block.add(1, 4).add_double(3.14159).add_double(2.5).add_double(-1e-7).add_double(255.0);
  CHECK(format("%d %.3f %g %+.2e %a", block) == "1 3.142 2.5 -1.00e-07 0x1.fep+7");
}

TEST_CASE("device printf: strings, pointers, '*' widths, %% and what is no conversion",
          "[printf]") {
  Block block;
  block.add(0x1000, 8).add(0, 8).add(8, 4).add(3, 4).add(0x1000, 8).add(0x20000, 8);
  CHECK(format("[%s] [%s] [%*.*s] %p 100%%", block, {{0x1000, "device"}}) ==
        "[device] [(null)] [     dev] 0x20000 100%");
  CHECK(format("%y %", Block()) == "%y %");
  Block pointers;  // as glibc prints them, which CUDA's host-side formatting uses on Linux
  pointers.add(0, 8).add(0, 8).add(0x1234, 8);
  CHECK(format("[%p] [%-7p] [%8p] [%5%]", pointers) == "[(nil)] [(nil)  ] [  0x1234] [%]");
  Block negative;  // a negative '*' width left-justifies, a negative '*' precision is none
  negative.add(uint32_t(-4), 4).add(7, 4).add(uint32_t(-3), 4).add_double(2.5);
  CHECK(format("[%*d][%.*f]", negative) == "[7   ][2.500000]");
  Block counted;
  counted.add(0, 8).add(5, 4);
  PrintfArguments arguments = counted.arguments();
  CHECK(format_device_printf("%n%d", arguments, [](uint64_t) { return ""; }) == "5");
  CHECK(arguments.taken() == 2);
}

TEST_CASE("device printf: a missing argument prints <?>", "[printf]") {
  Block block;
  block.add(1, 4);
  CHECK(format("%d %d %f", block) == "1 <?> <?>");
}

TEST_CASE("device printf: the buffer keeps at most its capacity and counts what it drops",
          "[printf]") {
  PrintfBuffer buffer([](uint64_t, void*, uint64_t) { return false; });
  const std::string line(1000, 'x');
  CHECK(buffer.capacity() == uint64_t{1} << 20);  // CUDA's default printf FIFO
  const uint64_t fitting = buffer.capacity() / line.size();
  for (uint64_t i = 0; i < fitting + 3; ++i) buffer.print(line);
  CHECK(buffer.text().size() == fitting * line.size());
  CHECK(buffer.dropped() == 3);
  const auto [text, dropped] = buffer.take();
  CHECK(text.size() == fitting * line.size());
  CHECK(dropped == 3);
  CHECK(buffer.text().empty());
  CHECK(buffer.dropped() == 0);
  uint8_t byte = 0;
  CHECK_FALSE(buffer.read(0, &byte, 1));
  buffer.set_capacity(2500);  // cudaLimitPrintfFifoSize
  for (int i = 0; i < 4; ++i) buffer.print(line);
  CHECK(buffer.text().size() == 2000);
  CHECK(buffer.dropped() == 2);
}
