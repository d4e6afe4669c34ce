#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "modules/common/config_document.h"
#include "modules/common/config_reader.h"
#include "modules/common/errors.h"
#include "modules/optical/energy_model.h"
#include "modules/optical/link_budget.h"
#include "modules/optical/optical_stats.h"

using namespace ohmvp;
using Catch::Matchers::Contains;

TEST_CASE("Energy model: each component from its counts", "[optical][energy]") {
  const EnergyModel model{EnergyConfig{}};
  EnergyCounts n;
  n.run_time_ps = 1'000'000'000;  // 1 ms
  n.laser_optical_mw = 0.73 * 96;
  n.laser_wall_plug_efficiency = 0.25;
  n.light_bits = 1'000'000;
  n.serdes_bits = 2'000'000;
  n.electrical_bits = 3'000'000;
  n.dram_activates = 10;
  n.dram_reads = 100;
  n.dram_writes = 50;
  n.dram_ranks = 12;
  n.dram_refresh_ps = 3 * 260'000;  // three REFs of 260 ns
  n.xpoint_read_bits = 4096;
  n.xpoint_write_bits = 8192;
  const EnergyBreakdown e = model.breakdown(n);
  CHECK(e.laser_j == Approx(0.73e-3 * 96 / 0.25 * 1e-3));
  CHECK(e.mrr_tuning_j == Approx(1e6 * 200e-15));
  CHECK(e.serdes_j == Approx(2e6 * 1e-12));
  CHECK(e.electrical_channel_j == Approx(3e6 * 5e-12));
  CHECK(e.dram_dynamic_j == Approx((10 * 1.0 + 100 * 0.9 + 50 * 1.0) * 1e-9));
  CHECK(e.dram_static_j == Approx(12 * 0.1 * 1e-3));
  CHECK(e.dram_refresh_j == Approx(3 * 260e-9 * 0.2));
  CHECK(e.xpoint_read_j == Approx(4096 * 2.5e-12));
  CHECK(e.xpoint_write_j == Approx(8192 * 17e-12));
  CHECK(e.optical_j() == Approx(e.laser_j + e.mrr_tuning_j + e.serdes_j));
  double sum = 0.0;
  for (const auto& item : e.items()) sum += item.second;
  CHECK(e.total_j() == Approx(sum));
  CHECK(e.items().size() == 9);
  CHECK(e.items().front().first == "laser");
}

TEST_CASE("Energy model: static energy grows with time, dynamic with accesses",
          "[optical][energy]") {
  const EnergyModel model{EnergyConfig{}};
  EnergyCounts n;
  n.dram_ranks = 6;
  n.dram_reads = 1000;
  n.run_time_ps = 1'000'000;
  const EnergyBreakdown short_run = model.breakdown(n);
  n.run_time_ps = 2'000'000;
  const EnergyBreakdown long_run = model.breakdown(n);
  CHECK(long_run.dram_static_j == Approx(2 * short_run.dram_static_j));
  CHECK(long_run.dram_dynamic_j == Approx(short_run.dram_dynamic_j));
  CHECK(EnergyModel{EnergyConfig{}}.breakdown(EnergyCounts{}).total_j() == 0.0);
}

TEST_CASE("Energy model: a burst's energy is per 64 bytes of it", "[optical][energy]") {
  const EnergyModel model{EnergyConfig{}};
  EnergyCounts n;
  n.dram_reads = 40;
  n.dram_writes = 20;
  n.dram_burst_bytes = 32;
  CHECK(model.breakdown(n).dram_dynamic_j == Approx((40 * 0.45 + 20 * 0.5) * 1e-9));
  n.dram_burst_bytes = 128;
  CHECK(model.breakdown(n).dram_dynamic_j == Approx((40 * 1.8 + 20 * 2.0) * 1e-9));
}

TEST_CASE("Energy model: the laser follows the platform's budget", "[optical][energy]") {
  OpticalChannelConfig c;
  c.laser.power_scale = paper_laser_scale(OhmPlatform::ohm_bw);
  const PlatformBudget bw = platform_budget(OhmPlatform::ohm_bw, HeteroMode::planar, c,
                                            MrrLayoutShape::paper_default(HeteroMode::planar));
  EnergyCounts n;
  n.run_time_ps = 1'000'000'000'000;  // 1 s
  n.laser_optical_mw = bw.laser_optical_mw();
  const double joules = EnergyModel{EnergyConfig{}}.breakdown(n).laser_j;
  CHECK(joules == Approx(4 * 0.73e-3 * 96 / 0.25));  // 1.12 W of electrical laser power
}

TEST_CASE("Energy preset parses; errors name the JSON path", "[optical][energy]") {
  const std::filesystem::path configs = std::filesystem::path(OHMVP_SOURCE_DIR) / "configs";
  const ConfigDocument document =
      ConfigDocument::load(configs / "optical" / "memory_energy.json", {configs});
  EnergyConfig c;
  parse(ConfigReader(document.json().at("memory").at("energy"), "memory.energy", &document), c);
  CHECK(c.mrr_tuning_fj_per_bit == 200.0);
  try {
    EnergyConfig bad;
    parse(ConfigReader(nlohmann::json{{"dram_read_nj", -1.0}}, "memory.energy"), bad);
    FAIL("expected a ConfigError");
  } catch (const ConfigError& e) {
    CHECK_THAT(e.what(), Contains("memory.energy.dram_read_nj") && Contains("out of range"));
  }
}

TEST_CASE("Optical figures go into the statistics registry", "[optical][energy]") {
  StatsRegistry stats;
  OpticalChannelConfig c;
  const PlatformBudget base = platform_budget(OhmPlatform::ohm_base, HeteroMode::planar, c,
                                              MrrLayoutShape::paper_default(HeteroMode::planar));
  record_budget(stats, "optical", base);
  CHECK(stats.find_scalar("optical", "laser_power_mw")->value() == Approx(0.73));
  CHECK(stats.find_scalar("optical", "mrr_count")->value() == 960);
  CHECK(stats.find_scalar("optical", "ber_max")->value() == base.ber_max);
  CHECK(stats.find_scalar("optical", "ber_data_1") != nullptr);
  EnergyCounts n;
  n.run_time_ps = 1'000'000;
  n.dram_ranks = 1;
  record_energy(stats, "energy", EnergyModel{EnergyConfig{}}.breakdown(n));
  CHECK(stats.find_scalar("energy", "energy_dram_static_j")->value() == Approx(1e-6 * 0.1));
  CHECK(stats.find_scalar("energy", "energy_j")->value() == Approx(1e-7));
}
