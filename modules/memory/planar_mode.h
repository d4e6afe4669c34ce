#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "modules/common/lazy_table.h"
#include "modules/common/stats.h"
#include "modules/memory/counter_decay.h"
#include "modules/memory/hetero_config.h"
#include "modules/memory/hetero_request.h"
#include "modules/memory/hot_page_policy.h"
#include "modules/memory/migration_issue_policy.h"
#include "modules/memory/page_access_counters.h"
#include "modules/memory/page_mapping_table.h"
#include "modules/memory/xpoint_end_buffer.h"

namespace ohmvp {

// Planar mode: DRAM and XPoint are one address space of groups of one DRAM page and k XPoint
// pages. Each request is routed by the mapping table and counted; when an XPoint page turns hot
// (HotPagePolicy) and its group is not swapping already, the controller swaps it with the
// group's DRAM page: it waits for the requests already sent to the two pages, reads both pages
// over the channel, writes each into the other's place, then updates the table. Requests to the
// two pages wait meanwhile; requests to other pages proceed. When each of a swap's transfers goes
// out is the MigrationIssuePolicy's call.
//
// With SWAP-CMD (Ohm-WOM, Ohm-BW) the XPoint controller moves the pages instead: the controller
// presets the DRAM page's banks (each burst's row opened and held), sends SWAP-CMD over the data
// route, and the XPoint controller's DDR sequence generator reads both pages and writes each
// into the other's place over the optical channel's memory route, burst by burst as soon as
// both reads of a burst are in; it signals ready over the data route, the controller releases
// the banks and the waiting requests. The sequence generator's DRAM commands go through the DRAM
// controller's command timing (a modelling choice: the DRAM has one timing state, and only the
// controller knows it); its XPoint accesses never cross the data route. The manager does not
// see the banks, and on the shipped DRAMs every page spans all of them, so it takes any two DRAM
// pages to share banks: one swap at a time holds presets, and a swap whose requests have drained
// while another holds them waits for their release (modelling choice; two presets of different
// rows in one bank cannot both be held).
class PlanarMode {
 public:
  PlanarMode(const HeteroConfig& config, const HeteroLayout& layout, HeteroBackEnds& back_ends,
             StatsRegistry& stats, const std::string& group);
  ~PlanarMode();

  void submit(HeteroRequest& request);
  void request_done(HeteroRequest& request, const uint8_t* data);
  // `crossed` false: a DRAM read answered from the controller's write queue (DramPort::Done).
  void migration_done(uint64_t token, const uint8_t* data, bool crossed);
  bool idle() const { return m_active_migrations == 0; }

  const PageMappingTable& table() const { return m_table; }
  const PageAccessCounters& counters() const { return m_counters; }
  // Where a logical address lives now: true for DRAM; `device_address` in that device.
  bool locate(uint64_t address, uint64_t& device_address) const;

 private:
  enum class Phase : uint8_t {
    idle,
    draining,
    awaiting_banks,  // SWAP-CMD: drained, while another swap holds its bank presets
    reading,
    writing,
    presetting,
    commanding,
    moving,
    signalling,
    releasing
  };
  enum Kind : uint64_t {
    dram_read = 0,
    xpoint_read = 1,
    dram_write = 2,
    xpoint_write = 3,
    preset = 4,        // SWAP-CMD: a burst's row opened and held
    swap_command = 5,  // SWAP-CMD across the data route
    swap_ready = 6,    // the XPoint controller's ready across
    release = 7,       // a burst's row released
  };
  struct Transfer {
    Kind kind;
    uint32_t burst;
    bool waited = false;  // held back by a full register buffer before
  };
  // A burst's reads in a swap: its DRAM read, its XPoint read, and whether the DRAM controller
  // answered the DRAM one from its write queue (then no burst crossed to be snarfed).
  enum BurstReads : uint8_t { dram_in = 1, xpoint_in = 2, both_in = 3, dram_queued = 4 };
  struct Migration {
    Phase phase = Phase::idle;
    uint64_t hot_page = 0;       // in XPoint, moving to DRAM
    uint64_t resident_page = 0;  // in DRAM, moving to XPoint
    uint64_t dram_base = 0;
    uint64_t xpoint_base = 0;
    uint32_t outstanding = 0;
    uint32_t snarfed_outstanding = 0;  // auto-read/write: XPoint writes of the DRAM page
    // Auto-read/write and SWAP-CMD: per burst, which of its reads are in (BurstReads).
    std::vector<uint8_t> bursts_read;
    uint64_t start_ps = 0;
    uint64_t moved_bytes = 0;  // SWAP-CMD: what the sequence generator's writes have moved
    std::vector<uint8_t> from_dram;
    std::vector<uint8_t> from_xpoint;
    std::deque<HeteroRequest*> waiters;
    std::deque<Transfer> queued;  // not sent yet (MigrationIssuePolicy)
  };
  struct Stats;

  void route(HeteroRequest& request);
  void issue(HeteroRequest& request);
  void consider_swap(uint64_t page);
  Migration* migration_of(uint64_t page);
  void start_reads(Migration& m);
  void start_writes(Migration& m);
  // Sends the swap's queued transfers while the issue policy lets them go.
  void pump(Migration& m);
  // Whether requests wait for swap `m`: its waiters, and with SWAP-CMD any front DRAM read in
  // flight, which the swap's bank presets may be holding back.
  bool has_waiters(const Migration& m) const;
  void pump_all();
  // SWAP-CMD's messages over the data route, as their wire forms (tlm_protocols/swap_cmd.h).
  void send_swap_command(Migration& m);
  void take_swap_command(Migration& m, const uint8_t* data);
  void send_swap_completion(Migration& m);
  void take_swap_completion(const uint8_t* data) const;
  // SWAP-CMD: whether the register buffer at the XPoint end has room for what `t` reads.
  bool buffer_room_for(Transfer& t);
  void send(Migration& m, const Transfer& t);
  void finish(Migration& m);
  // SWAP-CMD: the steps after the drain, and each back-end completion.
  void start_preset(Migration& m);
  // Whether a SWAP-CMD swap holds bank presets (from presetting to releasing).
  bool presets_held() const;
  // The swap that has waited longest for the presets to be free, or null.
  Migration* next_awaiting_banks();
  void swap_cmd_done(Migration& m, Kind kind, uint64_t burst, const uint8_t* data);
  uint64_t token(const Migration& m, Kind kind, uint64_t burst) const;
  uint32_t bursts() const { return m_config.page_bytes / 64; }

  HeteroConfig m_config;
  HeteroLayout m_layout;
  HeteroBackEnds& m_back;
  PageMappingTable m_table;
  std::unique_ptr<CounterDecay> m_decay;
  std::unique_ptr<HotPagePolicy> m_hot;
  std::unique_ptr<MigrationIssuePolicy> m_issue;
  uint32_t m_reads_in_flight = 0;       // front reads sent to DRAM or XPoint, not answered
  uint32_t m_dram_reads_in_flight = 0;  // those of them sent to DRAM
  uint32_t m_write_tokens = 0;          // transfers front writes have made room for
  PageAccessCounters m_counters;
  LazyTable<uint16_t> m_in_flight;  // per page: requests sent to its device, not done
  std::vector<Migration> m_migrations;
  XPointEndBuffer m_xpoint_end;
  uint32_t m_active_migrations = 0;
  std::unique_ptr<Stats> m_stats;
};

}  // namespace ohmvp
