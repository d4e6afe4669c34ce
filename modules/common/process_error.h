#pragma once

#include <systemc>

namespace ohmvp {

// An exception thrown inside a SystemC process reaches sc_start's caller as an sc_report with the
// exception's text. Rethrows it as what it was: std::bad_alloc when the process ran out of host
// memory (the CLI's "out of host memory"), else a SimulationError with the report's text.
[[noreturn]] void rethrow_process_error(const sc_core::sc_report& report);

}  // namespace ohmvp
