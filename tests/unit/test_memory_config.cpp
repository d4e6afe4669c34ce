#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "modules/common/config_document.h"
#include "modules/common/config_reader.h"
#include "modules/common/errors.h"
#include "modules/interconnect/electrical_channel.h"
#include "modules/memory/controller_config.h"
#include "modules/memory/dram_config.h"
#include "platforms/platform_config.h"

using namespace ohmvp;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using nlohmann::json;

namespace {

const std::filesystem::path k_configs = std::filesystem::path(OHMVP_SOURCE_DIR) / "configs";

ConfigDocument load_platform(const std::string& name) {
  return ConfigDocument::load(k_configs / "platforms" / (name + ".json"), {k_configs});
}

// Parses `node` as the block at dotted `path`.
template <class Config>
Config parse_block(const json& node, const std::string& path) {
  Config config;
  parse(ConfigReader(node, path), config);
  return config;
}

// The ConfigError message `action` throws; fails the test if it throws nothing.
std::string error_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const ConfigError& e) {
    return e.what();
  }
  FAIL("expected a ConfigError");
  return "";
}

std::string geometry_error(const json& node) {
  return error_of([&] { parse_block<DramGeometry>(node, "memory.dram.geometry"); });
}
std::string timing_error(const json& node) {
  return error_of([&] { parse_block<DramTimingNs>(node, "memory.dram.timing"); });
}
std::string controller_error(const json& node) {
  return error_of([&] { parse_block<ControllerConfig>(node, "memory.controller"); });
}
std::string channel_error(const json& node) {
  return error_of([&] { parse_block<ElectricalChannelConfig>(node, "memory.channel"); });
}

// The shipped platform's resolved JSON with `edit` applied, parsed as an inline document.
std::string platform_error(const std::function<void(json&)>& edit) {
  json root = load_platform("ddr4_2400").json();
  edit(root);
  return error_of([&] { parse_platform(ConfigDocument(root)); });
}

void check_ddr4_2400_cycles(const DramTiming& t) {
  CHECK(t.tCK_ps == 833);
  CHECK(t.CL == 16);
  CHECK(t.CWL == 12);
  CHECK(t.RCD == 16);
  CHECK(t.RP == 16);
  CHECK(t.RAS == 39);
  CHECK(t.RC == 55);
  CHECK(t.RRD_S == 4);
  CHECK(t.RRD_L == 6);
  CHECK(t.FAW == 26);
  CHECK(t.CCD_S == 4);
  CHECK(t.CCD_L == 6);
  CHECK(t.WR == 18);
  CHECK(t.WTR_S == 3);
  CHECK(t.WTR_L == 9);
  CHECK(t.RTP == 9);
  CHECK(t.REFI == 9364);
  CHECK(t.RFC == 420);
  CHECK(t.RTRS == 1);
  CHECK(t.BURST == 4);
  CHECK(t.RTW() == 10);
  CHECK(t.ps(t.CL) == 13328);
}

}  // namespace

TEST_CASE("memory config: ns_to_cycles rounds up, but snaps to a cycle boundary within 0.1%") {
  CHECK(ns_to_cycles(0.0, 0.833) == 0);
  CHECK(ns_to_cycles(0.833, 0.833) == 1);
  CHECK(ns_to_cycles(3.332, 0.833) == 4);   // exactly 4
  CHECK(ns_to_cycles(32.0, 0.833) == 39);   // 38.4: up
  CHECK(ns_to_cycles(13.32, 0.833) == 16);  // 15.99: up
  CHECK(ns_to_cycles(0.01, 1.0) == 1);      // any positive time takes a cycle
  // tCK written with three digits (0.833 for 0.8333 ns) must not cost a cycle.
  CHECK(ns_to_cycles(15.0, 0.833) == 18);        // 18.007
  CHECK(ns_to_cycles(7.5, 0.833) == 9);          // 9.004
  CHECK(ns_to_cycles(2.5, 0.833) == 3);          // 3.001
  CHECK(ns_to_cycles(350.0, 0.833) == 420);      // 420.17
  CHECK(ns_to_cycles(64.0 / 19.2, 0.833) == 4);  // 4.0016: a DDR4-2400 BL8 burst
  // The boundary of the rule, relative to the cycle count.
  CHECK(ns_to_cycles(10.009, 1.0) == 10);
  CHECK(ns_to_cycles(10.011, 1.0) == 11);
  CHECK(ns_to_cycles(1.0009, 1.0) == 1);
  CHECK(ns_to_cycles(1.0011, 1.0) == 2);
  CHECK(ns_to_cycles(7800.0, 0.833) == 9364);  // 9363.75
}

