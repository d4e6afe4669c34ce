#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "modules/common/config_reader.h"
#include "modules/common/errors.h"
#include "modules/interconnect/pcie_link.h"

using ohmvp::PcieLink;

TEST_CASE("PCIe copy time is latency plus bytes over bandwidth", "[pcie]") {
  ohmvp::PcieLinkConfig config;
  config.bandwidth_gb_per_s = 10.0;
  config.latency_ns = 500.0;
  PcieLink link(config);
  // 1 MB at 10 GB/s = 100 us, plus 0.5 us.
  CHECK(link.transfer(PcieLink::Direction::host_to_device, 0, 1000000) == 100500000);
}

TEST_CASE("PCIe copy in parts: each part arrives as the bytes stream after the latency", "[pcie]") {
  ohmvp::PcieLinkConfig config;
  config.bandwidth_gb_per_s = 1.0;  // 1 byte per ns
  config.latency_ns = 500.0;
  PcieLink link(config);
  const auto h2d = PcieLink::Direction::host_to_device;
  link.transfer(h2d, 0, 100);  // the link is busy until 600 ns
  CHECK(link.transfer_parts(h2d, 0, 10000, 4096) ==
        std::vector<uint64_t>{(600 + 500 + 4096) * 1000, (600 + 500 + 8192) * 1000,
                              (600 + 500 + 10000) * 1000});
  CHECK(link.busy_ps(h2d) == (600 + 500 + 10000) * 1000);
  CHECK(link.transfer_parts(h2d, 20000000, 4096, 4096) ==
        std::vector<uint64_t>{(20000 + 500 + 4096) * 1000});
  // Appended bytes pay no latency: behind the copy, or from when they come.
  const auto d2h = PcieLink::Direction::device_to_host;
  CHECK(link.transfer(d2h, 0, 1000) == 1500000);
  CHECK(link.append(d2h, 0, 1000) == 2500000);
  CHECK(link.append(d2h, 9000000, 1000) == 10000000);
  CHECK(link.bytes(d2h) == 3000);
}

TEST_CASE("PCIe copies queue per direction and the directions are independent", "[pcie]") {
  ohmvp::PcieLinkConfig config;
  config.bandwidth_gb_per_s = 1.0;
  config.latency_ns = 0.0;
  PcieLink link(config);
  CHECK(link.transfer(PcieLink::Direction::host_to_device, 0, 1000) == 1000000);
  CHECK(link.transfer(PcieLink::Direction::host_to_device, 10, 1000) == 2000000);
  CHECK(link.transfer(PcieLink::Direction::device_to_host, 10, 1000) == 1000010);
  CHECK(link.transfer(PcieLink::Direction::host_to_device, 5000000, 1) == 5001000);
  CHECK(link.bytes(PcieLink::Direction::host_to_device) == 2001);
  CHECK(link.busy_ps(PcieLink::Direction::device_to_host) == 1000000);
}

TEST_CASE("PCIe accesses in host memory carry each packet's overhead", "[pcie]") {
  ohmvp::PcieLinkConfig config;
  config.bandwidth_gb_per_s = 1.0;
  config.latency_ns = 100.0;
  config.max_payload_bytes = 128;  // the wire carries 148/128 GB/s: 1 ns for each 148/128 bytes
  PcieLink link(config);
  // A load of two sectors in two runs: two read requests of 24 bytes towards host memory (41.5
  // ns), then 64 bytes in two completions of 20 bytes' overhead each (89.9 ns) back, and the
  // latency.
  CHECK(link.load(0, 64, 2) == 41514 + 89946 + 100000);
  CHECK(link.bytes(PcieLink::Direction::host_to_device) == 64);
  CHECK(link.bytes(PcieLink::Direction::device_to_host) == 0);
  CHECK(link.busy_ps(PcieLink::Direction::device_to_host) == 41514);
  // A store of 128 bytes in one posted write of 24 bytes' overhead queues behind the requests.
  CHECK(link.store(0, 128, 1) == 41514 + 131459 + 100000);
  CHECK(link.bytes(PcieLink::Direction::device_to_host) == 128);
  // A copy still holds its direction for latency + bytes / bandwidth: the payload rate.
  CHECK(link.transfer(PcieLink::Direction::host_to_device, 1000000, 1000) == 2100000);
}

TEST_CASE("PCIe config rejects unknown keys and bad ranges", "[pcie]") {
  ohmvp::PcieLinkConfig config;
  const auto bad_key = nlohmann::json::parse(R"({"bandwith_gb_per_s": 3})");
  CHECK_THROWS_WITH(parse(ohmvp::ConfigReader(bad_key, "pcie"), config),
                    Catch::Contains("did you mean 'bandwidth_gb_per_s'"));
  const auto bad_value = nlohmann::json::parse(R"({"bandwidth_gb_per_s": 0})");
  CHECK_THROWS_AS(parse(ohmvp::ConfigReader(bad_value, "pcie"), config), ohmvp::ConfigError);
  const auto odd_payload = nlohmann::json::parse(R"({"max_payload_bytes": 384})");
  CHECK_THROWS_WITH(parse(ohmvp::ConfigReader(odd_payload, "pcie"), config),
                    Catch::Contains("max_payload_bytes") && Catch::Contains("power of two"));
  const auto small_payload = nlohmann::json::parse(R"({"max_payload_bytes": 64})");
  CHECK_THROWS_AS(parse(ohmvp::ConfigReader(small_payload, "pcie"), config), ohmvp::ConfigError);
  const auto ok = nlohmann::json::parse(R"({"max_payload_bytes": 512})");
  parse(ohmvp::ConfigReader(ok, "pcie"), config);
  CHECK(config.max_payload_bytes == 512);
}
