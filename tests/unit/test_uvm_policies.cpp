#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "modules/common/config_reader.h"
#include "modules/common/errors.h"
#include "modules/host/device_allocator.h"
#include "modules/interconnect/nvlink_fabric.h"
#include "modules/uvm/chunk_pool.h"
#include "modules/uvm/managed_space.h"
#include "modules/uvm/tree_prefetcher.h"
#include "modules/uvm/uvm_config.h"

using ohmvp::ChunkPool;
using ohmvp::ManagedSpace;
using ohmvp::TreePrefetcher;

namespace {

std::vector<bool> bits(const std::string& text) {
  std::vector<bool> v;
  for (char c : text) v.push_back(c == '1');
  return v;
}

}  // namespace

TEST_CASE("tree prefetcher: only the faulted pages when off", "[uvm]") {
  const TreePrefetcher off(0);
  CHECK(off.pages_to_migrate(bits("10000000"), bits("11100000"), bits("11111111")) ==
        bits("01100000"));
}

TEST_CASE("tree prefetcher: the largest region more than 51% present moves whole", "[uvm]") {
  const TreePrefetcher tree(51);
  // Page 0 faulted alone: its pair (0-1) is 1 of 2 present, 50%, not more than 51%.
  CHECK(tree.pages_to_migrate(bits("00000000"), bits("10000000"), bits("11111111")) ==
        bits("10000000"));
  // Pages 0 and 1 resident, 2 faulted: 0-3 is 3 of 4 present: the whole quarter moves.
  CHECK(tree.pages_to_migrate(bits("11000000"), bits("00100000"), bits("11111111")) ==
        bits("00110000"));
  // Five of eight present: the whole block (62.5%).
  CHECK(tree.pages_to_migrate(bits("11010000"), bits("00101000"), bits("11111111")) ==
        bits("00101111"));
  // Pages the allocation does not cover neither count nor move: 2 of the 3 covered present.
  CHECK(tree.pages_to_migrate(bits("10000000"), bits("01000000"), bits("11100000")) ==
        bits("01100000"));
}

TEST_CASE("tree prefetcher: a threshold of 100 never prefetches", "[uvm]") {
  const TreePrefetcher strict(100);
  CHECK(strict.pages_to_migrate(bits("1110"), bits("0001"), bits("1111")) == bits("0001"));
  CHECK_THROWS_AS(strict.pages_to_migrate(bits("111"), bits("000"), bits("111")),
                  std::invalid_argument);
}

TEST_CASE("chunk pool: free chunks first, then the least recently allocated", "[uvm]") {
  ChunkPool pool(4096);
  CHECK_FALSE(pool.take_free(7));
  const uint32_t a = pool.add(0x10000);
  const uint32_t b = pool.add(0x20000);
  CHECK(*pool.take_free(7) == a);
  CHECK(*pool.take_free(9) == b);
  CHECK_FALSE(pool.take_free(11));
  const auto none = [](uint64_t) { return false; };
  CHECK(*pool.victim(none) == a);
  // Accesses in flight protect a chunk, and so does the batch's own block.
  pool.begin_access(a);
  CHECK(*pool.victim(none) == b);
  CHECK_FALSE(pool.victim([](uint64_t block) { return block == 9; }));
  pool.end_access(a);
  CHECK(pool.chunk_at(0x10000 + 4095) == a);
  CHECK(pool.chunk_at(0x20000) == b);
  CHECK_THROWS_AS(pool.chunk_at(0x10000 + 4096), std::logic_error);
  // Given up and taken again: last in the eviction order.
  pool.release(a);
  CHECK(*pool.take_free(11) == a);
  CHECK(*pool.chunk(a).block == 11);
  CHECK(pool.eviction_order() == std::list<uint32_t>{b, a});
}

