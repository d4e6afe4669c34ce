#pragma once

#include <cstdint>

#include "modules/common/bit_error_injector.h"

namespace ohmvp {

class ConfigReader;

struct StartGapConfig {
  bool enabled = true;
  uint32_t psi = 100;            // writes to a region between two gap moves (Qureshi: 100)
  uint64_t region_lines = 4096;  // logical lines per region (each has its own Start and Gap)
  bool randomise = true;         // Feistel randomiser in front of Start-Gap
  uint64_t seed = 1;             // keys the randomiser
};

// One XPoint device and its controller (the logic layer in the XPoint stack).
struct XPointConfig {
  uint64_t capacity_kib = 1 << 20;  // logical capacity exposed over DDR-T (1 GiB)
  double clock_ns = 1.0;            // the controller's own clock domain
  // Cycles of the controller clock a message takes to cross between the channel's clock domain
  // and the controller's, each way (a two-flop synchroniser: 2).
  uint32_t crossing_cycles = 2;
  // Controller cycles to look up or insert into the read or persistent write buffer.
  uint32_t buffer_cycles = 1;
  uint32_t read_buffer_entries = 32;   // reads accepted and not yet pulled by SEND
  uint32_t write_buffer_entries = 64;  // persistent write buffer, one media line each
  // Writes the memory controller may have sent and not yet seen WR_DONE for.
  uint32_t write_credits = 16;
  uint32_t partitions = 8;    // media operations that may run at once (one per partition)
  double read_ns = 190.0;     // media read of one internal line
  double write_ns = 763.0;    // media write of one internal line
  uint32_t line_bytes = 256;  // internal media line; smaller writes read-modify-write
  StartGapConfig start_gap;
  uint64_t endurance_writes = 10'000'000;  // writes a media line survives
  bool ecc = true;                         // SEC-DED per 64 bytes (sec_ded.h)
  // Raw bit errors of media reads: each bit a line read takes from the cells (data and ECC words)
  // flips with probability `ber` before the ECC decodes it; the cells keep their contents. 0: off.
  FaultInjectionConfig fault_injection;

  uint64_t capacity_bytes() const { return capacity_kib << 10; }
  uint64_t lines() const { return capacity_bytes() / line_bytes; }
};

// The configuration in controller clock cycles.
struct XPointTiming {
  uint64_t tCK_ps = 1000;
  uint32_t read = 0;
  uint32_t write = 0;
  uint32_t crossing = 0;
  uint32_t buffer = 0;

  uint64_t ps(uint64_t cycles) const { return cycles * tCK_ps; }
};

// Nanoseconds to whole controller cycles of the clock in whole ps, rounding up (a value within
// 0.1% of a whole number of cycles is taken as that number).
XPointTiming to_cycles(const XPointConfig& config);

void parse(const ConfigReader& reader, StartGapConfig& config);
void parse(const ConfigReader& reader, XPointConfig& config);

}  // namespace ohmvp
