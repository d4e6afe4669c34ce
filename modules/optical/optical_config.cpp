#include "modules/optical/optical_config.h"

#include <string>

#include "modules/common/config_reader.h"

namespace ohmvp {

namespace {

void parse_wavelength_sets(const ConfigReader& reader, OpticalChannelConfig& c) {
  const nlohmann::json* sets = reader.raw("wavelength_sets");
  if (!sets) return;
  const std::string expected = "expected an array of one wavelength array per virtual channel";
  if (!sets->is_array()) reader.fail("wavelength_sets", expected);
  if (sets->size() != c.virtual_channels)
    reader.fail("wavelength_sets", expected + ": " + std::to_string(sets->size()) + " sets for " +
                                       std::to_string(c.virtual_channels) + " virtual channels");
  std::vector<int> owner(c.wavelengths_per_waveguide, -1);
  c.wavelength_sets.clear();
  for (size_t vc = 0; vc < sets->size(); ++vc) {
    const std::string key = "wavelength_sets[" + std::to_string(vc) + "]";
    const nlohmann::json& set = (*sets)[vc];
    if (!set.is_array() || set.empty())
      reader.fail(key, "expected a non-empty array of wavelength indices");
    std::vector<uint32_t> wavelengths;
    for (const nlohmann::json& w : set) {
      if (!w.is_number_integer() || w.get<int64_t>() < 0 ||
          w.get<uint64_t>() >= c.wavelengths_per_waveguide)
        reader.fail(key, "wavelength " + w.dump() + " is not an index from 0 to " +
                             std::to_string(c.wavelengths_per_waveguide - 1));
      const uint32_t index = w.get<uint32_t>();
      if (owner[index] >= 0)
        reader.fail(key, "wavelength " + std::to_string(index) +
                             " already belongs to virtual channel " + std::to_string(owner[index]) +
                             " (static division: sets are disjoint)");
      owner[index] = static_cast<int>(vc);
      wavelengths.push_back(index);
    }
    c.wavelength_sets.push_back(std::move(wavelengths));
  }
}

}  // namespace

std::vector<WavelengthId> OpticalChannelConfig::wavelengths_of(VirtualChannelId vc) const {
  std::vector<WavelengthId> result;
  if (!wavelength_sets.empty()) {
    for (uint32_t w : wavelength_sets.at(index_of(vc))) result.push_back(WavelengthId{w});
    return result;
  }
  const uint32_t width = wavelengths_per_waveguide / virtual_channels;
  for (uint32_t w = 0; w < width; ++w) result.push_back(WavelengthId{index_of(vc) * width + w});
  return result;
}

uint32_t OpticalChannelConfig::lanes(VirtualChannelId vc) const {
  const uint32_t per_waveguide =
      wavelength_sets.empty() ? wavelengths_per_waveguide / virtual_channels
                              : static_cast<uint32_t>(wavelength_sets.at(index_of(vc)).size());
  return per_waveguide * waveguides;
}

uint32_t OpticalChannelConfig::lit_wavelengths() const {
  uint32_t lit = 0;
  for (uint32_t vc = 0; vc < virtual_channels; ++vc) lit += lanes(VirtualChannelId{vc});
  return lit;
}

void parse(const ConfigReader& reader, MrrTuningConfig& c) {
  reader.get("on_off_ps", c.on_off_ps, 0u, 1'000'000u);
  reader.get("half_coupling_ps", c.half_coupling_ps, 0u, 1'000'000u);
  reader.finish();
}

void parse(const ConfigReader& reader, SerdesConfig& c) {
  reader.get("latency_ps", c.latency_ps, 0u, 1'000'000u);
  reader.get("buffer_bytes", c.buffer_bytes, 64u, 1u << 30);
  reader.finish();
}

void parse(const ConfigReader& reader, WaveguideConfig& c) {
  reader.get("length_cm", c.length_cm, 0.0, 1000.0);
  reader.get("group_index", c.group_index, 1.0, 10.0);
  reader.finish();
}

void parse(const ConfigReader& reader, OpticalLossConfig& c) {
  reader.get("coupler_db", c.coupler_db, 0.0, 30.0);
  reader.get("modulator_insertion_db", c.modulator_insertion_db, 0.0, 30.0);
  reader.get("ring_through_db", c.ring_through_db, 0.0, 3.0);
  reader.get("filter_drop_db", c.filter_drop_db, 0.0, 30.0);
  reader.get("splitter_db", c.splitter_db, 0.0, 30.0);
  reader.get("detector_db", c.detector_db, 0.0, 30.0);
  reader.get("waveguide_db_per_cm", c.waveguide_db_per_cm, 0.0, 30.0);
  reader.get("half_coupling_ratio", c.half_coupling_ratio, 0.01, 0.99);
  reader.finish();
}

void parse(const ConfigReader& reader, LaserConfig& c) {
  reader.get("power_per_wavelength_mw", c.power_per_wavelength_mw, 1e-6, 1000.0);
  reader.get("power_scale", c.power_scale, 0.01, 100.0);
  reader.get("wall_plug_efficiency", c.wall_plug_efficiency, 0.001, 1.0);
  reader.finish();
}

void parse(const ConfigReader& reader, ReceiverConfig& c) {
  reader.get("responsivity_a_per_w", c.responsivity_a_per_w, 0.01, 10.0);
  reader.get("noise_pa_per_sqrt_hz", c.noise_pa_per_sqrt_hz, 0.01, 10'000.0);
  reader.get("bandwidth_per_bit_rate", c.bandwidth_per_bit_rate, 0.1, 2.0);
  reader.get("extinction_ratio_db", c.extinction_ratio_db, 1.0, 60.0);
  reader.get("target_ber", c.target_ber, 1e-30, 1e-3);
  reader.finish();
}

void parse(const ConfigReader& reader, OpticalChannelConfig& c) {
  reader.get("waveguides", c.waveguides, 1u, 64u);
  reader.get("wavelengths_per_waveguide", c.wavelengths_per_waveguide, 1u, 1024u);
  reader.get("rate_gbps", c.rate_gbps, 0.1, 1000.0);
  reader.get("virtual_channels", c.virtual_channels, 1u, 1024u);
  reader.get("coding_overhead", c.coding_overhead, 0.0, 4.0);
  parse(reader.child("mrr"), c.mrr);
  parse(reader.child("serdes"), c.serdes);
  parse(reader.child("waveguide"), c.waveguide);
  parse(reader.child("loss"), c.loss);
  parse(reader.child("laser"), c.laser);
  parse(reader.child("receiver"), c.receiver);
  parse(reader.child("fault_injection"), c.fault_injection);
  // A misspelt key is named before the checks below, which would blame the value it meant to set.
  reader.finish({"wavelength_sets"});
  if (c.virtual_channels > c.wavelengths_per_waveguide)
    reader.fail("virtual_channels", std::to_string(c.virtual_channels) +
                                        " virtual channels need at least as many wavelengths; " +
                                        "wavelengths_per_waveguide is " +
                                        std::to_string(c.wavelengths_per_waveguide));
  parse_wavelength_sets(reader, c);
  if (c.wavelength_sets.empty() && c.wavelengths_per_waveguide % c.virtual_channels != 0)
    reader.fail_against("virtual_channels", reader.path() + ".wavelengths_per_waveguide",
                        "the static division needs wavelengths_per_waveguide (" +
                            std::to_string(c.wavelengths_per_waveguide) + ") to be a multiple of " +
                            std::to_string(c.virtual_channels) + "; or give wavelength_sets");
}

}  // namespace ohmvp
