#include "tlm_protocols/ddr_t_protocol.h"

namespace ohmvp {

const char* to_string(DdrTCommand command) {
  switch (command) {
    case DdrTCommand::read:
      return "read";
    case DdrTCommand::write:
      return "write";
    case DdrTCommand::swap:
      return "swap";
  }
  return "?";
}

tlm::tlm_extension_base* DdrTExtension::clone() const {
  return new DdrTExtension(*this);
}

void DdrTExtension::copy_from(const tlm::tlm_extension_base& other) {
  *this = static_cast<const DdrTExtension&>(other);
}

}  // namespace ohmvp
