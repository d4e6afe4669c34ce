#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "modules/common/lazy_table.h"
#include "modules/common/stats.h"
#include "modules/memory/dram_cache_metadata.h"
#include "modules/memory/hetero_config.h"
#include "modules/memory/hetero_request.h"
#include "modules/memory/xpoint_end_buffer.h"

namespace ohmvp {

// Two-level mode: DRAM is a direct-mapped, inclusive cache of XPoint with 64-byte lines. A
// request reads its set's DRAM line, which brings the line's metadata (valid, dirty, tag) from
// the ECC region with the data. On a hit it is served from that line (a write writes the line
// back, dirty). On a miss a dirty victim is written back to XPoint, the line is read from XPoint
// and filled into DRAM (with the write merged in), and a read is answered as soon as the XPoint
// data is across. One request per set at a time: later ones to the set wait.
//
// With reverse write (Ohm-WOM, Ohm-BW) the fill does not cross the data route twice: the XPoint
// controller reads the line and meanwhile signals that it is about to write it into DRAM, the
// controller confirms (its DDR monitor armed), the XPoint controller writes the line into DRAM over
// the memory route and the monitor snarfs it there: the request is answered when that burst is
// across. The write's DRAM command goes through the DRAM controller's command timing (as for
// SWAP-CMD: a modelling choice).
class TwoLevelMode {
 public:
  TwoLevelMode(const HeteroConfig& config, const HeteroLayout& layout, HeteroBackEnds& back_ends,
               StatsRegistry& stats, const std::string& group);
  ~TwoLevelMode();

  void submit(HeteroRequest& request);
  // `crossed` false: a DRAM read answered from the controller's write queue (DramPort::Done).
  void request_done(HeteroRequest& request, const uint8_t* data, bool crossed);
  bool idle() const { return m_waiting.empty() && m_buffer_waiting.empty(); }
  void finish_stats();

  const DramMetadataStore& metadata() const { return m_metadata; }
  const DirectMapping& mapping() const { return m_mapping; }

 private:
  enum Stage : uint8_t {
    tag_check = 0,
    hit_write = 1,
    xpoint_fetch = 2,
    fill = 3,
    reverse_announce = 4,   // reverse write: the XPoint controller's notice crossing
    reverse_confirm = 5,    // the controller's confirmation crossing
    reverse_confirmed = 6,  // confirmed; the line may still be on its way out of XPoint
    reverse_fill = 7,       // the fill crossing the memory route, snarfed by the DDR monitor
  };
  struct Stats;

  void start(HeteroRequest& request);
  void on_tag_check(HeteroRequest& request, const uint8_t* data, bool crossed);
  void done_with_set(HeteroRequest& request);
  // The line is in r.line (merged with a write): into DRAM.
  void fill_line(HeteroRequest& request);
  // Reverse write: the line out of XPoint (`data`), or a handshake message across (null).
  void on_reverse_write_step(HeteroRequest& request, const uint8_t* data);
  // Reverse write: the XPoint read and the notice, once the register buffer has room for the line.
  void start_reverse_write(HeteroRequest& request);
  uint64_t set_address(uint64_t set) const { return set * 64; }

  HeteroBackEnds& m_back;
  bool m_auto_rw;
  bool m_reverse_write;
  uint32_t m_reverse_writes_in_flight = 0;  // for the VCD
  DirectMapping m_mapping;
  DramMetadataStore m_metadata;
  LazyTable<uint8_t> m_set_busy;
  std::vector<HeteroRequest*> m_waiting;  // for a busy set, oldest first
  XPointEndBuffer m_xpoint_end;
  std::deque<HeteroRequest*> m_buffer_waiting;  // reverse writes waiting for buffer room
  std::unique_ptr<Stats> m_stats;
};

}  // namespace ohmvp