TEST_CASE("memory config: to_cycles converts every field and takes the burst from the channel") {
  DramTimingNs ns;
  ns.tCK = 1.0;
  ns.tCL = 10, ns.tCWL = 8, ns.tRCD = 11, ns.tRP = 12, ns.tRAS = 30, ns.tRC = 42;
  ns.tRRD_S = 3, ns.tRRD_L = 4, ns.tFAW = 20, ns.tCCD_S = 2, ns.tCCD_L = 5;
  ns.tWR = 13, ns.tWTR_S = 6, ns.tWTR_L = 7, ns.tRTP = 9, ns.tREFI = 3900, ns.tRFC = 260;
  ns.tRTRS = 1.5;
  const DramTiming t = to_cycles(ns, 2.5);
  CHECK(t.tCK_ps == 1000);
  CHECK(t.CL == 10);
  CHECK(t.CWL == 8);
  CHECK(t.RCD == 11);
  CHECK(t.RP == 12);
  CHECK(t.RAS == 30);
  CHECK(t.RC == 42);
  CHECK(t.RRD_S == 3);
  CHECK(t.RRD_L == 4);
  CHECK(t.FAW == 20);
  CHECK(t.CCD_S == 2);
  CHECK(t.CCD_L == 5);
  CHECK(t.WR == 13);
  CHECK(t.WTR_S == 6);
  CHECK(t.WTR_L == 7);
  CHECK(t.RTP == 9);
  CHECK(t.REFI == 3900);
  CHECK(t.RFC == 260);
  CHECK(t.RTRS == 2);
  CHECK(t.BURST == 3);
  CHECK(t.RTW() == 7);  // 10 + 3 + 2 - 8
  DramTiming late_write = t;
  late_write.CWL = 20;
  CHECK(late_write.RTW() == 0);
}

TEST_CASE("memory config: the electrical channel's burst time and bus width") {
  ElectricalChannelConfig ddr4;  // 64 lanes at 2.4 Gb/s
  CHECK(ddr4.bus_bytes() == 8);
  CHECK(ddr4.burst_ns(64) == Approx(10.0 / 3.0));
  ElectricalChannelConfig gpu;
  gpu.lanes = 32;
  gpu.rate_gbps = 15.0;
  CHECK(gpu.bus_bytes() == 4);
  CHECK(gpu.burst_ns(64) == Approx(512.0 / 480.0));
}

TEST_CASE("memory config: electrical channel parse and validation") {
  const auto c =
      parse_block<ElectricalChannelConfig>({{"lanes", 16}, {"rate_gbps", 8}}, "memory.channel");
  CHECK(c.lanes == 16);
  CHECK(c.rate_gbps == 8.0);
  CHECK_THAT(channel_error({{"lanes", 12}}),
             Contains("memory.channel.lanes") && Contains("expected a multiple of 8"));
  CHECK_THAT(channel_error({{"lanes", 4}}),
             Contains("memory.channel.lanes") && Contains("out of range; expected 8 to 4096"));
  CHECK_THAT(channel_error({{"rate_gbps", 0}}),
             Contains("memory.channel.rate_gbps") && Contains("out of range"));
  CHECK_THAT(channel_error({{"width", 64}}), Contains("unknown key 'width' at memory.channel"));
}

