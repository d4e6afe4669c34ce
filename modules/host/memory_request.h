#pragma once

#include <cstdint>

namespace ohmvp {

// One access a host issues to memory.
struct MemoryRequest {
  bool is_write = false;
  uint64_t address = 0;
  uint32_t size = 64;          // bytes
  uint64_t not_before_ps = 0;  // earliest simulated time at which it may be issued
};

// Where an initiator gets its requests from, one at a time and in order. Called once per
// simulated request, so implementations do not allocate in next().
class RequestSource {
 public:
  virtual ~RequestSource() = default;
  // Fills `request` with the next request; false when there are none left.
  virtual bool next(MemoryRequest& request) = 0;
  // How many requests next() produces in all.
  virtual uint64_t total() const = 0;
};

}  // namespace ohmvp
