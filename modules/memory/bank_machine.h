#pragma once

#include <vector>

#include "modules/memory/controller_request.h"

namespace ohmvp {

// One DRAM bank as the controller sees it: whether a row is open, and the requests waiting
// for it. It says which command a request needs next; the controller decides when to issue.
class BankMachine {
 public:
  bool is_open() const { return m_open; }
  Row open_row() const { return m_row; }

  std::vector<ControllerRequest*>& queue(bool writes) { return writes ? m_writes : m_reads; }
  const std::vector<ControllerRequest*>& reads() const { return m_reads; }
  const std::vector<ControllerRequest*>& writes() const { return m_writes; }
  bool has_requests() const { return !m_reads.empty() || !m_writes.empty(); }

  void enqueue(ControllerRequest* request) {
    queue(request->is_write).push_back(request);
    ++m_burst_counts[burst_slot(request->burst_address)];
    forget_choices();
  }
  // False when no queued request can be to this burst (a counting filter over burst addresses,
  // so that the common case needs no scan of the queues).
  bool may_hold(uint64_t burst_address) const {
    return m_burst_counts[burst_slot(burst_address)] != 0;
  }
  void remove(bool writes, size_t position);

  // The controller's last choice of request and command for each queue, kept until the queue
  // or the bank state changes, so that a scheduling pass need not rescan unchanged banks.
  // With no eligible request, bank_ready and tie_break are UINT64_MAX: such a choice never wins.
  struct Choice {
    bool known = false;
    // Not known, but position and request still hold: only the command and its bounds are to be
    // worked out again (see keep_choice()).
    bool request_holds = false;
    size_t position = 0;  // Scheduler::npos when no request is eligible
    ControllerRequest* request = nullptr;
    DdrCommand command = DdrCommand::ACT;
    uint64_t bank_ready = 0;  // TimingChecker::bank_earliest of the command
    size_t shared_index = 0;  // TimingChecker::shared_index of the command
    // The tie-break between choices due at the same cycle, lowest first: column commands
    // before others, then the older request.
    uint64_t tie_break = 0;
    bool bypasses = false;  // Scheduler::Pick::bypasses
  };
  Choice& choice(bool writes) { return m_choices[writes ? 1 : 0]; }
  void forget_choices() {
    for (Choice& c : m_choices) c.known = c.request_holds = false;
  }

  // An Ohm-GPU bank preset: the bank keeps `row` for a swap. Presets of one row nest; a preset
  // of another row while one holds the bank is the caller's error.
  void pin(Row row) {
    m_pinned_row = row;
    ++m_pins;
    forget_choices();
  }
  void unpin() {
    if (m_pins > 0) --m_pins;
    forget_choices();
  }
  bool pinned() const { return m_pins != 0; }
  Row pinned_row() const { return m_pinned_row; }
  // Whether `request` may be served now: not while the bank is held for another row.
  bool serves(const ControllerRequest& request) const {
    return m_pins == 0 || request.address.row == m_pinned_row;
  }

  // ACT if the bank is closed, PRE if another row is open, else the column command.
  DdrCommand next_command(const ControllerRequest& request, bool auto_precharge) const {
    if (!m_open) return DdrCommand::ACT;
    if (m_row != request.address.row) return DdrCommand::PRE;
    if (request.is_write) return auto_precharge ? DdrCommand::WRA : DdrCommand::WR;
    return auto_precharge ? DdrCommand::RDA : DdrCommand::RD;
  }
  // Updates the open/closed state for a command issued to this bank.
  void apply(DdrCommand command, Row row);
  // Column accesses that went ahead of an older request to another row since the row opened.
  uint32_t hits_ahead() const { return m_hits_ahead; }
  void count_hit_ahead() { ++m_hits_ahead; }
  // After the PRE or ACT of a queue's chosen request (applied, bank not preset): the request stays
  // the choice. It was the oldest eligible one (no request hit the open row, or the bank was
  // closed), and after the PRE the bank is closed, after the ACT it is the oldest to hit the row.
  void keep_choice(bool writes) { m_choices[writes ? 1 : 0].request_holds = true; }

 private:
  static size_t burst_slot(uint64_t burst_address) {
    return ((burst_address >> 6) ^ (burst_address >> 13) ^ (burst_address >> 20)) & 63;
  }

  bool m_open = false;
  Row m_row{};
  uint32_t m_hits_ahead = 0;
  uint32_t m_pins = 0;
  Row m_pinned_row{};
  std::vector<ControllerRequest*> m_reads;
  std::vector<ControllerRequest*> m_writes;
  Choice m_choices[2];
  uint16_t m_burst_counts[64] = {};
};

}  // namespace ohmvp
