#pragma once

#include <cstdint>
#include <vector>

namespace ohmvp {

// The NVIDIA UVM driver's density prefetcher over the pages of one VA block. The block's pages
// are the leaves of a binary tree; for each faulted page the prefetcher walks up from its leaf,
// and the largest region (subtree) in which more than `threshold_percent` of the pages are
// resident on the GPU or faulted in this batch is migrated whole (PARAMETERS.md: 51%). Only pages
// the allocation covers count and move; a block's page count must be a power of two.
class TreePrefetcher {
 public:
  // 0 turns prefetching off: only the faulted pages move.
  explicit TreePrefetcher(uint32_t threshold_percent) : m_threshold(threshold_percent) {}

  // The pages to migrate to the GPU: the faulted ones not resident, and the prefetched ones.
  // All three vectors have the block's page count.
  std::vector<bool> pages_to_migrate(const std::vector<bool>& resident,
                                     const std::vector<bool>& faulted,
                                     const std::vector<bool>& allocated) const;

 private:
  uint32_t m_threshold;
};

}  // namespace ohmvp