TEST_CASE("memory config: DRAM geometry parse") {
  const auto g = parse_block<DramGeometry>({{"ranks", 2},
                                            {"bank_groups", 2},
                                            {"banks_per_group", 8},
                                            {"rows", 4096},
                                            {"columns", 512},
                                            {"burst_length", 16}},
                                           "memory.dram.geometry");
  CHECK(g.ranks == 2);
  CHECK(g.bank_groups == 2);
  CHECK(g.banks_per_group == 8);
  CHECK(g.rows == 4096);
  CHECK(g.columns == 512);
  CHECK(g.burst_length == 16);
  CHECK(g.banks() == 16);
  CHECK(g.total_banks() == 32);
  SECTION("absent keys keep the defaults") {
    const auto d = parse_block<DramGeometry>(json::object(), "memory.dram.geometry");
    CHECK(d.ranks == 1);
    CHECK(d.banks() == 16);
    CHECK(d.rows == 65536);
    CHECK(d.burst_length == 8);
  }
}

TEST_CASE("memory config: DRAM geometry validation") {
  for (const char* key :
       {"ranks", "bank_groups", "banks_per_group", "rows", "columns", "burst_length"}) {
    DYNAMIC_SECTION(key << " must be a power of two") {
      CHECK_THAT(geometry_error({{key, 3}}), Contains(std::string("memory.dram.geometry.") + key) &&
                                                 Contains("expected a power of two"));
      CHECK_THAT(geometry_error({{key, 0}}), Contains(std::string("memory.dram.geometry.") + key) &&
                                                 Contains("out of range; expected 1 to"));
    }
  }
  CHECK_THAT(geometry_error({{"ranks", 32}}),
             Contains("memory.dram.geometry.ranks") && Contains("expected 1 to 16"));
  CHECK_THAT(
      geometry_error({{"columns", 8}, {"burst_length", 16}}),
      Contains("memory.dram.geometry.burst_length") && Contains("expected at most 'columns'"));
  CHECK_THAT(geometry_error({{"rows", "many"}}),
             Contains("memory.dram.geometry.rows") && Contains("expected unsigned integer"));
  CHECK_THAT(geometry_error({{"bank", 4}}), Contains("unknown key 'bank' at memory.dram.geometry"));
}

TEST_CASE("memory config: DRAM timing parse") {
  json node = {{"tCK_ns", 1.25}};
  const char* keys[] = {"tCL_ns",    "tCWL_ns",   "tRCD_ns", "tRP_ns",    "tRAS_ns",   "tRC_ns",
                        "tRRD_S_ns", "tRRD_L_ns", "tFAW_ns", "tCCD_S_ns", "tCCD_L_ns", "tWR_ns",
                        "tWTR_S_ns", "tWTR_L_ns", "tRTP_ns", "tREFI_ns",  "tRFC_ns",   "tRTRS_ns"};
  double value = 1.0;
  for (const char* key : keys) node[key] = value++;
  node["tRC_ns"] = 100.0;     // >= tRAS + tRP = 5 + 4
  node["tREFI_ns"] = 7800.0;  // > tRFC
  const auto t = parse_block<DramTimingNs>(node, "memory.dram.timing");
  CHECK(t.tCK == 1.25);
  CHECK(t.tCL == 1.0);
  CHECK(t.tCWL == 2.0);
  CHECK(t.tRCD == 3.0);
  CHECK(t.tRP == 4.0);
  CHECK(t.tRAS == 5.0);
  CHECK(t.tRC == 100.0);
  CHECK(t.tRRD_S == 7.0);
  CHECK(t.tRRD_L == 8.0);
  CHECK(t.tFAW == 9.0);
  CHECK(t.tCCD_S == 10.0);
  CHECK(t.tCCD_L == 11.0);
  CHECK(t.tWR == 12.0);
  CHECK(t.tWTR_S == 13.0);
  CHECK(t.tWTR_L == 14.0);
  CHECK(t.tRTP == 15.0);
  CHECK(t.tREFI == 7800.0);
  CHECK(t.tRFC == 17.0);
  CHECK(t.tRTRS == 18.0);
}

