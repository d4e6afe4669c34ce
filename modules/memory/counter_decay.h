#pragma once

#include <cstdint>
#include <memory>

namespace ohmvp {

enum class CounterDecayKind { none, halve, reset };

struct CounterDecayConfig {
  CounterDecayKind kind = CounterDecayKind::halve;
  // Accesses to a group between two decays of its counters.
  uint32_t interval = 256;
};

// Planar mode: ages the per-page access counters of a group, so that a page hot long ago does
// not stay hot for ever. Asked after every access to the group with the group's access count
// since its last decay.
class CounterDecay {
 public:
  virtual ~CounterDecay() = default;
  virtual bool due(uint32_t accesses_since_decay) const = 0;
  virtual uint16_t decayed(uint16_t count) const = 0;
};

// Counters only saturate.
class NoDecay : public CounterDecay {
 public:
  bool due(uint32_t) const override { return false; }
  uint16_t decayed(uint16_t count) const override { return count; }
};

// Every `interval` accesses to the group, its counters halve (an exponential moving count).
class HalvingDecay : public CounterDecay {
 public:
  explicit HalvingDecay(uint32_t interval) : m_interval(interval) {}
  bool due(uint32_t accesses) const override { return accesses >= m_interval; }
  uint16_t decayed(uint16_t count) const override { return static_cast<uint16_t>(count >> 1); }

 private:
  uint32_t m_interval;
};

// Every `interval` accesses to the group, its counters start again from zero (epochs).
class ResetDecay : public CounterDecay {
 public:
  explicit ResetDecay(uint32_t interval) : m_interval(interval) {}
  bool due(uint32_t accesses) const override { return accesses >= m_interval; }
  uint16_t decayed(uint16_t) const override { return 0; }

 private:
  uint32_t m_interval;
};

std::unique_ptr<CounterDecay> make_counter_decay(const CounterDecayConfig& config);

}  // namespace ohmvp
