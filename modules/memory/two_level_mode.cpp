#include "modules/memory/two_level_mode.h"

#include <algorithm>
#include <cstring>
#include <tlm>

namespace ohmvp {

// A reverse write's notice and confirmation: one 64-bit word each over the data route (a
// modelling choice: the paper gives no message format).
constexpr uint32_t reverse_write_message_bytes = 8;

struct TwoLevelMode::Stats {
  Counter& hits;
  Counter& misses;
  Counter& fills;
  Counter& writebacks;
  Counter& reverse_writes;
  Counter& waited;
  Scalar& hit_rate;
  Stats(StatsRegistry& r, const std::string& g)
      : hits(r.counter(g, "dram_cache_hits", "requests", "requests whose line was in DRAM")),
        misses(r.counter(g, "dram_cache_misses", "requests", "requests that went to XPoint")),
        fills(r.counter(g, "fills", "lines", "lines copied from XPoint into DRAM")),
        writebacks(
            r.counter(g, "writebacks", "lines", "dirty victim lines written back to XPoint")),
        reverse_writes(r.counter(g, "reverse_writes", "lines",
                                 "fills the XPoint controller wrote into DRAM over the memory "
                                 "route (reverse write)")),
        waited(r.counter(g, "waited_for_set", "requests",
                         "requests that waited for an earlier request to their DRAM set")),
        hit_rate(r.scalar(g, "dram_cache_hit_rate", "ratio", "hits / (hits + misses)")) {}
};

TwoLevelMode::TwoLevelMode(const HeteroConfig& config, const HeteroLayout& layout,
                           HeteroBackEnds& back_ends, StatsRegistry& stats,
                           const std::string& group)
    : m_back(back_ends),
      m_auto_rw(config.auto_rw),
      m_reverse_write(config.reverse_write),
      m_mapping{layout.dram_bytes / 64},
      m_metadata(layout.dram_bytes / 64),
      m_set_busy(layout.dram_bytes / 64, 0),
      m_xpoint_end(config.register_buffer_bytes, stats, group),
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
  m_set_busy.at(m_mapping.set_of(r.page)) = 1;
  m_back.dram_read(set_address(m_mapping.set_of(r.page)), 64, Traffic::regular, r.id);
}

void TwoLevelMode::request_done(HeteroRequest& r, const uint8_t* data, bool crossed) {
  const uint32_t offset = static_cast<uint32_t>(r.address % 64);
  switch (r.stage) {
    case tag_check:
      on_tag_check(r, data, crossed);
      return;
    case xpoint_fetch:
      std::memcpy(r.line, data, 64);
      if (r.is_write) merge_into_line(r, r.line);
      if (!r.is_write) {
        std::memcpy(r.payload->get_data_ptr(), r.line + offset, r.length);
        r.answered = true;
        m_back.answer(r);
      }
      fill_line(r);
      return;
    case reverse_announce:
    case reverse_confirm:
    case reverse_confirmed:
      on_reverse_write_step(r, data);
      return;
    case hit_write:
    case fill:
    case reverse_fill:
      if (r.stage == reverse_fill) {
        m_back.migration_in_flight(--m_reverse_writes_in_flight);
        m_xpoint_end.release(64);
        if (!m_buffer_waiting.empty() && m_xpoint_end.reserve(64)) {
          HeteroRequest* next = m_buffer_waiting.front();
          m_buffer_waiting.pop_front();
          start_reverse_write(*next);
        }
      }
      if (!r.is_write && !r.answered) {
        // Reverse write: the DDR monitor snarfed the fill.
        std::memcpy(r.payload->get_data_ptr(), r.line + offset, r.length);
      }
      if (!r.answered) m_back.answer(r);
      done_with_set(r);
      return;
  }
}

void TwoLevelMode::on_reverse_write_step(HeteroRequest& r, const uint8_t* data) {
  if (data != nullptr) {
    // The line read out of XPoint.
    std::memcpy(r.line, data, 64);
    if (r.is_write) merge_into_line(r, r.line);
    r.line_ready = true;
  } else if (r.stage == reverse_announce) {
    // The notice is across; the controller arms its DDR monitor and confirms.
    r.stage = reverse_confirm;
    m_back.control_message(nullptr, reverse_write_message_bytes, r.id);
    return;
  } else {
    r.stage = reverse_confirmed;
  }
  if (r.line_ready && r.stage == reverse_confirmed) {
    m_stats->reverse_writes.inc();
    fill_line(r);
  }
}

void TwoLevelMode::fill_line(HeteroRequest& r) {
  const uint64_t set = m_mapping.set_of(r.page);
  m_metadata.write(set, DramCacheMetadata{true, r.is_write, m_mapping.tag_of(r.page)});
  m_stats->fills.inc();
  r.stage = m_reverse_write ? reverse_fill : fill;
  m_back.dram_write(set_address(set), r.line, nullptr, 64,
                    m_reverse_write ? Traffic::memory_route : Traffic::migration, r.id);
}

void TwoLevelMode::on_tag_check(HeteroRequest& r, const uint8_t* data, bool crossed) {
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
    m_back.dram_write(set_address(set), r.line, nullptr, 64, Traffic::regular, r.id);
    return;
  }
  m_stats->misses.inc();
  if (md.valid && md.dirty) {
    m_stats->writebacks.inc();
    const uint64_t victim = m_mapping.xpoint_line(set, md.tag) * 64;
    if (m_auto_rw && crossed) {
      // The XPoint controller snarfed the line with its tag on the way to the controller, saw
      // the miss and writes the victim back itself. A tag check the controller answered from
      // its write queue put no burst on the channel: the controller writes the victim back.
      m_back.xpoint_snarfed_write(victim, data, 64, migration_token | r.id);
    } else {
      m_back.xpoint_write(victim, data, 64, Traffic::migration, migration_token | r.id);
    }
  }
  if (m_reverse_write) {
    if (!m_buffer_waiting.empty() || !m_xpoint_end.reserve(64)) {
      m_xpoint_end.held();
      m_buffer_waiting.push_back(&r);
      return;
    }
    start_reverse_write(r);
    return;
  }
  r.stage = xpoint_fetch;
  m_back.xpoint_read(r.page * 64, 64, Traffic::migration, r.id);
}

void TwoLevelMode::start_reverse_write(HeteroRequest& r) {
  m_back.migration_in_flight(++m_reverse_writes_in_flight);
  // The XPoint controller announces the fill as it starts reading the line (which stays in the
  // register buffer at its end until it goes into DRAM), so the handshake overlaps the media read.
  r.stage = reverse_announce;
  r.line_ready = false;
  m_back.xpoint_read(r.page * 64, 64, Traffic::memory_route, r.id);
  m_back.control_message(nullptr, reverse_write_message_bytes, r.id);
}

void TwoLevelMode::done_with_set(HeteroRequest& r) {
  const uint64_t set = m_mapping.set_of(r.page);
  m_set_busy.at(set) = 0;
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
