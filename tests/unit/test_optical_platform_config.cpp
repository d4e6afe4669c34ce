// The optical channel as a platform's memory channel (memory.channel.type "optical" with a
// memory.optical section): the shipped Ohm-base files, and bad combinations refused by JSON path.
#include <catch2/catch.hpp>

#include <filesystem>
#include <functional>
#include <string>

#include "modules/common/config_document.h"
#include "modules/common/errors.h"
#include "platforms/platform_config.h"
#include "tests/unit/platform_config_fixture.h"

using namespace ohmvp;
using Catch::Matchers::Contains;
using nlohmann::json;
using test::error_of;
using test::load_platform;
using test::parse_shipped;

namespace {

void check_same_timing(const DramTiming& a, const DramTiming& b) {
  CHECK(a.tCK_ps == b.tCK_ps);
  CHECK(a.CL == b.CL);
  CHECK(a.CWL == b.CWL);
  CHECK(a.RCD == b.RCD);
  CHECK(a.CCD_S == b.CCD_S);
  CHECK(a.CCD_L == b.CCD_L);
  CHECK(a.BURST == b.BURST);
}

}  // namespace

TEST_CASE("Ohm-base platforms: hetero with the optical channel, the same bandwidth and DRAM",
          "[optical_platform]") {
  for (const char* mode : {"planar", "two_level"}) {
    const PlatformConfig ohm = parse_shipped(std::string("ohm_base_") + mode);
    const PlatformConfig hetero = parse_shipped(std::string("hetero_") + mode);
    INFO(mode);
    CHECK(ohm.name == std::string("ohm_base_") + mode);
    CHECK(ohm.memory.channel_type == ChannelType::optical);
    CHECK(hetero.memory.channel_type == ChannelType::electrical);
    CHECK(ohm.memory.ohm_platform == OhmPlatform::ohm_base);
    CHECK(ohm.memory.mode == hetero.memory.mode);
    CHECK(ohm.memory.channels == 6);
    // One waveguide, 6 x 16 wavelengths at 30 Gb/s: 2.88 Tb/s, as 6 x 32 lanes at 15 Gb/s.
    CHECK(ohm.memory.optical.waveguides == 1);
    CHECK(ohm.memory.optical.virtual_channels == 6);
    CHECK(ohm.memory.optical.lanes(VirtualChannelId{5}) == 16);
    CHECK(ohm.memory.optical.rate_gbps == 30.0);
    CHECK(ohm.memory.peak_gb_per_s() == Approx(360.0));
    CHECK(hetero.memory.peak_gb_per_s() == Approx(360.0));
    CHECK(ohm.memory.burst_ns(64) == Approx(hetero.memory.burst_ns(64)));
    CHECK(ohm.memory.hetero.burst_ns == Approx(1.0667).epsilon(1e-4));
    CHECK(ohm.memory.hetero.burst_ns == Approx(hetero.memory.hetero.burst_ns));
    // The DRAM keeps its 32 pins behind its SerDes: the same geometry, capacity and cycles.
    CHECK(ohm.memory.bus_bytes() == 4);
    CHECK(ohm.memory.burst_bytes() == 64);
    CHECK(ohm.memory.dram_bytes_per_channel() == hetero.memory.dram_bytes_per_channel());
    CHECK(ohm.memory.capacity_bytes() == hetero.memory.capacity_bytes());
    check_same_timing(ohm.memory.timing_cycles(), hetero.memory.timing_cycles());
    CHECK(ohm.gpu.has_value());
  }
}

TEST_CASE("optical platform config: a line code lengthens the bursts the DRAM and DDR-T take",
          "[optical_platform]") {
  ConfigDocument document = load_platform("ohm_base_planar");
  document.apply_override("memory.optical.coding_overhead=0.25");
  const PlatformConfig coded = parse_platform(document);
  // 8b/10b: 640 light bits on 16 wavelengths, 40 beats at 30 Gb/s.
  CHECK(coded.memory.burst_ns(64) == Approx(40.0 / 30.0));
  CHECK(coded.memory.hetero.burst_ns == Approx(40.0 / 30.0));
  CHECK(coded.memory.timing_cycles().BURST == 3);  // 1.333 ns of 0.533 ns cycles
  CHECK(coded.memory.peak_gb_per_s() == Approx(360.0 / 1.25));
  CHECK(parse_shipped("ohm_base_planar").memory.timing_cycles().BURST == 2);
}

