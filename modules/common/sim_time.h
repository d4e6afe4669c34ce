#pragma once

#include <cstdint>
#include <systemc>

namespace ohmvp {

// The kernel's time in ps, read inline: sc_core::sc_time_stamp() is a call into the SystemC
// library, and the DRAM path asks for the time several times per command.
inline uint64_t kernel_now_ps() {
  return sc_core::sc_get_curr_simcontext()->time_stamp().value();
}

// sc_core::sc_time::from_value(ps), built inline for the wake-ups the DRAM path asks for
// several times per command (from_value is out of line in the library and costs more than the
// notification it feeds). A whole number below 2^52 times the resolution is exact in the double
// that sc_time's scaling goes through; larger ones take the library's way.
inline sc_core::sc_time kernel_delay_of_ps(uint64_t ps) {
  static const sc_core::sc_time resolution = sc_core::sc_time::from_value(1);
  if (ps >= (uint64_t{1} << 52)) return sc_core::sc_time::from_value(ps);
  return resolution * double(ps);
}

}  // namespace ohmvp
