#include "modules/common/process_error.h"

#include <cstring>
#include <new>

#include "modules/common/errors.h"

namespace ohmvp {

void rethrow_process_error(const sc_core::sc_report& report) {
  if (std::strcmp(report.get_msg(), std::bad_alloc().what()) == 0) throw std::bad_alloc();
  throw SimulationError(report.get_msg());
}

}  // namespace ohmvp
