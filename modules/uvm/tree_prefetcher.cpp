#include "modules/uvm/tree_prefetcher.h"

#include <stdexcept>

#include "modules/common/power_of_two.h"

namespace ohmvp {

std::vector<bool> TreePrefetcher::pages_to_migrate(const std::vector<bool>& resident,
                                                   const std::vector<bool>& faulted,
                                                   const std::vector<bool>& allocated) const {
  const size_t pages = resident.size();
  if (faulted.size() != pages || allocated.size() != pages || !is_power_of_two(pages))
    throw std::invalid_argument(
        "TreePrefetcher: the block's page vectors differ in size or are "
        "not a power of two long");
  std::vector<bool> migrate(pages, false);
  for (size_t p = 0; p < pages; ++p) migrate[p] = faulted[p] && !resident[p] && allocated[p];
  if (m_threshold == 0) return migrate;
  // Prefix counts of the pages present (resident or faulted, in the allocation) and allocated.
  std::vector<size_t> present(pages + 1, 0), in_allocation(pages + 1, 0);
  for (size_t p = 0; p < pages; ++p) {
    present[p + 1] = present[p] + ((resident[p] || faulted[p]) && allocated[p]);
    in_allocation[p + 1] = in_allocation[p] + allocated[p];
  }
  for (size_t leaf = 0; leaf < pages; ++leaf) {
    if (!faulted[leaf] || !allocated[leaf]) continue;
    size_t chosen_first = leaf, chosen_size = 0;
    for (size_t size = 2; size <= pages; size *= 2) {
      const size_t first = leaf / size * size;
      const uint64_t counted = present[first + size] - present[first];
      const uint64_t covered = in_allocation[first + size] - in_allocation[first];
      if (counted * 100 > uint64_t(m_threshold) * covered) {
        chosen_first = first;
        chosen_size = size;
      }
    }
    for (size_t p = chosen_first; p < chosen_first + chosen_size; ++p)
      if (allocated[p] && !resident[p]) migrate[p] = true;
  }
  return migrate;
}

}  // namespace ohmvp
