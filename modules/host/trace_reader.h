#pragma once

// A memory trace is a text file with one request per line:
//
//   [@<time_ns>] <op> <address> [<size>]
//
//   @<time_ns>  optional earliest issue time in nanoseconds, decimal with an optional fraction
//               ("@12", "@12.345"); kept to the picosecond, rounded. Times may not decrease
//               along the file. A line without a time may issue as soon as the line before it.
//   <op>        R or W, r or w, or the words read or write (in any case).
//   <address>   byte address, hexadecimal with a 0x prefix or decimal.
//   <size>      optional access size in bytes, decimal, a power of two from 1 to 4096;
//               64 when absent. The address must be a multiple of the size.
//
// Fields are separated by spaces or tabs. Blank lines and lines whose first non-blank character
// is '#' are ignored. Anything else on a line is an error. See docs/trace_format.md.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <vector>

#include "modules/host/memory_request.h"

namespace ohmvp {

// The largest request of a trace and the highest byte one reaches, each with the line that first
// asks for it (for messages about the whole trace).
struct TraceReach {
  uint32_t largest_size = 0;
  uint64_t largest_size_line = 0;
  uint64_t last_byte = 0;
  uint64_t last_byte_line = 0;
};

// Replays a trace file. The whole file is parsed by the constructor, so that a malformed line is
// reported (as a ConfigError naming file and line) before the simulation starts.
class TraceSource : public RequestSource {
 public:
  explicit TraceSource(const std::filesystem::path& file);

  bool next(MemoryRequest& request) override;
  uint64_t total() const override { return m_requests.size(); }
  const std::vector<MemoryRequest>& requests() const { return m_requests; }
  const TraceReach& reach() const { return m_reach; }

 private:
  std::vector<MemoryRequest> m_requests;
  TraceReach m_reach;
  size_t m_next = 0;
};

}  // namespace ohmvp
