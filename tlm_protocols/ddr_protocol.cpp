#include "tlm_protocols/ddr_protocol.h"

#include <vector>

namespace ohmvp {

const char* to_string(DdrCommand command) {
  static const char* const names[ddr_command_count] = {"ACT", "PRE", "PREA", "RD",
                                                       "WR",  "RDA", "WRA",  "REF"};
  return names[static_cast<unsigned>(command)];
}

const tlm::tlm_phase& to_phase(DdrCommand command) {
  static const tlm::tlm_phase* const phases[ddr_command_count] = {
      &ddr::ACT, &ddr::PRE, &ddr::PREA, &ddr::RD, &ddr::WR, &ddr::RDA, &ddr::WRA, &ddr::REF};
  return *phases[static_cast<unsigned>(command)];
}

namespace {

// Built when the program starts, after the phases of this file (the ids are global, so every
// file's copies of them share them).
std::vector<int8_t> make_command_of_phase() {
  std::vector<int8_t> table;
  for (unsigned c = 0; c < ddr_command_count; ++c) {
    const unsigned id = to_phase(static_cast<DdrCommand>(c));
    if (id >= table.size()) table.resize(id + 1, -1);
    table[id] = static_cast<int8_t>(c);
  }
  return table;
}

}  // namespace

const std::vector<int8_t> detail::command_of_phase = make_command_of_phase();

tlm::tlm_extension_base* DdrExtension::clone() const {
  return new DdrExtension(*this);
}

void DdrExtension::copy_from(const tlm::tlm_extension_base& other) {
  *this = static_cast<const DdrExtension&>(other);
}

}  // namespace ohmvp