TEST_CASE("chunk pool: a withdrawn chunk leaves the pool for good", "[uvm]") {
  ChunkPool pool(4096);
  const uint32_t a = pool.add(0x10000);
  const uint32_t b = pool.add(0x20000);
  CHECK(*pool.take_free(7) == a);
  CHECK_THROWS_AS(pool.withdraw(a), std::logic_error);  // it backs a block
  pool.withdraw(b);
  CHECK(pool.chunk(b).withdrawn);
  CHECK(pool.held() == 1);
  CHECK(pool.size() == 2);
  CHECK(pool.free_count() == 0);
  CHECK_FALSE(pool.take_free(9));
  CHECK_THROWS_AS(pool.chunk_at(0x20000), std::logic_error);
  // Its address may come back as a new chunk.
  const uint32_t again = pool.add(0x20000);
  CHECK(again != b);
  CHECK(pool.chunk_at(0x20000) == again);
  CHECK(pool.held() == 2);
}

TEST_CASE("managed space: allocations start on their own VA block", "[uvm]") {
  ManagedSpace space(4096, 16384);
  const uint64_t a = space.allocate(5000);
  const uint64_t b = space.allocate(1);
  CHECK(a == ManagedSpace::window_base);
  CHECK(b == a + 16384);
  CHECK(space.in_window(a));
  CHECK_FALSE(space.in_window(0x10000));
  CHECK(space.find(a + 4999) != nullptr);
  CHECK(space.find(a + 5000) == nullptr);  // past the end, though in the same page
  CHECK(space.find(a + 4000, 1000) != nullptr);
  CHECK(space.find(a + 4000, 1001) == nullptr);
  CHECK(space.allocated_pages(space.block_number(a)) == bits("1100"));
  CHECK(space.page_in_block(a + 8191) == 1);
  CHECK(space.blocks_of(a + 16000, 1000) ==
        std::vector<uint64_t>{space.block_number(a), space.block_number(b)});
  space.host_pages(space.block_number(a), 1)[0] = 42;
  uint8_t byte = 0;
  std::memcpy(&byte, space.find(a)->host.data() + 4096, 1);
  CHECK(byte == 42);
  space.free(a);
  CHECK(space.find(a) == nullptr);
  CHECK_THROWS_AS(space.free(a), std::invalid_argument);
  CHECK_THROWS_AS(space.free(b + 1), std::invalid_argument);
  ManagedSpace::Block& block = space.block(space.block_number(b));
  block.chunk = 3;
  block.map(bits("0110"));
  block.map(bits("0011"));
  CHECK(block.resident == bits("0111"));
  CHECK(block.resident_pages == 3);
  CHECK(block.gpu_only_pages() == 3);
  block.duplicated[2] = true;  // read-mostly, brought from host memory: the host's copy is current
  CHECK(block.gpu_only_pages() == 2);
  block.unmap_page(1);
  CHECK(block.resident == bits("0011"));
  CHECK(block.resident_pages == 2);
  CHECK(block.chunk);
  // Only page 3's bytes must be copied out: page 2's host copy is as current.
  CHECK(block.unmap() == bits("0001"));
  CHECK(block.duplicated == bits("0000"));
  CHECK(block.resident == bits("0000"));
  CHECK(block.resident_pages == 0);
  CHECK_FALSE(block.chunk);
  ManagedSpace full(4096, uint64_t{1} << 39);
  full.allocate(1);
  CHECK_THROWS_AS(full.allocate(uint64_t{1} << 40), ohmvp::OutOfDeviceMemory);
}

