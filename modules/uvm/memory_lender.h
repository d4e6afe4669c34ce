#pragma once

#include <cstdint>
#include <functional>
#include <optional>

namespace ohmvp {

// The side of memHarvester that holds another GPU's spare memory: what that GPU's cudaMalloc asks
// when it finds no room (the yielding GPU takes its memory back).
class MemoryBorrower {
 public:
  enum class Reclaim {
    gave_back,  // a chunk went back to the lender
    wait,       // none can go back now; when_reclaimable says when to ask again
    holds_none  // nothing borrowed is left
  };
  virtual ~MemoryBorrower() = default;
  // Gives one chunk back: a free one, or with `removable` also one whose block is written back to
  // host memory (it goes without a copy). Ask every borrower for a free one first.
  virtual Reclaim reclaim(bool removable) = 0;
  // Calls `then` once a chunk may have become free or removable.
  virtual void when_reclaimable(std::function<void()> then) = 0;
};

// A GPU's device memory as a neighbour's UVM driver borrows it, a chunk at a time.
class MemoryLender {
 public:
  virtual ~MemoryLender() = default;
  // A chunk of `bytes` at its device address, or none when the memory has no room for it.
  virtual std::optional<uint64_t> lend(uint64_t bytes) = 0;
  // A lent chunk comes back.
  virtual void give_back(uint64_t address) = 0;
  // From now on, `borrower` (one of the harvesting GPUs) may hold chunks of this memory.
  virtual void lend_to(MemoryBorrower& borrower) = 0;
};

}  // namespace ohmvp
