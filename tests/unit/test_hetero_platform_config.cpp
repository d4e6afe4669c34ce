#include <catch2/catch.hpp>

#include <filesystem>
#include <functional>
#include <string>

#include "modules/common/config_document.h"
#include "modules/common/errors.h"
#include "modules/host/gpu_workload.h"
#include "modules/host/simd_efficiency_experiment.h"
#include "platforms/platform_config.h"
#include "tests/unit/gpu_workload_fixture.h"
#include "tests/unit/platform_config_fixture.h"

using namespace ohmvp;
using Catch::Matchers::Contains;
using nlohmann::json;
using test::error_of;
using test::parse_shipped;

namespace {

constexpr uint64_t KiB = 1024;
constexpr uint64_t MiB = 1024 * KiB;

}  // namespace

TEST_CASE("hetero platforms: the shipped files parse to the documented capacities",
          "[hetero_platform]") {
  const PlatformConfig planar = parse_shipped("hetero_planar");
  CHECK(planar.name == "hetero_planar");
  CHECK(planar.memory.mode == MemoryMode::planar);
  CHECK(planar.memory.hetero.mode == HeteroMode::planar);
  CHECK(planar.memory.dram_bytes_per_channel() == 8 * KiB);
  CHECK(planar.memory.xpoint.capacity_bytes() == 64 * KiB);
  CHECK(planar.memory.channel_capacity_bytes() == 8 * KiB + 64 * KiB);
  CHECK(planar.memory.capacity_bytes() == 6 * 72 * KiB);
  // 64 bytes on 32 lanes at 15 Gb/s.
  CHECK(planar.memory.hetero.burst_ns == Approx(64 * 8 / (32 * 15.0)));
  CHECK(planar.gpu.has_value());

  const PlatformConfig two_level = parse_shipped("hetero_two_level");
  CHECK(two_level.memory.mode == MemoryMode::two_level);
  CHECK(two_level.memory.hetero.mode == HeteroMode::two_level);
  CHECK(two_level.memory.capacity_bytes() == 3 * MiB);

  CHECK(parse_shipped("oracle_planar").memory.mode == MemoryMode::dram);
  CHECK(parse_shipped("oracle_planar").memory.capacity_bytes() >= planar.memory.capacity_bytes());
  CHECK(parse_shipped("oracle_two_level").memory.capacity_bytes() ==
        two_level.memory.capacity_bytes());
  // Origin: the hetero platform's DRAM, paging the hetero platform's capacity from host memory.
  for (const auto& [origin, hetero] :
       {std::pair{"origin_planar", &planar}, std::pair{"origin_two_level", &two_level}}) {
    INFO(origin);
    const PlatformConfig o = parse_shipped(origin);
    CHECK(o.memory.mode == MemoryMode::paged);
    CHECK(o.memory.hetero.mode == HeteroMode::paged);
    CHECK(o.memory.dram_bytes_per_channel() == hetero->memory.dram_bytes_per_channel());
    CHECK(o.memory.capacity_bytes() == hetero->memory.capacity_bytes());
    CHECK(o.memory.hetero.fault_ns == 45000.0);
    CHECK(o.memory.host_link.bandwidth_gb_per_s == o.pcie.bandwidth_gb_per_s);
  }
  // Every shipped kernel's footprint (50 to 209 KiB) exceeds the 48 KiB of DRAM.
  CHECK(6 * planar.memory.dram_bytes_per_channel() == 48 * KiB);
}

TEST_CASE("hetero platforms: all fourteen have the Ohm-GPU paper's GPU with the scaled L2",
          "[hetero_platform]") {
  for (const char* platform :
       {"origin", "hetero", "ohm_base", "auto_rw", "ohm_wom", "ohm_bw", "oracle"}) {
    for (const char* mode : {"_planar", "_two_level"}) {
      const std::string name = std::string(platform) + mode;
      INFO(name);
      const PlatformConfig p = parse_shipped(name);
      REQUIRE(p.gpu.has_value());
      // Table 1 (PARAMETERS.md): 16 SMs at 1.2 GHz, 48 KB 6-way L1s, an 8-way L2.
      CHECK(p.gpu->sm_count == 16);
      CHECK(p.gpu->core_clock_mhz == 1200.0);
      CHECK(p.gpu->l1d.size_bytes == 48 * KiB);
      CHECK(p.gpu->l1d.ways == 6);
      CHECK(p.gpu->l2.ways == 8);
      CHECK(p.gpu->l2.size_bytes == 24 * KiB);  // half the 48 KiB of DRAM (configs/gpu/scaled_l2)
    }
  }
}

