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
    forget_choices();
  }
  void remove(bool writes, size_t position);

  // The controller's last choice of request and command for each queue, kept until the queue
  // or the bank state changes, so that a scheduling pass need not rescan unchanged banks.
  struct Choice {
    bool known = false;
    size_t position = 0;  // Scheduler::npos when no request is eligible
    DdrCommand command = DdrCommand::ACT;
  };
  Choice& choice(bool writes) { return m_choices[writes ? 1 : 0]; }
  void forget_choices() { m_choices[0].known = m_choices[1].known = false; }

  // ACT if the bank is closed, PRE if another row is open, else the column command.
  DdrCommand next_command(const ControllerRequest& request, bool auto_precharge) const;
  // Updates the open/closed state for a command issued to this bank.
  void apply(DdrCommand command, Row row);

 private:
  bool m_open = false;
  Row m_row{};
  std::vector<ControllerRequest*> m_reads;
  std::vector<ControllerRequest*> m_writes;
  Choice m_choices[2];
};

}  // namespace ohmvp
