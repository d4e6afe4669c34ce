#include <cstring>
#include <random>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include <catch2/catch.hpp>

#include "modules/common/sparse_store.h"

using ohmvp::SparseStore;

namespace {

std::vector<uint8_t> read_bytes(const SparseStore& store, uint64_t address, uint32_t length) {
  std::vector<uint8_t> data(length, 0xaa);
  store.read(address, data.data(), length);
  return data;
}

}  // namespace

TEST_CASE("sparse store: unwritten bytes read as zero", "[sparse_store]") {
  SparseStore store;
  CHECK(read_bytes(store, 0, 16) == std::vector<uint8_t>(16, 0));
  CHECK(read_bytes(store, 0xffffffffff00ULL, 300) == std::vector<uint8_t>(300, 0));
  CHECK(store.blocks() == 0);
  CHECK(store.bytes_allocated() == 0);
}

TEST_CASE("sparse store: writes within and across blocks", "[sparse_store]") {
  const uint32_t block = GENERATE(8u, 64u, 4096u);
  SparseStore store(block);
  std::vector<uint8_t> data(3 * block + 5);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 7 + 1);
  const uint64_t address = 5 * block - 3;  // starts 3 bytes before a block boundary
  store.write(address, data.data(), static_cast<uint32_t>(data.size()));

  CHECK(store.blocks() == 5);
  CHECK(store.bytes_allocated() == 5u * block);
  CHECK(read_bytes(store, address, static_cast<uint32_t>(data.size())) == data);
  // Bytes around the write are still zero, including the rest of the touched blocks.
  CHECK(read_bytes(store, 4 * block, block - 3) == std::vector<uint8_t>(block - 3, 0));
  const uint64_t end = address + data.size();
  CHECK(read_bytes(store, end, 8) == std::vector<uint8_t>(8, 0));
  // A partial overwrite keeps the rest.
  const uint8_t patch[2] = {0xde, 0xad};
  store.write(address + block, patch, 2);
  data[block] = 0xde;
  data[block + 1] = 0xad;
  CHECK(read_bytes(store, address, static_cast<uint32_t>(data.size())) == data);
  CHECK(store.blocks() == 5);
}

TEST_CASE("sparse store: byte enables", "[sparse_store]") {
  SparseStore store;
  std::vector<uint8_t> old(16, 0x11);
  store.write(60, old.data(), 16);
  std::vector<uint8_t> data(16, 0x22);

  SECTION("a pattern shorter than the data repeats") {
    const uint8_t enable[4] = {0xff, 0x00, 0x00, 0xff};
    store.write(60, data.data(), 16, enable, 4);
    const std::vector<uint8_t> got = read_bytes(store, 60, 16);
    for (size_t i = 0; i < 16; ++i) CHECK(got[i] == (i % 4 == 0 || i % 4 == 3 ? 0x22 : 0x11));
  }
  SECTION("only 0xff enables a byte") {
    std::vector<uint8_t> enable(16, 0x00);
    enable[3] = 0xff;
    enable[4] = 0x0f;
    store.write(60, data.data(), 16, enable.data(), 16);
    std::vector<uint8_t> expected = old;
    expected[3] = 0x22;
    CHECK(read_bytes(store, 60, 16) == expected);
  }
  SECTION("a block with no enabled byte is not allocated") {
    const uint8_t enable[2] = {0x00, 0x00};
    store.write(4096, data.data(), 16, enable, 2);
    CHECK(store.blocks() == 2);
    const uint8_t partly[2] = {0x00, 0xff};
    store.write(4096 + 56, data.data(), 16, partly, 2);  // spans two blocks
    CHECK(store.blocks() == 4);
    const std::vector<uint8_t> got = read_bytes(store, 4096 + 56, 16);
    for (size_t i = 0; i < 16; ++i) CHECK(got[i] == (i % 2 ? 0x22 : 0x00));
  }
}

TEST_CASE("sparse store: reading does not allocate", "[sparse_store]") {
  SparseStore store;
  const uint8_t byte = 0x5a;
  store.write(1000, &byte, 1);
  REQUIRE(store.blocks() == 1);
  std::vector<uint8_t> buffer(1 << 16);
  for (uint64_t address = 0; address < (1u << 24); address += 1 << 16)
    store.read(address, buffer.data(), static_cast<uint32_t>(buffer.size()));
  CHECK(store.blocks() == 1);
  CHECK(read_bytes(store, 1000, 1)[0] == 0x5a);
}

TEST_CASE("sparse store: rejects bad block sizes", "[sparse_store]") {
  CHECK_THROWS_AS(SparseStore(4), std::invalid_argument);
  CHECK_THROWS_AS(SparseStore(48), std::invalid_argument);
  CHECK_NOTHROW(SparseStore(8));
}

TEST_CASE("sparse store: one million random writes match a shadow map", "[sparse_store]") {
  SparseStore store;
  std::unordered_map<uint64_t, uint8_t> shadow;
  shadow.reserve(3'000'000);
  std::mt19937_64 random(12345);
  uint8_t data[4];
  for (int n = 0; n < 1'000'000; ++n) {
    // Mostly spread over 64 GiB (about one block each), some packed into 1 MiB to overwrite.
    const uint64_t address = n % 4 ? random() & ((uint64_t{1} << 36) - 1) : random() & 0xfffff;
    const uint32_t length = 1 + static_cast<uint32_t>(random() % 4);
    for (uint32_t i = 0; i < length; ++i) {
      data[i] = static_cast<uint8_t>(random());
      shadow[address + i] = data[i];
    }
    store.write(address, data, length);
  }
  CHECK(store.blocks() > 700'000);

  size_t mismatches = 0;
  for (const auto& [address, value] : shadow) {
    uint8_t got;
    store.read(address, &got, 1);
    mismatches += got != value;
  }
  CHECK(mismatches == 0);
  // Random reads, mostly of unwritten bytes, agree with the shadow too.
  const size_t blocks = store.blocks();
  for (int n = 0; n < 200'000; ++n) {
    const uint64_t address = random() & ((uint64_t{1} << 36) - 1);
    uint8_t got[8];
    store.read(address, got, 8);
    for (uint64_t i = 0; i < 8; ++i) {
      const auto found = shadow.find(address + i);
      mismatches += got[i] != (found == shadow.end() ? 0 : found->second);
    }
  }
  CHECK(mismatches == 0);
  CHECK(store.blocks() == blocks);
}