TEST_CASE("Auto-rw platforms: Ohm-base with auto-read/write and twice the laser",
          "[optical_platform]") {
  for (const char* mode : {"planar", "two_level"}) {
    INFO(mode);
    const PlatformConfig base = parse_shipped(std::string("ohm_base_") + mode);
    const PlatformConfig auto_rw = parse_shipped(std::string("auto_rw_") + mode);
    CHECK(auto_rw.memory.ohm_platform == OhmPlatform::auto_rw);
    CHECK(auto_rw.memory.hetero.auto_rw);
    CHECK_FALSE(base.memory.hetero.auto_rw);
    CHECK(auto_rw.memory.optical.laser.power_scale == 2.0 * base.memory.optical.laser.power_scale);
    CHECK(auto_rw.memory.capacity_bytes() == base.memory.capacity_bytes());
    CHECK(auto_rw.memory.mode == base.memory.mode);
  }
}

TEST_CASE("optical platform config: the energy model's figures", "[optical_platform]") {
  json root = load_platform("ohm_base_planar").json();
  root["memory"]["energy"] = {{"serdes_pj_per_bit", 2.0}};
  const PlatformConfig c = parse_platform(ConfigDocument(root));
  CHECK(c.memory.energy.serdes_pj_per_bit == 2.0);
  CHECK(c.memory.energy.mrr_tuning_fj_per_bit == 200.0);
  CHECK_THAT(error_of("ohm_base_planar",
                      [](json& j) {
                        j["memory"]["energy"] = {{"serdes_pj", 2.0}};
                      }),
             Contains("serdes_pj") && Contains("memory.energy"));
  // Electrical platforms take the energy model too (their channel's term is electrical_pj_per_bit).
  json electrical = load_platform("hetero_planar").json();
  electrical["memory"]["energy"] = {{"electrical_pj_per_bit", 3.0}};
  CHECK(parse_platform(ConfigDocument(electrical)).memory.energy.electrical_pj_per_bit == 3.0);
}

