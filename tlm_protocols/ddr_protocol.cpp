#include "tlm_protocols/ddr_protocol.h"

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

bool from_phase(const tlm::tlm_phase& phase, DdrCommand& command) {
  for (unsigned i = 0; i < ddr_command_count; ++i) {
    auto candidate = static_cast<DdrCommand>(i);
    if (phase == to_phase(candidate)) {
      command = candidate;
      return true;
    }
  }
  return false;
}

tlm::tlm_extension_base* DdrExtension::clone() const {
  return new DdrExtension(*this);
}

void DdrExtension::copy_from(const tlm::tlm_extension_base& other) {
  *this = static_cast<const DdrExtension&>(other);
}

}  // namespace ohmvp