TEST_CASE("memory config: DRAM timing validation") {
  SECTION("tRC at least tRAS + tRP") {
    const json exact = {{"tRAS_ns", 32.0}, {"tRP_ns", 13.32}, {"tRC_ns", 45.32}};
    CHECK_NOTHROW(parse_block<DramTimingNs>(exact, "memory.dram.timing"));
    CHECK_THAT(
        timing_error({{"tRAS_ns", 32.0}, {"tRP_ns", 13.32}, {"tRC_ns", 45.0}}),
        Contains("memory.dram.timing.tRC_ns") && Contains("expected at least tRAS_ns + tRP_ns"));
    // The defaults count when only one side is configured.
    CHECK_THAT(timing_error({{"tRAS_ns", 40.0}}), Contains("memory.dram.timing.tRC_ns"));
  }
  SECTION("tREFI more than tRFC") {
    CHECK_THAT(timing_error({{"tREFI_ns", 350.0}, {"tRFC_ns", 350.0}}),
               Contains("memory.dram.timing.tREFI_ns") && Contains("expected more than tRFC_ns"));
    CHECK_NOTHROW(parse_block<DramTimingNs>({{"tREFI_ns", 7800.0}, {"tRFC_ns", 350.0}},
                                            "memory.dram.timing"));
  }
  SECTION("a row opened must be used and closed between two refreshes") {
    const json slow_activate = {{"tREFI_ns", 3900.0}, {"tRFC_ns", 350.0}, {"tRCD_ns", 5000.0},
                                {"tRAS_ns", 5000.0},  {"tRC_ns", 5020.0}, {"tRP_ns", 14.0}};
    CHECK_THAT(timing_error(slow_activate),
               Contains("memory.dram.timing.tREFI_ns") && Contains("an access would never finish"));
  }
  SECTION("ranges and types") {
    CHECK_THAT(timing_error({{"tCK_ns", 0}}),
               Contains("memory.dram.timing.tCK_ns") && Contains("out of range"));
    CHECK_THAT(timing_error({{"tWR_ns", -1.0}}),
               Contains("memory.dram.timing.tWR_ns") && Contains("out of range"));
    CHECK_THAT(timing_error({{"tFAW_ns", "21"}}),
               Contains("memory.dram.timing.tFAW_ns") && Contains("expected number"));
  }
  SECTION("unknown keys, with a suggestion") {
    CHECK_THAT(timing_error({{"tRDC_ns", 13.32}}),
               Contains("unknown key 'tRDC_ns' at memory.dram.timing") &&
                   Contains("did you mean 'tRCD_ns'?"));
    CHECK_THAT(timing_error({{"tCL", 13.32}}), Contains("unknown key 'tCL'"));
  }
  SECTION("notes beginning with '_' are allowed") {
    CHECK_NOTHROW(parse_block<DramTimingNs>({{"_source", "JEDEC"}}, "memory.dram.timing"));
  }
}

TEST_CASE("memory config: controller parse") {
  const json node = {{"scheduler", "fcfs"},
                     {"page_policy", "adaptive"},
                     {"read_queue", 16},
                     {"write_queue", 48},
                     {"write_high_watermark", 40},
                     {"write_low_watermark", 10},
                     {"min_writes_per_switch", 4},
                     {"min_reads_per_switch", 2},
                     {"row_hit_cap", 8},
                     {"refresh", false},
                     {"address_mapping", {{"scheme", "row:column:bank"}}}};
  const auto c = parse_block<ControllerConfig>(node, "memory.controller");
  CHECK(c.scheduler == SchedulerKind::fcfs);
  CHECK(c.page_policy == PagePolicyKind::adaptive);
  CHECK(c.read_queue == 16);
  CHECK(c.write_queue == 48);
  CHECK(c.write_high_watermark == 40);
  CHECK(c.write_low_watermark == 10);
  CHECK(c.min_writes_per_switch == 4);
  CHECK(c.min_reads_per_switch == 2);
  CHECK(c.row_hit_cap == 8);
  CHECK_FALSE(c.refresh);
  CHECK(c.address_mapping.scheme == "row:column:bank");
  const auto closed = parse_block<ControllerConfig>({{"page_policy", "closed"}}, "c");
  CHECK(closed.page_policy == PagePolicyKind::closed);
  CHECK(closed.scheduler == SchedulerKind::fr_fcfs);
}

