#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "modules/common/config_document.h"
#include "modules/common/config_reader.h"
#include "modules/common/errors.h"
#include "modules/optical/optical_config.h"

using namespace ohmvp;
using Catch::Matchers::Contains;
using nlohmann::json;

namespace {

const std::filesystem::path k_configs = std::filesystem::path(OHMVP_SOURCE_DIR) / "configs";

OpticalChannelConfig parse_optical(const json& node) {
  OpticalChannelConfig config;
  parse(ConfigReader(node, "memory.optical"), config);
  return config;
}

std::string error_of(const json& node) {
  try {
    parse_optical(node);
  } catch (const ConfigError& e) {
    return e.what();
  }
  FAIL("expected a ConfigError");
  return "";
}

}  // namespace

TEST_CASE("Optical preset: the paper's channel, 6 x 16 bits at 30 GHz, 2.88 Tb/s", "[optical]") {
  const ConfigDocument document =
      ConfigDocument::load(k_configs / "optical" / "ohm_channel.json", {k_configs});
  OpticalChannelConfig c;
  parse(ConfigReader(document.json().at("memory").at("optical"), "memory.optical", &document), c);
  CHECK(c.waveguides == 1);
  CHECK(c.bandwidth_gbps() == Approx(2880.0));
  CHECK(c.bandwidth_gbps() == Approx(6 * 32 * 15.0));  // the electrical baseline
  for (uint32_t vc = 0; vc < 6; ++vc) {
    CHECK(c.lanes(VirtualChannelId{vc}) == 16);
    CHECK(c.bandwidth_gbps(VirtualChannelId{vc}) == Approx(480.0));
  }
  CHECK(index_of(c.wavelengths_of(VirtualChannelId{2}).front()) == 32);
  CHECK(index_of(c.wavelengths_of(VirtualChannelId{2}).back()) == 47);
  CHECK(c.mrr.on_off_ps == 100);
  CHECK(c.mrr.half_coupling_ps == 500);
  CHECK(c.serdes.buffer_bytes == 16384);
  CHECK(c.loss.filter_drop_db == 1.5);
  CHECK(c.loss.waveguide_db_per_cm == 0.3);
  CHECK(c.loss.splitter_db == 0.2);
  CHECK(c.loss.detector_db == 0.1);
  CHECK(c.laser.power_per_wavelength_mw == 0.73);
  CHECK(c.receiver.responsivity_a_per_w == 1.1);
}

TEST_CASE("Optical config: waveguides scale every virtual channel", "[optical]") {
  const OpticalChannelConfig c = parse_optical(json{{"waveguides", 8}});
  CHECK(c.lanes(VirtualChannelId{0}) == 128);
  CHECK(c.bandwidth_gbps() == Approx(8 * 2880.0));
}

TEST_CASE("Optical config: explicit wavelength sets", "[optical]") {
  const OpticalChannelConfig c = parse_optical(
      json{{"wavelengths_per_waveguide", 8},
           {"virtual_channels", 2},
           {"wavelength_sets", json::array({json::array({0, 2, 4}), json::array({1, 3, 5, 7})})}});
  CHECK(c.lanes(VirtualChannelId{0}) == 3);
  CHECK(c.lanes(VirtualChannelId{1}) == 4);
  CHECK(index_of(c.wavelengths_of(VirtualChannelId{1})[2]) == 5);
  // Wavelength 6 belongs to no set: dark, so neither lit nor counted in the bandwidth.
  CHECK(c.lit_wavelengths() == 7);
  CHECK(c.bandwidth_gbps() == Approx(7 * 30.0));
}

