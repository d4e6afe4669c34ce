#pragma once

#include <cstdint>
#include <string>

namespace ohmvp {

class ConfigReader;

// Organisation of the DRAM behind one memory channel (one controller).
struct DramGeometry {
  uint32_t ranks = 1;
  uint32_t bank_groups = 4;
  uint32_t banks_per_group = 4;
  uint32_t rows = 65536;
  uint32_t columns = 1024;    // column addresses per row, each one channel-width wide
  uint32_t burst_length = 8;  // beats (columns) per column command

  uint32_t banks() const { return bank_groups * banks_per_group; }
  uint32_t total_banks() const { return ranks * banks(); }
};

// JEDEC-style timing parameters as configured, in nanoseconds (key names end in _ns).
struct DramTimingNs {
  double tCK = 0.833;
  double tCL = 13.32, tCWL = 10.0, tRCD = 13.32, tRP = 13.32, tRAS = 32.0, tRC = 45.32;
  double tRRD_S = 3.332, tRRD_L = 4.9, tFAW = 21.0, tCCD_S = 3.332, tCCD_L = 5.0;
  double tWR = 15.0, tWTR_S = 2.5, tWTR_L = 7.5, tRTP = 7.5;
  double tREFI = 7800.0, tRFC = 350.0, tRTRS = 0.833;
};

// The same parameters in controller clock cycles, which is how the controller and the device
// reason about time. tBURST comes from the channel: the time one burst occupies the data bus.
struct DramTiming {
  uint64_t tCK_ps = 833;
  uint32_t CL = 0, CWL = 0, RCD = 0, RP = 0, RAS = 0, RC = 0;
  uint32_t RRD_S = 0, RRD_L = 0, FAW = 0, CCD_S = 0, CCD_L = 0;
  uint32_t WR = 0, WTR_S = 0, WTR_L = 0, RTP = 0, REFI = 0, RFC = 0, RTRS = 0;
  uint32_t BURST = 0;

  // Read-to-write command spacing: the read burst must leave the bus, plus two cycles of bus
  // turnaround (JEDEC DDR4: RL + BL/2 + 2 - WL).
  uint32_t RTW() const { return CL + BURST + 2 > CWL ? CL + BURST + 2 - CWL : 0; }
  uint64_t ps(uint64_t cycles) const { return cycles * tCK_ps; }
};

// Nanoseconds to whole cycles, rounding up; a value within 0.1% of a whole number of cycles is
// taken as that number, so that a tCK written with three digits (0.833 ns for 0.8333 ns) does
// not add a cycle: at 0.833 ns, 15 ns is 18 cycles (not 19) and a 3.333 ns burst 4 (not 5).
uint32_t ns_to_cycles(double ns, double tCK_ns);
DramTiming to_cycles(const DramTimingNs& ns, double burst_ns);

void parse(const ConfigReader& reader, DramGeometry& geometry);
void parse(const ConfigReader& reader, DramTimingNs& timing);

}  // namespace ohmvp