TEST_CASE("memory config: controller validation") {
  CHECK_THAT(controller_error({{"scheduler", "fr-fcfs"}}),
             Contains("memory.controller.scheduler") && Contains("unknown value 'fr-fcfs'") &&
                 Contains("'fr_fcfs', 'fcfs'"));
  CHECK_THAT(controller_error({{"page_policy", "opened"}}),
             Contains("memory.controller.page_policy") &&
                 Contains("expected one of 'open', 'closed', 'adaptive'"));
  CHECK_THAT(controller_error({{"read_queue", 0}}),
             Contains("memory.controller.read_queue") && Contains("expected 1 to 1024"));
  CHECK_THAT(controller_error({{"write_queue", 16}, {"write_high_watermark", 17}}),
             Contains("memory.controller.write_high_watermark") &&
                 Contains("expected at most write_queue (16), got 17"));
  CHECK_THAT(controller_error({{"write_high_watermark", 8}, {"write_low_watermark", 8}}),
             Contains("memory.controller.write_low_watermark") &&
                 Contains("expected less than write_high_watermark (8), got 8"));
  // The defaults (24 and 8) are checked against a configured queue too.
  CHECK_THAT(controller_error({{"write_queue", 16}}),
             Contains("memory.controller.write_high_watermark") &&
                 Contains("expected at most write_queue (16), got 24"));
  CHECK_THAT(controller_error({{"write_high_watermark", 4}}),
             Contains("memory.controller.write_low_watermark") &&
                 Contains("expected less than write_high_watermark (4), got 8"));
  CHECK_THAT(controller_error({{"min_writes_per_switch", 0}}),
             Contains("memory.controller.min_writes_per_switch") && Contains("expected 1 to 1024"));
  CHECK_THAT(controller_error({{"min_reads_per_switch", 2000}}),
             Contains("memory.controller.min_reads_per_switch") && Contains("expected 1 to 1024"));
  CHECK_THAT(controller_error({{"row_hit_cap", -1}}), Contains("memory.controller.row_hit_cap"));
  CHECK_THAT(controller_error({{"refresh", 1}}),
             Contains("memory.controller.refresh") && Contains("expected boolean"));
  CHECK_THAT(controller_error({{"address_mapping", {{"sceme", "row:bank:column"}}}}),
             Contains("unknown key 'sceme' at memory.controller.address_mapping"));
  CHECK_THAT(controller_error({{"queue", 8}}),
             Contains("unknown key 'queue' at memory.controller"));
}

TEST_CASE("memory config: the shipped DDR4-2400 platform") {
  const PlatformConfig p = parse_platform(load_platform("ddr4_2400"));
  CHECK(p.name == "ddr4_2400");
  CHECK_THAT(p.description, Contains("DDR4-2400"));
  CHECK(p.default_workload == "stream_read");
  const MemorySystemConfig& m = p.memory;
  CHECK(m.channels == 1);
  CHECK(m.interleave_bytes == 256);
  CHECK(m.controller.scheduler == SchedulerKind::fr_fcfs);
  CHECK(m.controller.page_policy == PagePolicyKind::open);
  CHECK(m.controller.read_queue == 32);
  CHECK(m.controller.write_high_watermark == 24);
  CHECK(m.controller.write_low_watermark == 8);
  CHECK(m.controller.min_writes_per_switch == 16);
  CHECK(m.controller.min_reads_per_switch == 16);
  CHECK(m.controller.row_hit_cap == 16);
  CHECK(m.controller.refresh);
  CHECK(m.controller.address_mapping.scheme == "row:bank:column");
  CHECK(m.channel.lanes == 64);
  CHECK(m.channel.rate_gbps == 2.4);
  CHECK(m.geometry.ranks == 1);
  CHECK(m.geometry.banks() == 16);
  CHECK(m.geometry.rows == 65536);
  CHECK(m.geometry.columns == 1024);
  CHECK(m.geometry.burst_length == 8);
  CHECK(m.timing.tCK == 0.833);
  CHECK(m.timing.tCL == 13.32);
  check_ddr4_2400_cycles(m.timing_cycles());
}

