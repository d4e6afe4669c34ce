#pragma once

#include <cstdint>
#include <memory>

namespace ohmvp {

enum class HotPageKind { threshold, beats_resident };

struct HotPageConfig {
  HotPageKind kind = HotPageKind::threshold;
  // Accesses (since the last decay) that make an XPoint page hot.
  uint32_t threshold = 32;
  // beats_resident: the page must also lead the group's DRAM page by this many accesses (a
  // 4 KiB swap moves 128 bursts, 64 each way; docs/hetero_memory.md has the sweep behind 128).
  uint32_t margin = 128;
};

// Planar mode: decides whether an XPoint page has become hot enough to be swapped with its
// group's DRAM page. Sees the two pages' access counters, nothing else.
class HotPagePolicy {
 public:
  virtual ~HotPagePolicy() = default;
  virtual bool is_hot(uint32_t xpoint_page_count, uint32_t dram_page_count) const = 0;
};

// Hot once its counter reaches a fixed threshold.
class ThresholdHotPolicy : public HotPagePolicy {
 public:
  explicit ThresholdHotPolicy(uint32_t threshold) : m_threshold(threshold) {}
  bool is_hot(uint32_t xpoint_page_count, uint32_t) const override {
    return xpoint_page_count >= m_threshold;
  }

 private:
  uint32_t m_threshold;
};

// Hot once it reaches the threshold and leads the page it would evict by `margin` accesses,
// so that two pages used alike do not swap back and forth.
class BeatsResidentHotPolicy : public HotPagePolicy {
 public:
  BeatsResidentHotPolicy(uint32_t threshold, uint32_t margin)
      : m_threshold(threshold), m_margin(margin) {}
  bool is_hot(uint32_t xpoint_page_count, uint32_t dram_page_count) const override {
    return xpoint_page_count >= m_threshold &&
           uint64_t{xpoint_page_count} >= uint64_t{dram_page_count} + m_margin;
  }

 private:
  uint32_t m_threshold;
  uint32_t m_margin;
};

std::unique_ptr<HotPagePolicy> make_hot_page_policy(const HotPageConfig& config);

}  // namespace ohmvp
