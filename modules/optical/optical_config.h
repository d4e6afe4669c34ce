#pragma once

#include <cstdint>
#include <vector>

#include "modules/common/bit_error_injector.h"
#include "modules/optical/optical_ids.h"

namespace ohmvp {

class ConfigReader;

// MRR resonance tuning times (Ohm-GPU after [53]: 100 ps between coupled and off resonance,
// 500 ps for the fine tuning into or out of half-coupling).
struct MrrTuningConfig {
  uint32_t on_off_ps = 100;
  uint32_t half_coupling_ps = 500;
};

// The SerDes and register buffer in front of each memory device (Ohm-GPU Section IV: "a small
// size of registers (i.e., 16KB)").
struct SerdesConfig {
  // Fixed latency of serialising or deserialising one transfer at the device, on top of the bits'
  // time on the light. The paper gives none: modelling choice.
  uint32_t latency_ps = 1000;
  uint32_t buffer_bytes = 16 * 1024;
};

struct WaveguideConfig {
  // Length of the waveguide from the laser coupler past every endpoint; the paper gives none:
  // modelling choice (a GPU package, a few cm).
  double length_cm = 5.0;
  // Group index of a silicon strip waveguide; the paper gives none: modelling choice (about 4.2
  // for 450 x 220 nm silicon wires at 1550 nm). Light travels at c / group_index.
  double group_index = 4.2;
};

// Per-element optical losses, in dB (PARAMETERS.md: Ohm-GPU Table 1 and DSENT's defaults).
struct OpticalLossConfig {
  double coupler_db = 1.0;              // laser into the waveguide (DSENT)
  double modulator_insertion_db = 1.0;  // Ohm-GPU: 0 to 1 dB; the top of the range is taken
  double ring_through_db = 0.01;        // passing an MRR that does not couple the wavelength
  double filter_drop_db = 1.5;          // dropping the wavelength into a receiver (Ohm-GPU)
  double splitter_db = 0.2;             // excess loss of a half-coupled MRR used as a splitter
  double detector_db = 0.1;             // photodetector (Ohm-GPU)
  double waveguide_db_per_cm = 0.3;     // propagation loss (Ohm-GPU)
  // Share of the light a half-coupled MRR couples out ("half"): modelling choice 0.5.
  double half_coupling_ratio = 0.5;
};

struct LaserConfig {
  double power_per_wavelength_mw = 0.73;  // Ohm-GPU default, before the platform's scale
  // The platform's laser scale (Ohm-GPU: 1 for Ohm-base, 2 for Auto-rw and Ohm-WOM, 4 for
  // Ohm-BW); platforms set it.
  double power_scale = 1.0;
  double wall_plug_efficiency = 0.25;  // electrical to optical (DSENT)

  double optical_mw() const { return power_per_wavelength_mw * power_scale; }
};

// The receiver behind each photodetector: a PIN detector into a transimpedance amplifier whose
// input-referred noise is white (thermal) plus the signal's shot noise. The paper gives no
// receiver; the noise figures are modelling choices (docs/optical.md).
struct ReceiverConfig {
  double responsivity_a_per_w = 1.1;  // DSENT
  // Input-referred noise current density of the TIA, pA/sqrt(Hz): modelling choice, typical of
  // 25 to 30 Gb/s CMOS TIAs.
  double noise_pa_per_sqrt_hz = 20.0;
  // Noise bandwidth as a share of the bit rate (0.5: Nyquist): modelling choice.
  double bandwidth_per_bit_rate = 0.5;
  // Modulator extinction ratio: a fully coupled MRR leaves 1/ER of the light. Modelling choice.
  double extinction_ratio_db = 10.0;
  double target_ber = 1e-15;  // Ohm-GPU's requirement
};

// The optical memory channel: waveguides x wavelengths (DWDM) x rate per wavelength, statically
// divided into virtual channels, one per memory controller (Ohm-GPU, "Optical infrastructure").
struct OpticalChannelConfig {
  uint32_t waveguides = 1;
  // The paper gives 96 bits at 30 GHz per waveguide but neither the wavelength count nor the
  // rate per wavelength: modelling choice, 96 wavelengths of 30 Gb/s (one bit each per cycle).
  uint32_t wavelengths_per_waveguide = 96;
  double rate_gbps = 30.0;  // per wavelength
  uint32_t virtual_channels = 6;
  // Wavelength indices of each virtual channel, the same on every waveguide. Empty: the static
  // division into equal contiguous sets (6 x 16 by default). Sets must be disjoint and non-empty.
  std::vector<std::vector<uint32_t>> wavelength_sets;
  // Line-code overhead on top of the data bits (0.25 for 8b/10b). The paper's 96 bits at 30 GHz
  // carry data: 0.
  double coding_overhead = 0.0;
  MrrTuningConfig mrr;
  SerdesConfig serdes;
  WaveguideConfig waveguide;
  OpticalLossConfig loss;
  LaserConfig laser;
  ReceiverConfig receiver;
  // Fault injection on the light: every bit of a DRAM burst that crosses the channel, and of the
  // burst's ECC word, flips with probability `ber`, so the link's SEC-DED (one code per 64-byte
  // burst, modules/xpoint/sec_ded.h) corrects and detects errors that the model's default powers
  // make too rare to see.
  FaultInjectionConfig fault_injection;

  // Wavelengths of virtual channel `vc` on one waveguide (the explicit set or the static division).
  std::vector<WavelengthId> wavelengths_of(VirtualChannelId vc) const;
  // Bits the virtual channel carries per bit period: its wavelengths on every waveguide.
  uint32_t lanes(VirtualChannelId vc) const;
  // Wavelengths some virtual channel uses, on every waveguide: the ones the laser lights. Explicit
  // sets may leave some of a waveguide's wavelengths dark.
  uint32_t lit_wavelengths() const;
  double bandwidth_gbps() const { return lit_wavelengths() * rate_gbps; }
  double bandwidth_gbps(VirtualChannelId vc) const { return lanes(vc) * rate_gbps; }
};

void parse(const ConfigReader& reader, MrrTuningConfig& config);
void parse(const ConfigReader& reader, SerdesConfig& config);
void parse(const ConfigReader& reader, WaveguideConfig& config);
void parse(const ConfigReader& reader, OpticalLossConfig& config);
void parse(const ConfigReader& reader, LaserConfig& config);
void parse(const ConfigReader& reader, ReceiverConfig& config);
// The whole channel; also checks that the virtual channels fit the wavelengths.
void parse(const ConfigReader& reader, OpticalChannelConfig& config);

}  // namespace ohmvp