TEST_CASE("optical platform config: bad combinations name their JSON path", "[optical_platform]") {
  // One virtual channel per memory controller.
  CHECK_THAT(error_of("ohm_base_planar", [](json& j) { j["memory"]["channels"] = 4; }),
             Contains("memory.optical.virtual_channels") && Contains("6 virtual channels for 4") &&
                 Contains("one per memory controller"));
  // The virtual channels must fit the waveguide (the optical config's own check).
  CHECK_THAT(error_of("ohm_base_planar",
                      [](json& j) {
                        j["memory"]["channels"] = 5;
                        j["memory"]["optical"]["virtual_channels"] = 5;
                      }),
             Contains("memory.optical.virtual_channels") && Contains("multiple of 5"));
  // Unequal virtual channels would need a DRAM timing per controller.
  CHECK_THAT(error_of("ohm_base_planar",
                      [](json& j) {
                        j["memory"]["channels"] = 2;
                        j["memory"]["optical"]["virtual_channels"] = 2;
                        j["memory"]["optical"]["wavelength_sets"] = {{0, 1, 2, 3}, {4, 5}};
                      }),
             Contains("memory.optical.wavelength_sets") && Contains("same width"));
  // Electrical keys on an optical channel, optical keys on an electrical one.
  CHECK_THAT(error_of("ohm_base_planar", [](json& j) { j["memory"]["channel"]["lanes"] = 32; }),
             Contains("memory.channel.lanes") && Contains("only with \"type\": \"electrical\""));
  CHECK_THAT(
      error_of("hetero_planar", [](json& j) { j["memory"]["channel"]["device_lanes"] = 32; }),
      Contains("memory.channel.device_lanes") && Contains("only with \"type\": \"optical\""));
  CHECK_THAT(error_of("hetero_planar",
                      [](json& j) {
                        j["memory"]["optical"] = {{"waveguides", 1}};
                      }),
             Contains("memory.optical") && Contains("only with"));
  CHECK_THAT(error_of("ohm_base_planar", [](json& j) { j["memory"].erase("optical"); }),
             Contains("memory.optical") && Contains("missing"));
  CHECK_THAT(
      error_of("ohm_base_planar", [](json& j) { j["memory"]["channel"]["device_lanes"] = 12; }),
      Contains("memory.channel.device_lanes") && Contains("multiple of 8"));
  // 16 device lanes make 32-byte bursts with BL16: a hetero mode needs 64.
  CHECK_THAT(
      error_of("ohm_base_planar", [](json& j) { j["memory"]["channel"]["device_lanes"] = 16; }),
      Contains("memory.dram") && Contains("64-byte DRAM bursts"));
  // Each Ohm function's flag and the channel's layout go together: the platform's MRRs must
  // support what the manager does, and what they support is used.
  CHECK_THAT(error_of("ohm_base_planar",
                      [](json& j) { j["memory"]["channel"]["ohm_platform"] = "ohm_bw"; }),
             Contains("memory.hetero.swap_cmd") && Contains("expected true with") &&
                 Contains("\"ohm_platform\": \"ohm_bw\" in planar mode"));
  CHECK_THAT(error_of("auto_rw_planar", [](json& j) { j["memory"]["hetero"]["auto_rw"] = false; }),
             Contains("memory.hetero.auto_rw") && Contains("ohm_platform"));
  CHECK_THAT(error_of("ohm_base_planar", [](json& j) { j["memory"]["hetero"]["auto_rw"] = true; }),
             Contains("memory.hetero.auto_rw") && Contains("lacks the auto_rw function"));
  CHECK_THAT(error_of("hetero_two_level", [](json& j) { j["memory"]["hetero"]["auto_rw"] = true; }),
             Contains("memory.hetero.auto_rw") && Contains("electrical channel"));
  CHECK_THAT(error_of("hetero_planar", [](json& j) { j["memory"]["hetero"]["swap_cmd"] = true; }),
             Contains("memory.hetero.swap_cmd") && Contains("electrical channel"));
  CHECK_THAT(error_of("ohm_wom_two_level",
                      [](json& j) { j["memory"]["hetero"]["reverse_write"] = false; }),
             Contains("memory.hetero.reverse_write") && Contains("reverse_write function"));
  CHECK_THAT(
      error_of("ohm_wom_planar", [](json& j) { j["memory"]["hetero"]["reverse_write"] = true; }),
      Contains("memory.hetero.reverse_write") && Contains("two-level mode"));
  CHECK_THAT(
      error_of("ohm_bw_two_level", [](json& j) { j["memory"]["hetero"]["swap_cmd"] = true; }),
      Contains("memory.hetero.swap_cmd") && Contains("planar mode"));
  CHECK_THAT(error_of("ohm_base_planar",
                      [](json& j) { j["memory"]["channel"]["ohm_platform"] = "ohm_base2"; }),
             Contains("memory.channel.ohm_platform") && Contains("ohm_base"));
  CHECK_THAT(
      error_of("ohm_base_planar", [](json& j) { j["memory"]["optical"]["rate_gbps"] = 0.0; }),
      Contains("memory.optical.rate_gbps") && Contains("out of range"));
  // A planar channel is 8 KiB of DRAM and 64 KiB of XPoint: 16 KiB blocks do not tile it.
  CHECK_THAT(error_of("ohm_base_planar", [](json& j) { j["memory"]["interleave_bytes"] = 16384; }),
             Contains("memory.interleave_bytes: expected a divisor of a channel's 73728 bytes") &&
                 Contains("(8192 bytes of DRAM + 65536 bytes of XPoint)"));
}

TEST_CASE("optical platform config: every receiver must tell a 1 from a 0", "[optical_platform]") {
  // Ohm-BW's DRAM reads the XPoint's bit from a controller 0 that keeps half the light: a
  // modulator's dark level of 1/ER must stay below that half, so ER > 10 log10(2) = 3.01 dB.
  const auto extinction = [](double db) {
    return [db](json& j) { j["memory"]["optical"]["receiver"]["extinction_ratio_db"] = db; };
  };
  CHECK_THAT(error_of("ohm_bw_planar", extinction(3.0)),
             Contains("memory.optical.receiver.extinction_ratio_db: 3 dB") &&
                 Contains("XPoint's stream by light strength") &&
                 Contains("dimmest 1 at 0.5 of the light and its brightest 0 at 0.501187") &&
                 Contains("expected more than 3.0103 dB") &&
                 Contains("half_coupling_ratio (now 0.5)"));
  CHECK_NOTHROW(parse_platform(ConfigDocument([&] {
    json root = test::load_platform("ohm_bw_planar").json();
    extinction(3.02)(root);
    return root;
  }())));
  // Ohm-WOM's second-generation 0 keeps the same half.
  CHECK_THAT(error_of("ohm_wom_planar", extinction(2.0)),
             Contains("WOM-coded memory route") && Contains("expected more than 3.0103 dB"));
  // A half-coupled tap taking 99% of the light leaves 0.01 for a 1: 20 dB.
  CHECK_THAT(
      error_of("ohm_bw_planar",
               [](json& j) { j["memory"]["optical"]["loss"]["half_coupling_ratio"] = 0.99; }),
      Contains("memory.optical.receiver.extinction_ratio_db: 10 dB") &&
          Contains("expected more than 20 dB") && Contains("(now 0.99)"));
}