TEST_CASE("hetero platforms: DRAM-only platforms keep their mode and capacity",
          "[hetero_platform]") {
  const PlatformConfig ddr4 = parse_shipped("ddr4_2400");
  CHECK(ddr4.memory.mode == MemoryMode::dram);
  CHECK_FALSE(ddr4.memory.is_hetero());
  CHECK(ddr4.memory.capacity_bytes() == 8 * 1024 * MiB);
  CHECK(parse_shipped("ohm_gpu_dram").memory.capacity_bytes() == 6 * 1024 * MiB);
}

TEST_CASE("hetero platforms: bad memory modes and sections are errors naming the key",
          "[hetero_platform]") {
  CHECK_THAT(error_of("ohm_gpu_dram", [](json& j) { j["memory"]["mode"] = "flat"; }),
             Contains("memory.mode") && Contains("planar"));
  CHECK_THAT(error_of("ohm_gpu_dram",
                      [](json& j) {
                        j["memory"]["xpoint"] = {{"capacity_kib", 1024}};
                      }),
             Contains("memory.xpoint") &&
                 Contains("only when memory.mode is \"planar\", \"two_level\" or \"paged\"; "
                          "memory.mode is not set and defaults to \"dram\""));
  CHECK_THAT(error_of("hetero_planar", [](json& j) { j["memory"]["mode"] = "dram"; }),
             Contains("memory.hetero: only when memory.mode is") &&
                 Contains("memory.hetero.mode does not set the mode, memory.mode does"));
  // The section's own mode key is easily taken for memory.mode: the message says which it means.
  CHECK_THAT(error_of("hetero_planar", [](json& j) { j["memory"].erase("mode"); }),
             Contains("memory.mode is not set and defaults to \"dram\"; memory.hetero.mode does "
                      "not set the mode, memory.mode does"));
  CHECK_THAT(
      error_of("hetero_planar", [](json& j) { j["memory"]["hetero"]["mode"] = "two_level"; }),
      Contains("memory.hetero.mode: expected memory.mode's value (\"planar\") or nothing, got "
               "\"two_level\""));
  CHECK_THAT(error_of("hetero_planar", [](json& j) { j["memory"]["hetero"]["burst_ns"] = 3.3; }),
             Contains("memory.hetero.burst_ns") && Contains("from the channel"));
  CHECK_THAT(error_of("hetero_planar", [](json& j) { j["memory"]["hetero"]["page_byte"] = 4096; }),
             Contains("page_bytes"));
  CHECK_THAT(error_of("hetero_planar", [](json& j) { j["memory"]["xpoint"]["psi"] = 4; }),
             Contains("memory.xpoint"));
  // 1 MiB of XPoint over 8 KiB of DRAM is 1:128, beyond the 6 tag bits.
  CHECK_THAT(
      error_of("hetero_two_level", [](json& j) { j["memory"]["xpoint"]["capacity_kib"] = 1024; }),
      Contains("memory") && Contains("between 1 and 64"));
  CHECK_THAT(error_of("hetero_two_level",
                      [](json& j) {
                        j["memory"]["xpoint"]["line_bytes"] = 4096;
                        j["memory"]["xpoint"]["capacity_kib"] = 514;
                      }),
             Contains("memory.xpoint.capacity_kib") && Contains("whole media lines"));
  // 128 KiB of DRAM (32 rows) over 64 KiB of XPoint: XPoint is no whole multiple of DRAM.
  CHECK_THAT(
      error_of("hetero_planar", [](json& j) { j["memory"]["dram"]["geometry"]["rows"] = 32; }),
      Contains("whole multiple"));
  // Paged mode: a host_memory section, no xpoint one; host memory of whole pages, no smaller than
  // DRAM.
  CHECK_THAT(
      error_of("hetero_planar", [](json& j) { j["memory"]["host_memory"] = json::object(); }),
      Contains("memory.host_memory") && Contains("paged"));
  CHECK_THAT(error_of("origin_planar",
                      [](json& j) {
                        j["memory"]["xpoint"] = {{"capacity_kib", 64}};
                      }),
             Contains("memory.xpoint") && Contains("paged"));
  CHECK_THAT(
      error_of("origin_planar", [](json& j) { j["memory"]["host_memory"]["capacity_kib"] = 4; }),
      Contains("at least as large as DRAM"));
  CHECK_THAT(
      error_of("origin_planar", [](json& j) { j["memory"]["host_memory"]["capacity_kib"] = 70; }),
      Contains("whole pages"));
  CHECK_THAT(
      error_of("origin_planar", [](json& j) { j["memory"]["host_memory"]["capacity_kb"] = 70; }),
      Contains("capacity_kib"));
  CHECK_THAT(error_of("origin_planar", [](json& j) { j["memory"]["hetero"]["fault_ns"] = -1; }),
             Contains("memory.hetero.fault_ns"));
  CHECK_THAT(error_of("origin_planar", [](json& j) { j["memory"]["hetero"]["auto_rw"] = true; }),
             Contains("memory.hetero.auto_rw") && Contains("paged"));
  // A key the mode has no use for is an error, even at its default value.
  const auto misplaced = [&](const char* platform, const char* key, const json& value) {
    return error_of(platform, [&](json& j) { j["memory"]["hetero"][key] = value; });
  };
  CHECK_THAT(misplaced("ohm_base_two_level", "hot_page", {{"threshold", 4}}),
             Contains("memory.hetero.hot_page: used only in planar mode, and mode is 'two_level'"));
  CHECK_THAT(misplaced("ohm_base_two_level", "page_groups", "contiguous"),
             Contains("memory.hetero.page_groups") && Contains("planar"));
  CHECK_THAT(misplaced("ohm_base_two_level", "migration_issue", "immediate"),
             Contains("memory.hetero.migration_issue") && Contains("planar"));
  CHECK_THAT(misplaced("ohm_base_two_level", "swap_cmd", false),
             Contains("memory.hetero.swap_cmd") && Contains("planar"));
  CHECK_THAT(misplaced("ohm_base_two_level", "max_migrations", 4),
             Contains("memory.hetero.max_migrations") && Contains("planar and paged"));
  CHECK_THAT(misplaced("ohm_base_planar", "reverse_write", false),
             Contains("memory.hetero.reverse_write") && Contains("two-level"));
  CHECK_THAT(misplaced("ohm_base_planar", "fault_ns", 100),
             Contains("memory.hetero.fault_ns") && Contains("paged"));
  CHECK_THAT(misplaced("origin_planar", "decay", {{"interval", 8}}),
             Contains("memory.hetero.decay") && Contains("'paged'"));
  CHECK_THAT(misplaced("origin_planar", "ddr_t_tags", 8),
             Contains("memory.hetero.ddr_t_tags") && Contains("planar and two-level"));
  // The manager serves 64-byte bursts only (32-bit bus x BL8 = 32 bytes).
  CHECK_THAT(error_of("hetero_planar",
                      [](json& j) { j["memory"]["dram"]["geometry"]["burst_length"] = 8; }),
             Contains("64-byte DRAM bursts"));
}

TEST_CASE("hetero platforms: every shipped kernel's footprint exceeds their DRAM",
          "[hetero_platform]") {
  const PlatformConfig planar = parse_shipped("hetero_planar");
  const uint64_t dram = planar.memory.dram_bytes_per_channel() * planar.memory.channels;
  const auto files = kernel_workload_files(test::workloads_dir());
  REQUIRE(files.size() >= 19);
  for (const auto& file : files) {
    uint64_t footprint = 0;
    for (const auto& [name, bytes] : initial_buffers(load_gpu_workload(file))) {
      footprint += bytes.size();
    }
    INFO(file.filename().string() << ": " << footprint << " bytes");
    CHECK(footprint > dram);
  }
}