TEST_CASE("uvm config: defaults are the driver's and bad values name their key", "[uvm]") {
  ohmvp::UvmConfig config;
  CHECK(config.page_bytes == 4096);
  CHECK(config.chunk_bytes == 2 << 20);
  CHECK(config.fault_batch_size == 256);
  CHECK(config.fault_service_ns == 45000.0);
  CHECK(config.prefetch_threshold_percent == 51);
  const auto parse_text = [](const char* text) {
    ohmvp::UvmConfig c;
    const auto json = nlohmann::json::parse(text);
    parse(ohmvp::ConfigReader(json, "uvm"), c);
    return c;
  };
  CHECK(parse_text(R"({"chunk_bytes": 65536})").pages_per_chunk() == 16);
  CHECK_THROWS_WITH(parse_text(R"({"chunk_byte": 65536})"),
                    Catch::Contains("unknown key 'chunk_byte' at uvm"));
  CHECK_THROWS_WITH(parse_text(R"({"chunk_bytes": 65537})"),
                    Catch::Contains("uvm.chunk_bytes: is 65537; expected a power of two"));
  CHECK_THROWS_WITH(parse_text(R"({"page_bytes": 8192, "chunk_bytes": 4096})"),
                    Catch::Contains("of at least page_bytes"));
  CHECK_THROWS_WITH(parse_text(R"({"gpu_memory_bytes": 4096, "chunk_bytes": 8192})"),
                    Catch::Contains("uvm.gpu_memory_bytes"));
  CHECK_THROWS_AS(parse_text(R"({"prefetch_threshold_percent": 101})"), ohmvp::ConfigError);
  CHECK(config.harvesters == 1);
  CHECK(parse_text(R"({"harvest": true, "harvesters": 3})").harvesters == 3);
  CHECK_THROWS_WITH(parse_text(R"({"harvesters": 0})"), Catch::Contains("uvm.harvesters"));
  CHECK_THROWS_WITH(parse_text(R"({"fault_service_ns": 0})"),
                    Catch::Contains("uvm.fault_service_ns: value 0 out of range"));
  // memHarvester's options without harvesting would be ignored.
  CHECK_THROWS_WITH(parse_text(R"({"harvesters": 3})"),
                    Catch::Contains("uvm.harvesters: only with harvest true"));
  CHECK_THROWS_WITH(parse_text(R"({"harvest_bytes": 4194304})"),
                    Catch::Contains("uvm.harvest_bytes: only with harvest true"));
  CHECK_THROWS_WITH(parse_text(R"({"multi_path_chunks": 16})"),
                    Catch::Contains("uvm.multi_path_chunks: only with harvest true"));
  CHECK_THROWS_WITH(parse_text(R"({"harvest": true, "multi_path_stride": 4})"),
                    Catch::Contains("uvm.multi_path_stride: only with multi_path_chunks above 0"));
  CHECK(parse_text(R"({"harvest": true, "multi_path_chunks": 16, "multi_path_stride": 4})")
            .multi_path_stride == 4);
  CHECK_THROWS_WITH(
      parse_text(R"({"harvest": true, "chunk_bytes": 16384, "harvest_bytes": 100})"),
      Catch::Contains("uvm.harvest_bytes: is 100; expected 0 (what the neighbour has free) or at "
                      "least one chunk (16384 bytes, uvm.chunk_bytes)"));
}

TEST_CASE("nvlink fabric: a transfer holds its sender's and its receiver's port", "[uvm]") {
  ohmvp::NvlinkConfig config;
  config.bandwidth_gb_per_s = 2.0;  // 2 bytes per ns
  config.latency_ns = 100.0;
  ohmvp::NvlinkFabric fabric(config, 3);
  CHECK(fabric.transfer(0, 1, 0, 4000) == 2'100'000);
  // 0 is still sending: 0 -> 2 starts when it is done; 2 -> 0 and 1 -> 2 meet neither.
  CHECK(fabric.transfer(0, 2, 1000, 2000) == 2'100'000 + 1'100'000);
  CHECK(fabric.transfer(2, 0, 1000, 2000) == 1000 + 1'100'000);
  // 1 -> 2 waits for 2's receiving side, taken by 0 -> 2.
  CHECK(fabric.transfer(1, 2, 0, 0) == 3'200'000 + 100'000);
  CHECK(fabric.bytes_sent(0) == 6000);
  CHECK(fabric.busy_ps(0) == 2'100'000 + 1'100'000);
  CHECK_THROWS_AS(fabric.transfer(1, 1, 0, 1), std::logic_error);
  CHECK_THROWS_AS(fabric.transfer(0, 3, 0, 1), std::logic_error);
  const auto bad = nlohmann::json::parse(R"({"bandwidth_gbps": 3})");
  CHECK_THROWS_WITH(parse(ohmvp::ConfigReader(bad, "multi_gpu.nvlink"), config),
                    Catch::Contains("unknown key 'bandwidth_gbps' at multi_gpu.nvlink"));
}
