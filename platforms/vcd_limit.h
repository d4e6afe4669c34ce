#pragma once

#include <cstdint>
#include <string>

namespace ohmvp {

class VcdWriter;

// A run with --vcd ends (exit 1) when its VCD reaches this size, so that a kernel that never
// ends does not fill the disk before its time limit (a busy GPU writes some 200 MB of VCD per
// second of host time); far beyond the VCD of any shipped workload.
constexpr uint64_t k_default_vcd_limit_bytes = uint64_t{2} << 30;  // 2 GiB

// `--vcd-limit` text as bytes: a whole or decimal number and a unit, `B`, `kB`, `MB`, `GB`,
// `TB` (powers of 1000) or `KiB`, `MiB`, `GiB`, `TiB` (powers of 1024), e.g. `500MB` or
// `1.5 GiB`; `none` is 0, no limit. std::invalid_argument, saying what was expected, otherwise
// (a size below 1 byte or above 2^63 bytes, too).
uint64_t parse_vcd_limit_bytes(const std::string& text);

// The limit as the messages show it: `2 GiB`, `64 KiB`, `500 MB`, `100 B`.
std::string vcd_limit_text(uint64_t bytes);

// "the VCD <file> reached its size limit of <limit> (--vcd-limit)", the start of the error that
// ends a run whose VCD is full.
std::string vcd_full_text(const std::string& file, uint64_t limit_bytes);
// The same for a full `vcd`, ending "at <the time its waveform stops> simulated".
std::string vcd_stopped_text(const std::string& file, const VcdWriter& vcd);

}  // namespace ohmvp
