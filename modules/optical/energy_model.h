#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ohmvp {

class ConfigReader;

// Energy figures per component of the memory system. Ohm-GPU's power model gives the optical
// ones; the paper gives no DRAM, XPoint, SerDes or electrical-channel figure, so those defaults
// are modelling choices (each named in configs/optical/memory_energy.json and docs/optical.md).
struct EnergyConfig {
  double mrr_tuning_fj_per_bit = 200.0;  // Ohm-GPU Table 1, per bit on the light
  double serdes_pj_per_bit = 1.0;        // modelling choice
  double electrical_pj_per_bit = 5.0;    // electrical channel I/O, modelling choice
  double dram_activate_nj = 1.0;         // one ACT and its PRE, modelling choice
  double dram_read_nj = 0.9;             // per 64 bytes of read burst, modelling choice
  double dram_write_nj = 1.0;            // per 64 bytes of write burst, modelling choice
  double dram_background_mw = 100.0;     // per rank while powered, modelling choice
  // Per rank above its background while it refreshes (for tRFC after each REF): a modelling
  // choice of the order of (IDD5B - IDD3N) x VDD of an 8 Gb DDR4 device, DRAMPower's refresh term.
  double dram_refresh_mw = 200.0;
  // XPoint media per bit read or written, modelling choices of the order reported for
  // phase-change arrays (about 2.5 and 17 pJ/bit).
  double xpoint_read_pj_per_bit = 2.5;
  double xpoint_write_pj_per_bit = 17.0;
};

void parse(const ConfigReader& reader, EnergyConfig& config);

// What the simulator counts over a run.
struct EnergyCounts {
  uint64_t run_time_ps = 0;
  // Optical channel. The laser is a continuous-wave source on for the whole run.
  double laser_optical_mw = 0.0;  // every lit wavelength (PlatformBudget::laser_optical_mw)
  double laser_wall_plug_efficiency = 0.25;
  uint64_t light_bits = 0;   // bits modulated on the light (WOM cells included)
  uint64_t serdes_bits = 0;  // bits through a device SerDes
  // Electrical channel.
  uint64_t electrical_bits = 0;
  // DRAM.
  uint64_t dram_activates = 0;
  uint64_t dram_reads = 0;   // read bursts
  uint64_t dram_writes = 0;  // write bursts
  uint32_t dram_burst_bytes = 64;
  uint32_t dram_ranks = 0;       // powered for the whole run
  uint64_t dram_refresh_ps = 0;  // REF commands x tRFC, every rank's summed
  // XPoint media.
  uint64_t xpoint_read_bits = 0;
  uint64_t xpoint_write_bits = 0;
};

// Joules per component.
struct EnergyBreakdown {
  double laser_j = 0.0;
  double mrr_tuning_j = 0.0;
  double serdes_j = 0.0;
  double electrical_channel_j = 0.0;
  double dram_dynamic_j = 0.0;
  double dram_static_j = 0.0;
  double dram_refresh_j = 0.0;
  double xpoint_read_j = 0.0;
  double xpoint_write_j = 0.0;

  double optical_j() const { return laser_j + mrr_tuning_j + serdes_j; }
  double total_j() const;
  // (name, joules) in report order.
  std::vector<std::pair<std::string, double>> items() const;
};

class EnergyModel {
 public:
  explicit EnergyModel(const EnergyConfig& config) : m_config(config) {}

  EnergyBreakdown breakdown(const EnergyCounts& counts) const;
  const EnergyConfig& config() const { return m_config; }

 private:
  EnergyConfig m_config;
};

}  // namespace ohmvp