TEST_CASE("memory config: the shipped Ohm-GPU DRAM platform") {
  const PlatformConfig p = parse_platform(load_platform("ohm_gpu_dram"));
  CHECK(p.name == "ohm_gpu_dram");
  CHECK(p.default_workload == "random_mix");
  const MemorySystemConfig& m = p.memory;
  CHECK(m.channels == 6);
  CHECK(m.interleave_bytes == 256);
  CHECK(m.channel.lanes == 32);
  CHECK(m.channel.rate_gbps == 15.0);
  CHECK(m.geometry.rows == 16384);
  CHECK(m.geometry.burst_length == 16);
  const DramTiming t = m.timing_cycles();
  CHECK(t.tCK_ps == 533);
  CHECK(t.CL == 21);
  CHECK(t.CWL == 15);  // 15.009 cycles: within 0.1%
  CHECK(t.RCD == 47);
  CHECK(t.RP == 19);
  CHECK(t.RAS == 53);
  CHECK(t.RC == 72);
  CHECK(t.RRD_S == 10);
  CHECK(t.RRD_L == 10);
  CHECK(t.FAW == 44);
  CHECK(t.CCD_S == 2);
  CHECK(t.CCD_L == 4);
  CHECK(t.WR == 29);
  CHECK(t.WTR_S == 5);
  CHECK(t.WTR_L == 10);
  CHECK(t.RTP == 15);
  CHECK(t.REFI == 7317);  // 7317.07
  CHECK(t.RFC == 488);
  CHECK(t.RTRS == 1);
  CHECK(t.BURST == 2);  // 64 bytes over 32 lanes at 15 Gb/s: 1.067 ns
}

TEST_CASE("memory config: platform validation") {
  CHECK_THAT(platform_error([](json& j) { j["memory"]["channel"]["type"] = "wireless"; }),
             Contains("memory.channel.type") && Contains("electrical") && Contains("optical"));
  // An optical channel needs its configuration (tests/unit/test_optical_platform_config.cpp).
  CHECK_THAT(platform_error([](json& j) {
               j["memory"]["channel"] = {{"type", "optical"}};
             }),
             Contains("memory.optical") && Contains("missing"));
  CHECK_THAT(platform_error([](json& j) { j["memory"]["interleave_bytes"] = 96; }),
             Contains("memory.interleave_bytes") &&
                 Contains("expected a multiple of the burst size (64 bytes)"));
  // Whole bursts, but no whole number of them in a channel's power-of-two capacity.
  CHECK_THAT(platform_error([](json& j) { j["memory"]["interleave_bytes"] = 192; }),
             Contains("memory.interleave_bytes: expected a divisor of a channel's") &&
                 Contains("bytes of DRAM") && Contains("memory.dram.geometry"));
  CHECK_THAT(platform_error([](json& j) { j["memory"]["channels"] = 0; }),
             Contains("memory.channels") && Contains("expected 1 to 64"));
  CHECK_THAT(
      platform_error([](json& j) { j["memory"]["dram"]["timing"]["tRC_ns"] = 40.0; }),
      Contains("memory.dram.timing.tRC_ns") && Contains("expected at least tRAS_ns + tRP_ns"));
  CHECK_THAT(platform_error([](json& j) { j["memory"]["dram"]["geometry"]["rows"] = 1000; }),
             Contains("memory.dram.geometry.rows") && Contains("expected a power of two"));
}

TEST_CASE("memory config: a GPU's L2 sector fits in one memory burst") {
  json root = load_platform("gpu_small").json();
  root["memory"]["dram"]["geometry"]["burst_length"] = 4;  // 32 lanes: 16-byte bursts
  CHECK_THAT(error_of([&] { parse_platform(ConfigDocument(root)); }),
             Contains("gpu.l2.sector_bytes: expected at most the memory burst, 16 bytes "
                      "(4-byte columns x burst_length 4)"));
  root["gpu"]["l2"]["sector_bytes"] = 16;
  root["gpu"]["l1d"]["sector_bytes"] = 16;
  CHECK_NOTHROW(parse_platform(ConfigDocument(root)));
}

