#include "modules/memory/two_level_mode.h"

#include <algorithm>
#include <cstring>
#include <tlm>

namespace ohmvp {

struct TwoLevelMode::Stats {
  Counter& hits;
  Counter& misses;
  Counter& fills;
  Counter& writebacks;
  Counter& waited;
  Scalar& hit_rate;
  Stats(StatsRegistry& r, const std::string& g)
      : hits(r.counter(g, "dram_cache_hits", "requests", "requests whose line was in DRAM")),
        misses(r.counter(g, "dram_cache_misses", "requests", "requests that went to XPoint")),
        fills(r.counter(g, "fills", "lines", "lines copied from XPoint into DRAM")),
        writebacks(
            r.counter(g, "writebacks", "lines", "dirty victim lines written back to XPoint")),
        waited(r.counter(g, "waited_for_set", "requests",
                         "requests that waited for an earlier request to their DRAM set")),
        hit_rate(r.scalar(g, "dram_cache_hit_rate", "ratio", "hits / (hits + misses)")) {}
};

TwoLevelMode::TwoLevelMode(const HeteroConfig& config, const HeteroLayout& layout,
                           HeteroBackEnds& back_ends, StatsRegistry& stats,
                           const std::string& group)
    : m_back(back_ends),
      m_auto_rw(config.auto_rw),
      m_mapping{layout.dram_bytes / 64},
      m_metadata(layout.dram_bytes / 64),
      m_set_busy(layout.dram_bytes / 64, 0),
      m_stats(std::make_unique<Stats>(stats, group)) {}

void TwoLevelMode::submit(HeteroRequest& r) {
  r.page = r.address / 64;
  r.stage = tag_check;
  r.answered = false;
  const uint64_t set = m_mapping.set_of(r.page);
  if (m_set_busy[set] != 0) {
    m_stats->waited.inc();
    m_waiting.push_back(&r);
    return;
  }
  start(r);
}

void TwoLevelMode::start(HeteroRequest& r) {
  m_set_busy[m_mapping.set_of(r.page)] = 1;
  m_back.dram_read(set_address(m_mapping.set_of(r.page)), 64, false, r.id);
}

void TwoLevelMode::request_done(HeteroRequest& r, const uint8_t* data) {
  const uint64_t set = m_mapping.set_of(r.page);
  const uint32_t offset = static_cast<uint32_t>(r.address % 64);
  switch (r.stage) {
    case tag_check:
      on_tag_check(r, data);
      return;
    case xpoint_fetch: {
      std::memcpy(r.line, data, 64);
      if (r.is_write) {
        merge_into_line(r, r.line);
      } else {
        std::memcpy(r.payload->get_data_ptr(), r.line + offset, r.length);
        r.answered = true;
        m_back.answer(r);
      }
      m_metadata.write(set, DramCacheMetadata{true, r.is_write, m_mapping.tag_of(r.page)});
      m_stats->fills.inc();
      r.stage = fill;
      m_back.dram_write(set_address(set), r.line, nullptr, 64, true, r.id);
      return;
    }
    case hit_write:
    case fill:
      if (!r.answered) m_back.answer(r);
      done_with_set(r);
      return;
  }
}

void TwoLevelMode::on_tag_check(HeteroRequest& r, const uint8_t* data) {
  const uint64_t set = m_mapping.set_of(r.page);
  const uint8_t tag = m_mapping.tag_of(r.page);
  // The DRAM burst brings the line's ECC-region metadata with it.
  const DramCacheMetadata md = m_metadata.read(set);
  const uint32_t offset = static_cast<uint32_t>(r.address % 64);
  if (md.valid && md.tag == tag) {
    m_stats->hits.inc();
    if (!r.is_write) {
      std::memcpy(r.payload->get_data_ptr(), data + offset, r.length);
      m_back.answer(r);
      done_with_set(r);
      return;
    }
    std::memcpy(r.line, data, 64);
    merge_into_line(r, r.line);
    m_metadata.write(set, DramCacheMetadata{true, true, tag});
    r.stage = hit_write;
    m_back.dram_write(set_address(set), r.line, nullptr, 64, false, r.id);
    return;
  }
  m_stats->misses.inc();
  if (md.valid && md.dirty) {
    m_stats->writebacks.inc();
    const uint64_t victim = m_mapping.xpoint_line(set, md.tag) * 64;
    if (m_auto_rw) {
      // The XPoint controller snarfed the line with its tag on the way to the controller, saw
      // the miss and writes the victim back itself.
      m_back.xpoint_snarfed_write(victim, data, 64, migration_token | r.id);
    } else {
      m_back.xpoint_write(victim, data, 64, true, migration_token | r.id);
    }
  }
  r.stage = xpoint_fetch;
  m_back.xpoint_read(r.page * 64, 64, true, r.id);
}

void TwoLevelMode::done_with_set(HeteroRequest& r) {
  const uint64_t set = m_mapping.set_of(r.page);
  m_set_busy[set] = 0;
  const auto next = std::find_if(m_waiting.begin(), m_waiting.end(), [&](HeteroRequest* w) {
    return m_mapping.set_of(w->page) == set;
  });
  if (next != m_waiting.end()) {
    HeteroRequest* w = *next;
    m_waiting.erase(next);
    start(*w);
  }
  // Last: retiring may hand the manager's next request to this set straight back to us.
  m_back.retire(r);
}

void TwoLevelMode::finish_stats() {
  const double total = static_cast<double>(m_stats->hits.value() + m_stats->misses.value());
  m_stats->hit_rate.set(total == 0 ? 0.0 : static_cast<double>(m_stats->hits.value()) / total);
}

TwoLevelMode::~TwoLevelMode() = default;

}  // namespace ohmvp
