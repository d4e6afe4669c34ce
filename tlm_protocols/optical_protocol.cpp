#include "tlm_protocols/optical_protocol.h"

namespace ohmvp {

const char* to_string(OpticalEncoding encoding) {
  switch (encoding) {
    case OpticalEncoding::nrz:
      return "nrz";
    case OpticalEncoding::wom_first:
      return "wom_first";
    case OpticalEncoding::wom_second:
      return "wom_second";
  }
  return "?";
}

tlm::tlm_extension_base* OpticalExtension::clone() const {
  return new OpticalExtension(*this);
}

void OpticalExtension::copy_from(const tlm::tlm_extension_base& other) {
  *this = static_cast<const OpticalExtension&>(other);
}

}  // namespace ohmvp