TEST_CASE("Optical config errors name the JSON path and what was expected", "[optical]") {
  CHECK_THAT(error_of(json{{"waveguides", 0}}),
             Contains("memory.optical.waveguides") && Contains("out of range"));
  CHECK_THAT(error_of(json{{"wavelenghts_per_waveguide", 96}}),
             Contains("'wavelenghts_per_waveguide' at memory.optical") &&
                 Contains("did you mean 'wavelengths_per_waveguide'"));
  CHECK_THAT(error_of(json{{"virtual_channels", 5}}),
             Contains("memory.optical.virtual_channels") && Contains("multiple of 5"));
  CHECK_THAT(error_of(json{{"virtual_channels", 200}}),
             Contains("memory.optical.virtual_channels"));
  CHECK_THAT(error_of(json{{"mrr", {{"half_coupling_ps", -5}}}}),
             Contains("memory.optical.mrr.half_coupling_ps"));
  CHECK_THAT(error_of(json{{"loss", {{"filter_drop_dB", 1.0}}}}),
             Contains("at memory.optical.loss") && Contains("filter_drop_db"));
  CHECK_THAT(error_of(json{{"receiver", {{"target_ber", 0.5}}}}),
             Contains("memory.optical.receiver.target_ber"));
  CHECK_THAT(
      error_of(json{{"laser", {{"power_per_wavelength_mw", "high"}}}}),
      Contains("memory.optical.laser.power_per_wavelength_mw") && Contains("expected number"));
  const json sets_base = {{"wavelengths_per_waveguide", 4}, {"virtual_channels", 2}};
  json overlapping = sets_base;
  overlapping["wavelength_sets"] = json::array({json::array({0, 1}), json::array({1, 2})});
  CHECK_THAT(error_of(overlapping), Contains("memory.optical.wavelength_sets[1]") &&
                                        Contains("already belongs to virtual channel 0"));
  json out_of_range = sets_base;
  out_of_range["wavelength_sets"] = json::array({json::array({0}), json::array({4})});
  CHECK_THAT(error_of(out_of_range), Contains("wavelength_sets[1]") && Contains("0 to 3"));
  json too_few = sets_base;
  too_few["wavelength_sets"] = json::array({json::array({0})});
  CHECK_THAT(error_of(too_few), Contains("1 sets for 2 virtual channels"));
  json empty_set = sets_base;
  empty_set["wavelength_sets"] = json::array({json::array({0}), json::array()});
  CHECK_THAT(error_of(empty_set), Contains("wavelength_sets[1]") && Contains("non-empty"));
}

TEST_CASE("Optical preset and struct defaults agree", "[optical]") {
  const ConfigDocument document =
      ConfigDocument::load(k_configs / "optical" / "ohm_channel.json", {k_configs});
  OpticalChannelConfig preset;
  parse(ConfigReader(document.json().at("memory").at("optical"), "memory.optical", &document),
        preset);
  const OpticalChannelConfig d;
  CHECK(preset.waveguides == d.waveguides);
  CHECK(preset.wavelengths_per_waveguide == d.wavelengths_per_waveguide);
  CHECK(preset.rate_gbps == d.rate_gbps);
  CHECK(preset.virtual_channels == d.virtual_channels);
  CHECK(preset.coding_overhead == d.coding_overhead);
  CHECK(preset.serdes.latency_ps == d.serdes.latency_ps);
  CHECK(preset.waveguide.length_cm == d.waveguide.length_cm);
  CHECK(preset.waveguide.group_index == d.waveguide.group_index);
  CHECK(preset.loss.coupler_db == d.loss.coupler_db);
  CHECK(preset.loss.modulator_insertion_db == d.loss.modulator_insertion_db);
  CHECK(preset.loss.ring_through_db == d.loss.ring_through_db);
  CHECK(preset.loss.half_coupling_ratio == d.loss.half_coupling_ratio);
  CHECK(preset.laser.power_scale == d.laser.power_scale);
  CHECK(preset.laser.wall_plug_efficiency == d.laser.wall_plug_efficiency);
  CHECK(preset.receiver.noise_pa_per_sqrt_hz == d.receiver.noise_pa_per_sqrt_hz);
  CHECK(preset.receiver.bandwidth_per_bit_rate == d.receiver.bandwidth_per_bit_rate);
  CHECK(preset.receiver.extinction_ratio_db == d.receiver.extinction_ratio_db);
  CHECK(preset.receiver.target_ber == d.receiver.target_ber);
}
