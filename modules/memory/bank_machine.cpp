#include "modules/memory/bank_machine.h"

namespace ohmvp {

void BankMachine::remove(bool writes, size_t position) {
  auto& q = queue(writes);
  --m_burst_counts[burst_slot(q[position]->burst_address)];
  q.erase(q.begin() + static_cast<std::ptrdiff_t>(position));
  forget_choices();
}

void BankMachine::apply(DdrCommand command, Row row) {
  forget_choices();
  switch (command) {
    case DdrCommand::ACT:
      m_open = true;
      m_row = row;
      m_hits_ahead = 0;
      break;
    case DdrCommand::PRE:
    case DdrCommand::PREA:
    case DdrCommand::RDA:
    case DdrCommand::WRA:
    case DdrCommand::REF:
      m_open = false;
      break;
    case DdrCommand::RD:
    case DdrCommand::WR:
      break;
  }
}

}  // namespace ohmvp