TEST_CASE("memory config: platform rejects unknown keys at every level") {
  CHECK_THAT(platform_error([](json& j) { j["memroy"] = json::object(); }),
             Contains("unknown key 'memroy' at top level"));
  // Named before the checks across sections, which the misspelt section would have failed.
  CHECK_THAT(platform_error([](json& j) {
               j["memory"]["mode"] = "paged";
               j["memry"] = json{{"host_memory", {{"capacity_kib", 1}}}};
             }),
             Contains("unknown key 'memry' at top level; did you mean 'memory'?"));
  CHECK_THAT(platform_error([](json& j) { j["platform"]["owner"] = "me"; }),
             Contains("unknown key 'owner' at platform"));
  CHECK_THAT(platform_error([](json& j) { j["memory"]["channel_count"] = 2; }),
             Contains("unknown key 'channel_count' at memory"));
  CHECK_THAT(platform_error([](json& j) { j["memory"]["dram"]["voltage"] = 1.2; }),
             Contains("unknown key 'voltage' at memory.dram"));
  CHECK_THAT(platform_error([](json& j) { j["memory"]["channel"]["lane"] = 64; }),
             Contains("unknown key 'lane' at memory.channel"));
}

TEST_CASE("memory config: a loaded platform's errors name the file that set the value") {
  ConfigDocument document = load_platform("ddr4_2400");
  document.apply_override("memory.dram.geometry.rows=1000");
  CHECK_THAT(error_of([&] { parse_platform(document); }),
             Contains("--set") && Contains("memory.dram.geometry.rows"));
  ConfigDocument timing = load_platform("ddr4_2400");
  timing.apply_override("memory.dram.timing.tRFC_ns=8000.0");
  CHECK_THAT(error_of([&] { parse_platform(timing); }),
             Contains("memory.dram.timing.tREFI_ns") && Contains("expected more than tRFC_ns"));
  // A conflict made through any of the values a check reads begins with where that was set.
  for (const char* set : {"memory.dram.timing.tRP_ns=26.64", "memory.dram.timing.tCWL_ns=10000"}) {
    ConfigDocument conflict = load_platform("ddr4_2400");
    conflict.apply_override(set);
    CHECK_THAT(error_of([&] { parse_platform(conflict); }), StartsWith("--set: "));
  }
  ConfigDocument registers = load_platform("gpu_small");
  registers.apply_override("gpu.sm_limits.registers=3");
  CHECK_THAT(error_of([&] { parse_platform(registers); }),
             StartsWith("--set: gpu.sm_limits.register_allocation_unit: expected at most "
                        "registers (3)"));
  // The default address mapping has no rank field: the message says where the ranks came from.
  ConfigDocument ranks = load_platform("ddr4_2400");
  ranks.apply_override("memory.dram.geometry.ranks=2");
  CHECK_THAT(error_of([&] { parse_platform(ranks); }),
             Contains("memory.controller.address_mapping.scheme: the default 'row:bank:column' "
                      "lacks field 'rank' (2 values: memory.dram.geometry.ranks = 2)") &&
                 Contains("such as 'row:rank:bank:column' (memory.dram.geometry.ranks is set "
                          "in --set)"));
  // Every geometry key the message names says where it was set: columns and burst_length here.
  nlohmann::json root = load_platform("ddr4_2400").json();
  root["memory"]["controller"]["address_mapping"] = {{"scheme", "row:rank:bank"}};
  ConfigDocument columns(root, "p.json");
  columns.apply_override("memory.dram.geometry.burst_length=4");
  CHECK_THAT(error_of([&] { parse_platform(columns); }),
             Contains("'row:rank:bank' lacks field 'column'") &&
                 Contains("(memory.dram.geometry.burst_length is set in --set)"));
}

TEST_CASE("memory config: a platform without a name takes the file's") {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("ohmvp_memory_config_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::filesystem::path file = dir / "my_board.json";
  std::ofstream(file) << R"({"extends": ["memory/controller_default", "channels/ddr4_x64",
                                         "memory/ddr4_2400_x8"]})";
  const PlatformConfig loaded = parse_platform(ConfigDocument::load(file, {k_configs}));
  std::filesystem::remove_all(dir);
  CHECK(loaded.name == "my_board");
  CHECK(loaded.default_workload == "stream_read");
  check_ddr4_2400_cycles(loaded.memory.timing_cycles());

  json root = load_platform("ddr4_2400").json();
  root["platform"].erase("name");
  CHECK(parse_platform(ConfigDocument(root)).name.empty());  // inline: nothing to name it after
  root["platform"]["name"] = "";
  CHECK_THROWS_WITH(parse_platform(ConfigDocument(root)),
                    Catch::Contains("platform.name: is empty; expected the platform's name"));
}
