#pragma once

#include <cstdint>
#include <vector>

#include "modules/memory/hetero_config.h"

namespace ohmvp {

// The Ohm-GPU platforms that have an optical channel (Origin, Hetero and Oracle are electrical).
enum class OhmPlatform : uint8_t { ohm_base, auto_rw, ohm_wom, ohm_bw };

const char* to_string(OhmPlatform platform);

// The memory functions an optical layout can support (OHM_FUNCTIONS.md).
enum class OhmFunction : uint8_t {
  conventional,   // one transmitter/receiver pair per endpoint: the data route
  auto_rw,        // snarf by half-coupled receivers (auto-read/write)
  reverse_write,  // the XPoint controller writes DRAM, the controller's DDR monitor snarfs
  swap,           // SWAP-CMD over dual routes: half-coupled transmitters in DRAM and XPoint
  half_coupled_controller,  // Ohm-BW: the controller transmits with a half-coupled MRR
  parallel_tx,              // the general layout's extra DRAM transmitter (more parallelism)
};

const char* to_string(OhmFunction function);

// The functions a platform uses in a memory mode (OHM_FUNCTIONS.md): Auto-rw adds auto-read/
// write to Ohm-base; Ohm-WOM and Ohm-BW use the mode-specific set (planar: swap; two-level:
// auto-read/write and reverse write), Ohm-BW's controller transmitting half-coupled in planar.
std::vector<OhmFunction> functions_of(OhmPlatform platform, HeteroMode mode);

// Every function: what the general layout supports.
std::vector<OhmFunction> all_functions();

// The laser scale the paper applies to make up for the extra MRRs on the path: 1 for Ohm-base,
// 2 for Auto-rw and Ohm-WOM, 4 for Ohm-BW.
double paper_laser_scale(OhmPlatform platform);

}  // namespace ohmvp
