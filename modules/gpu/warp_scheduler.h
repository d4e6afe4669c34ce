#pragma once

#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>

#include "modules/gpu/gpu_config.h"

namespace ohmvp::gpu {

// Answers "can this warp issue its next instruction now?" for a warp slot. A non-owning
// reference to any callable `bool(uint32_t slot)`, so that pick() allocates nothing.
class WarpReadiness {
 public:
  template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, WarpReadiness>>>
  WarpReadiness(const F& callable)  // NOLINT: implicit on purpose, like a function_ref
      : m_object(&callable), m_call([](const void* object, uint32_t slot) {
          return (*static_cast<const F*>(object))(slot);
        }) {}

  bool operator()(uint32_t slot) const { return m_call(m_object, slot); }

 private:
  const void* m_object;
  bool (*m_call)(const void*, uint32_t);
};

// Chooses which warp of one sub-core issues next. Warps are named by their slot in the
// sub-core (0 .. capacity-1); `age` orders them by arrival (smaller is older; the SM gives each
// warp a launch sequence number). The scheduler keeps only order and policy state: whether a
// warp can issue is asked through the readiness predicate. Every call is deterministic and
// allocation-free; the containers are sized for `capacity` at construction.
class WarpScheduler {
 public:
  static constexpr uint32_t k_no_warp = UINT32_MAX;

  virtual ~WarpScheduler() = default;

  virtual void add_warp(uint32_t slot, uint64_t age) = 0;
  virtual void remove_warp(uint32_t slot) = 0;

  // The slot of the warp to issue, or k_no_warp when no warp is ready.
  virtual uint32_t pick(const WarpReadiness& ready) = 0;

  // `slot` issued an instruction this cycle.
  virtual void on_issue(uint32_t slot) = 0;
  // `slot` now waits on a long-latency operation or on the other warps of its CTA: its next
  // instruction needs a register that a load, atomic or texture fetch in flight will write (or
  // waits for such accesses to drain), or it waits at a barrier. on_long_latency_done() when an
  // access is back or the barrier releases it (the warp may still wait on another access: the
  // SM then reports the wait again). The SM reports waits on accesses only to a scheduler that
  // wants them.
  virtual void on_long_latency_wait(uint32_t slot) { (void)slot; }
  virtual void on_long_latency_done(uint32_t slot) { (void)slot; }
  virtual bool wants_access_waits() const { return false; }

  virtual uint32_t warp_count() const = 0;
  virtual WarpSchedulerPolicy policy() const = 0;
};

// A scheduler of `config.policy` for a sub-core that holds at most `capacity` warps.
std::unique_ptr<WarpScheduler> make_warp_scheduler(const WarpSchedulerConfig& config,
                                                   uint32_t capacity);

}  // namespace ohmvp::gpu
