#pragma once

#include <functional>

namespace ohmvp {

// Device memory as the runtime's functional copies see it: they read and write the bytes where
// they live now, which is only well defined while nothing moves them (no page swap, fill or
// fault in flight). The memory system says when it is quiet.
class SettlingMemory {
 public:
  virtual ~SettlingMemory() = default;
  virtual bool idle() const = 0;
  // `done` is called once the memory is idle (at once if it is).
  virtual void when_idle(std::function<void()> done) = 0;
};

}  // namespace ohmvp
