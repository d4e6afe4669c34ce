#include "modules/optical/energy_model.h"

#include "modules/common/config_reader.h"

namespace ohmvp {

namespace {

constexpr double k_pico = 1e-12;
constexpr double k_femto = 1e-15;
constexpr double k_nano = 1e-9;
constexpr double k_milli = 1e-3;

}  // namespace

void parse(const ConfigReader& reader, EnergyConfig& c) {
  reader.get("mrr_tuning_fj_per_bit", c.mrr_tuning_fj_per_bit, 0.0, 1e6);
  reader.get("serdes_pj_per_bit", c.serdes_pj_per_bit, 0.0, 1e3);
  reader.get("electrical_pj_per_bit", c.electrical_pj_per_bit, 0.0, 1e3);
  reader.get("dram_activate_nj", c.dram_activate_nj, 0.0, 1e3);
  reader.get("dram_read_nj", c.dram_read_nj, 0.0, 1e3);
  reader.get("dram_write_nj", c.dram_write_nj, 0.0, 1e3);
  reader.get("dram_background_mw", c.dram_background_mw, 0.0, 1e5);
  reader.get("dram_refresh_mw", c.dram_refresh_mw, 0.0, 1e5);
  reader.get("xpoint_read_pj_per_bit", c.xpoint_read_pj_per_bit, 0.0, 1e4);
  reader.get("xpoint_write_pj_per_bit", c.xpoint_write_pj_per_bit, 0.0, 1e4);
  reader.finish();
}

double EnergyBreakdown::total_j() const {
  double total = 0.0;
  for (const auto& item : items()) total += item.second;
  return total;
}

std::vector<std::pair<std::string, double>> EnergyBreakdown::items() const {
  return {{"laser", laser_j},
          {"mrr_tuning", mrr_tuning_j},
          {"serdes", serdes_j},
          {"electrical_channel", electrical_channel_j},
          {"dram_dynamic", dram_dynamic_j},
          {"dram_static", dram_static_j},
          {"dram_refresh", dram_refresh_j},
          {"xpoint_read", xpoint_read_j},
          {"xpoint_write", xpoint_write_j}};
}

EnergyBreakdown EnergyModel::breakdown(const EnergyCounts& n) const {
  const EnergyConfig& c = m_config;
  const double seconds = static_cast<double>(n.run_time_ps) * k_pico;
  EnergyBreakdown e;
  if (n.laser_optical_mw > 0.0)
    e.laser_j = n.laser_optical_mw * k_milli / n.laser_wall_plug_efficiency * seconds;
  e.mrr_tuning_j = static_cast<double>(n.light_bits) * c.mrr_tuning_fj_per_bit * k_femto;
  e.serdes_j = static_cast<double>(n.serdes_bits) * c.serdes_pj_per_bit * k_pico;
  e.electrical_channel_j =
      static_cast<double>(n.electrical_bits) * c.electrical_pj_per_bit * k_pico;
  const double per_64_bytes = n.dram_burst_bytes / 64.0;
  e.dram_dynamic_j = (static_cast<double>(n.dram_activates) * c.dram_activate_nj +
                      static_cast<double>(n.dram_reads) * c.dram_read_nj * per_64_bytes +
                      static_cast<double>(n.dram_writes) * c.dram_write_nj * per_64_bytes) *
                     k_nano;
  e.dram_static_j = n.dram_ranks * c.dram_background_mw * k_milli * seconds;
  e.dram_refresh_j = static_cast<double>(n.dram_refresh_ps) * k_pico * c.dram_refresh_mw * k_milli;
  e.xpoint_read_j = static_cast<double>(n.xpoint_read_bits) * c.xpoint_read_pj_per_bit * k_pico;
  e.xpoint_write_j = static_cast<double>(n.xpoint_write_bits) * c.xpoint_write_pj_per_bit * k_pico;
  return e;
}

}  // namespace ohmvp
